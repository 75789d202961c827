import type { AppContext } from '../../context.ts';

/**
 * In-memory substring index of the names of releases, collectibles and creators.
 *
 * Why in memory: Chinese search must match 1- and 2-character terms anywhere in a name, which a
 * trigram index cannot serve and `LIKE '%…%'` serves only by scanning every row. Names are short and
 * change rarely, so each server process keeps them normalised in one string per kind and finds
 * substrings with `indexOf` (measured: bench/RESULTS.md). Ranking is exact → prefix → infix;
 * exact and prefix candidates come from hash buckets, so the common case never scans.
 *
 * Freshness: a search older than REFRESH_MS since the last check loads rows with a higher id in
 * the background (new releases and collectibles appear within about a second in every process);
 * the whole index is rebuilt every REBUILD_MS (renames, deletions). Writers in this process call
 * invalidateSearchIndex to see their change at once. Both intervals are measured on the cache clock
 * (ctx.monotonicNow, see context.ts).
 */
const REFRESH_MS = 1000;
const REBUILD_MS = 5 * 60_000;
const SEP = '\u0000';

/** Case-, width- and space-insensitive form of a name or a term. */
export function normalize(s: string): string {
  return s.normalize('NFKC').toLowerCase().replace(/[\u0000-\u001f\u007f]/g, '').replace(/\s+/g, ' ').trim();
}

export type Tier = 0 | 1 | 2;
export interface Hit {
  idx: number;
  tier: Tier;
}

export class KindIndex {
  ids: number[] = [];
  names: string[] = [];
  norms: string[] = [];
  private starts: number[] = [];
  private hay = '';
  private exact = new Map<string, number[]>();
  private prefix1 = new Map<string, number[]>();
  private prefix2 = new Map<string, number[]>();
  maxId = 0;
  /** Ids left out of every result (burned collectibles): their names stay in the haystack. */
  hidden = new Set<number>();

  get size() {
    return this.ids.length;
  }

  add(rows: { id: number; name: string }[]) {
    if (!rows.length) return;
    const parts: string[] = [];
    let offset = this.hay.length;
    for (const r of rows) {
      const idx = this.ids.length;
      const n = normalize(r.name);
      this.ids.push(r.id);
      this.names.push(r.name);
      this.norms.push(n);
      offset += 1; // the separator before each name
      this.starts.push(offset);
      offset += n.length;
      parts.push(n);
      push(this.exact, n, idx);
      if (n.length >= 1) push(this.prefix1, n.slice(0, 1), idx);
      if (n.length >= 2) push(this.prefix2, n.slice(0, 2), idx);
      if (r.id > this.maxId) this.maxId = r.id;
    }
    this.hay += SEP + parts.join(SEP);
  }

  /** Item index whose name contains hay offset `pos`. */
  private itemAt(pos: number): number {
    let lo = 0;
    let hi = this.starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.starts[mid]! <= pos) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }

  /**
   * Matches of a normalised term, best first: exact names, then names starting with the term,
   * then names containing it; within a tier in index (id) order. Stops after `limit` matches
   * (Infinity: all of them).
   */
  search(term: string, limit = Infinity): Hit[] {
    const out: Hit[] = [];
    if (!term || term.includes(SEP) || !this.ids.length) return out;
    for (const idx of this.exact.get(term) ?? []) {
      if (this.hidden.has(this.ids[idx]!)) continue;
      out.push({ idx, tier: 0 });
      if (out.length >= limit) return out;
    }
    const bucket = term.length >= 2 ? this.prefix2.get(term.slice(0, 2)) : this.prefix1.get(term);
    if (bucket) {
      for (const idx of bucket) {
        const n = this.norms[idx]!;
        if (n.length > term.length && n.startsWith(term) && !this.hidden.has(this.ids[idx]!)) {
          out.push({ idx, tier: 1 });
          if (out.length >= limit) return out;
        }
      }
    }
    let from = 0;
    for (;;) {
      const pos = this.hay.indexOf(term, from);
      if (pos < 0) break;
      const idx = this.itemAt(pos);
      const start = this.starts[idx]!;
      // The first occurrence in an item is found first: at the start it was an exact/prefix match.
      if (pos > start && !this.hidden.has(this.ids[idx]!)) {
        out.push({ idx, tier: 2 });
        if (out.length >= limit) return out;
      }
      from = start + this.norms[idx]!.length + 1;
    }
    return out;
  }
}

function push(m: Map<string, number[]>, k: string, v: number) {
  const a = m.get(k);
  if (a) a.push(v);
  else m.set(k, [v]);
}

export interface SearchIndex {
  projects: KindIndex;
  goods: KindIndex;
  creators: KindIndex;
  checkedAt: number;
  builtAt: number;
  /** Bumped on every change, so caches of results can tell they are stale. */
  version: number;
}

interface Holder {
  index?: SearchIndex;
  ready?: Promise<SearchIndex>;
  refreshing?: Promise<void>;
}
const holders = new WeakMap<object, Holder>();

/** Rows per load query: each batch blocks the event loop for a few ms at most (better-sqlite3 is synchronous). */
const BATCH = 5000;
async function loadNew(ctx: AppContext, table: 'projects' | 'goods' | 'creators', into: KindIndex): Promise<number> {
  let added = 0;
  for (;;) {
    const rows = await ctx.db.kysely.selectFrom(table).select(['id', 'name']).where('id', '>', into.maxId).orderBy('id').limit(BATCH).execute();
    into.add(rows.map((r) => ({ id: Number(r.id), name: r.name })));
    added += rows.length;
    if (rows.length < BATCH) return added;
  }
}

/**
 * Burned collectibles (opened boxes, composed fragments, refunded drop units) leave the results: read
 * through the partial index goods_burned_idx (migration 0022), so only those rows. A burn is final, so
 * the set only grows; answers whether it changed.
 */
async function loadBurned(ctx: AppContext, into: KindIndex): Promise<boolean> {
  const rows = await ctx.db.kysely.selectFrom('goods').select('id').where('status', '=', 'burned').execute();
  if (rows.length === into.hidden.size) return false;
  into.hidden = new Set(rows.map((r) => Number(r.id)));
  return true;
}

/**
 * Creators disabled by staff leave the results. Enabling or disabling one rebuilds this process's
 * index at once (invalidateSearchIndex); other processes see it at their next rebuild.
 */
async function loadDisabledCreators(ctx: AppContext, into: KindIndex): Promise<void> {
  const rows = await ctx.db.kysely.selectFrom('creators').select('id').where('disabled_at', 'is not', null).execute();
  into.hidden = new Set(rows.map((r) => Number(r.id)));
}

async function build(ctx: AppContext): Promise<SearchIndex> {
  const startedAt = ctx.monotonicNow();
  const index: SearchIndex = { projects: new KindIndex(), goods: new KindIndex(), creators: new KindIndex(), checkedAt: 0, builtAt: 0, version: 0 };
  await loadNew(ctx, 'projects', index.projects);
  await loadNew(ctx, 'creators', index.creators);
  await loadDisabledCreators(ctx, index.creators);
  await loadNew(ctx, 'goods', index.goods);
  await loadBurned(ctx, index.goods);
  index.checkedAt = index.builtAt = startedAt;
  index.version = Math.random();
  return index;
}

/** The index of this database, built on first use; refreshed in the background as described above. */
export async function getSearchIndex(ctx: AppContext): Promise<SearchIndex> {
  let h = holders.get(ctx.db);
  if (!h) holders.set(ctx.db, (h = {}));
  const holder = h;
  if (!holder.index) {
    holder.ready ??= build(ctx).then(
      (i) => ((holder.index = i), (holder.ready = undefined), i),
      (err) => {
        holder.ready = undefined;
        throw err;
      },
    );
    return holder.ready;
  }
  const index = holder.index;
  const now = ctx.monotonicNow();
  if (now - index.checkedAt > REFRESH_MS && !holder.refreshing) {
    index.checkedAt = now;
    holder.refreshing = (async () => {
      if (now - index.builtAt > REBUILD_MS) {
        holder.index = await build(ctx);
        return;
      }
      // Appends only: searches running meanwhile see either the old or the new end of the arrays.
      const added = (await loadNew(ctx, 'projects', index.projects)) + (await loadNew(ctx, 'creators', index.creators)) + (await loadNew(ctx, 'goods', index.goods));
      const burned = await loadBurned(ctx, index.goods);
      if (added || burned) index.version = Math.random();
    })()
      .catch(() => undefined)
      .finally(() => {
        holder.refreshing = undefined;
      });
  }
  return index;
}

/** Resolves when a background refresh or rebuild that is under way has finished (tests; at once when none is). */
export async function searchIndexSettled(ctx: AppContext): Promise<void> {
  const h = holders.get(ctx.db);
  await h?.ready?.catch(() => undefined);
  await h?.refreshing;
}

/** Drops this database's index; the next search rebuilds it (after bulk writes such as seeding). */
export function invalidateSearchIndex(ctx: AppContext) {
  holders.delete(ctx.db);
}
