import { sql, type CompiledQuery } from 'kysely';
import { goodsDetail as goodsDetailSchema } from '@cfx/contract/catalog.ts';
import { Status } from '@cfx/contract/envelope.ts';
import { formatMessage, type Lang } from '@cfx/contract/messages.ts';
import type { AppContext } from '../../context.ts';
import { readGoods } from './get-goods.ts';
import type { ProjectInfo } from './project-info.ts';
import { projectInfo } from './project-info.ts';
import { projectStatusOf } from './repo.ts';
import { dataVersion } from './result-cache.ts';

/**
 * The encoded response of goods/v1/details/ per collectible, kept as bytes.
 *
 * Why: a collectible page is what a whole crowd opens at once on drop day, and most of the call's
 * cost was not the database but turning a 1 KB object into JSON text and then into UTF-8 bytes
 * (bench/RESULTS.md). An entry holds the envelope up to `"serverTime":` as a Buffer; a hit appends
 * the clock and the language's message and sends the bytes as they are.
 *
 * Freshness: triggers log every change of a goods row, of an owner's nickname or avatar, and of an
 * avatar picture in `catalog_changes` (migration 0007), whoever writes it. Before answering, the
 * cache applies the log rows it has not applied yet — each exactly once — and drops exactly those
 * entries (a row without goods id, "any collectible may show it", drops them all once).
 * - SQLite: the log is read when `total_changes()`/`data_version` moved (one cheap statement per
 *   request, the same as the list cache) — an entry never outlives a committed change, from this
 *   process or another. Writers are serialised, so seq order is commit order: rows above the
 *   highest seq seen are all that is new.
 * - PostgreSQL: the log is read at most every CATALOG_CACHE_MS (default 1 s, the staleness bound
 *   of lists too). A sequence value can commit after a larger one, so the seqs skipped below the
 *   highest one seen ("holes": a transaction still in flight, or rolled back) are asked for again
 *   by id for LATE_COMMIT_MS after they were noticed; a hole that shows up is applied once and
 *   forgotten. A transaction that commits its change-log row more than LATE_COMMIT_MS after a
 *   larger seq was read is the one case that is missed (on start: more than LATE_COMMIT_MS after
 *   the row was written).
 * Time: intervals are measured on the cache clock (ctx.monotonicNow); the log's created_at is the
 * database's clock, compared only with the database's clock (start, pruning). Tests advance the
 * cache clock instead of sleeping.
 * An entry also remembers its release (ProjectInfo, which keeps its identity while unchanged) and
 * the release's status at fill time: a rename, price change or a sale window edge misses it.
 * DETAILS_CACHE_MB bounds the memory (0 turns the cache off; responses are still sent as bytes).
 */
const CHANGE_LOG_KEEP_MS = 10 * 60_000;
const LATE_COMMIT_MS = 30_000;
const PRUNE_EVERY_MS = 60_000;
/** More unseen changes than this drop everything instead of reading them one by one. */
const MAX_CHANGES_READ = 5000;
/** PostgreSQL: more open holes than this (thousands of changes in flight or rolled back at once) start over. */
const MAX_HOLES = 10_000;

interface Entry {
  head: Buffer;
  project: ProjectInfo;
  projectStatus: string;
}

interface Store {
  entries: Map<number, Entry>;
  bytes: number;
  /** Highest change seq seen; -1 before the first sync. */
  seq: number;
  /** PostgreSQL: seqs below `seq` not seen yet → the cache time until which they are asked for. */
  holes: Map<number, number>;
  version: string;
  /** ctx.monotonicNow() of the last sync. */
  syncedAt: number;
  prunedAt: number;
  /** Bumped whenever changes are applied: a fill that started before must not store its result. */
  epoch: number;
  syncing?: Promise<void>;
  /** Answers from an entry / filled afresh, and times the whole cache was dropped (operations and tests). */
  hits: number;
  misses: number;
  flushes: number;
}

const stores = new WeakMap<object, Store>();

function storeOf(ctx: AppContext): Store {
  let s = stores.get(ctx.db);
  if (!s) {
    s = {
      entries: new Map(), bytes: 0, seq: -1, holes: new Map(), version: '', syncedAt: -Infinity, prunedAt: ctx.monotonicNow(), epoch: 0,
      hits: 0, misses: 0, flushes: 0,
    };
    stores.set(ctx.db, s);
  }
  return s;
}

function clear(s: Store) {
  s.flushes++;
  s.entries.clear();
  s.bytes = 0;
  s.epoch++;
}

function drop(s: Store, id: number) {
  const e = s.entries.get(id);
  if (e) {
    s.entries.delete(id);
    s.bytes -= e.head.length;
  }
}

type Change = { seq: number; goods_id: number | null };
interface LogQueries {
  /** SQLite [seq, limit]; PostgreSQL [seq, holes, limit]: rows above seq (and the holes), by seq. */
  changes: CompiledQuery<Change>;
  /** SQLite: the highest seq. */
  max: CompiledQuery<{ m: number | null }>;
  /** PostgreSQL [lateMs]: the highest seq, and the highest one logged more than lateMs ago. */
  bounds: CompiledQuery<{ hi: number | null; lo: number | null }>;
  /** PostgreSQL [lo, hi, limit]: the seqs in (lo, hi] that are not visible, newest first. */
  holes: CompiledQuery<{ seq: number }>;
  /** [keepMs]: deletes rows logged more than keepMs ago. */
  prune: CompiledQuery<unknown>;
}
const logQueries = new WeakMap<object, LogQueries>();
function queriesOf(ctx: AppContext): LogQueries {
  let q = logQueries.get(ctx.db);
  if (!q) {
    const k = ctx.db.kysely;
    // The database's clock, as the triggers write created_at (migration 0007).
    const dbNow = sql.raw(ctx.db.dialect === 'sqlite' ? `cast((julianday('now') - 2440587.5) * 86400000 as integer)` : `(extract(epoch from clock_timestamp()) * 1000)::bigint`);
    q = {
      changes:
        ctx.db.dialect === 'sqlite'
          ? sql<Change>`select seq, goods_id from catalog_changes where seq > ${0} order by seq limit ${0}`.compile(k)
          : sql<Change>`select seq, goods_id from catalog_changes where seq > ${0} or seq = any(${[]}::bigint[]) order by seq limit ${0}`.compile(k),
      max: sql<{ m: number | null }>`select max(seq) as m from catalog_changes`.compile(k),
      bounds: sql<{ hi: number | null; lo: number | null }>`select (select max(seq) from catalog_changes) as hi, (select max(seq) from catalog_changes where created_at <= ${dbNow} - ${0}) as lo`.compile(k),
      holes: sql<{ seq: number }>`select g.s as seq from generate_series(${0}::bigint + 1, ${0}::bigint) as g(s) where not exists (select 1 from catalog_changes c where c.seq = g.s) order by g.s desc limit ${0}`.compile(k),
      prune: sql`delete from catalog_changes where created_at < ${dbNow} - ${0}`.compile(k),
    };
    logQueries.set(ctx.db, q);
  }
  return q;
}

/** Starts over from an empty cache at the log's current end (first sync, long idle, too much to read). */
async function start(ctx: AppContext, s: Store, now: number) {
  clear(s);
  s.holes.clear();
  const q = queriesOf(ctx);
  if (ctx.db.dialect === 'sqlite') {
    const [row] = await ctx.db.run(q.max, []);
    s.seq = Number(row?.m ?? 0);
  } else {
    // A row logged in the last LATE_COMMIT_MS below the highest seq may still be in flight: a hole.
    const [b] = await ctx.db.run(q.bounds, [LATE_COMMIT_MS]);
    const hi = Number(b?.hi ?? 0);
    const lo = Number(b?.lo ?? 0);
    if (hi > lo) for (const r of await ctx.db.run(q.holes, [lo, hi, MAX_HOLES])) s.holes.set(Number(r.seq), now + LATE_COMMIT_MS);
    s.seq = hi;
  }
  s.syncedAt = now;
}

async function readChanges(ctx: AppContext, s: Store) {
  const now = ctx.monotonicNow();
  // First sync, or idle for so long that pruned rows may be unseen: start from an empty cache.
  if (s.seq < 0 || now - s.syncedAt > CHANGE_LOG_KEEP_MS / 2) return start(ctx, s, now);
  const q = queriesOf(ctx);
  const sqlite = ctx.db.dialect === 'sqlite';
  let rows: Change[];
  if (sqlite) {
    rows = await ctx.db.run(q.changes, [s.seq, MAX_CHANGES_READ + 1]);
  } else {
    for (const [seq, until] of s.holes) if (until <= now) s.holes.delete(seq);
    rows = await ctx.db.run(q.changes, [s.seq, [...s.holes.keys()], MAX_CHANGES_READ + 1]);
  }
  if (rows.length > MAX_CHANGES_READ) return start(ctx, s, now);
  let all = false;
  const ids: number[] = [];
  for (const r of rows) {
    const seq = Number(r.seq);
    if (seq <= s.seq) {
      // A late commit filling a hole; anything else at or below seq was applied before (a concurrent sync).
      if (!s.holes.delete(seq)) continue;
    } else {
      if (!sqlite) {
        if (seq - s.seq - 1 + s.holes.size > MAX_HOLES) return start(ctx, s, now);
        for (let h = s.seq + 1; h < seq; h++) s.holes.set(h, now + LATE_COMMIT_MS);
      }
      s.seq = seq;
    }
    if (r.goods_id === null) all = true;
    else ids.push(Number(r.goods_id));
  }
  if (all) clear(s);
  else if (ids.length) {
    // A fill that read its row before one of these changes must not store it (it may not be cached yet).
    s.epoch++;
    for (const id of ids) drop(s, id);
  }
  s.syncedAt = now;
  if (now - s.prunedAt > PRUNE_EVERY_MS) {
    s.prunedAt = now;
    await ctx.db.run(q.prune, [CHANGE_LOG_KEEP_MS]);
  }
}

async function sync(ctx: AppContext, s: Store): Promise<void> {
  if (ctx.db.dialect === 'sqlite') {
    // Read the version before the log: a write in between moves it again and the next call re-reads.
    const v = await dataVersion(ctx);
    if (v === s.version) {
      s.syncedAt = ctx.monotonicNow();
      return;
    }
    await readChanges(ctx, s);
    s.version = v;
    return;
  }
  if (ctx.monotonicNow() - s.syncedAt < ctx.config.catalogCacheMs) return;
  s.syncing ??= readChanges(ctx, s).finally(() => {
    s.syncing = undefined;
  });
  await s.syncing;
}

const tails = new Map<Lang, Buffer>();
function tailOf(lang: Lang): Buffer {
  let t = tails.get(lang);
  if (!t) {
    const m = JSON.stringify(formatMessage('ok', lang));
    tails.set(lang, (t = Buffer.from(`},"message":${m},"msg":${m}}`)));
  }
  return t;
}

function compose(head: Buffer, now: number, lang: Lang): Buffer {
  const tail = tailOf(lang);
  const out = Buffer.allocUnsafe(head.length + 20 + tail.length);
  head.copy(out, 0);
  let n = head.length;
  n += out.write(String(now), n, 'latin1');
  n += tail.copy(out, n);
  return out.subarray(0, n);
}

/** The whole goods/v1/details/ success response (the spec's envelope) as UTF-8 JSON bytes. */
export async function goodsDetailsResponse(ctx: AppContext, id: number, lang: Lang): Promise<Buffer> {
  const maxBytes = ctx.config.detailsCacheMb * 1024 * 1024;
  const s = storeOf(ctx);
  if (maxBytes > 0) {
    await sync(ctx, s);
    const e = s.entries.get(id);
    if (e) {
      const now = ctx.now();
      const p = await projectInfo(ctx, e.project.id);
      if (p === e.project && projectStatusOf(p, now) === e.projectStatus) {
        s.hits++;
        return compose(e.head, now, lang);
      }
      drop(s, id);
    }
    s.misses++;
  }
  const epoch = s.epoch;
  const { detail, project } = await readGoods(ctx, id);
  // The route's response schema is not applied to bytes: check the contract here, once per fill.
  const parsed = goodsDetailSchema.parse(detail);
  const json = JSON.stringify(parsed);
  // serverTime is the schema's last field: everything before it is the cacheable part.
  const last = `,"serverTime":${parsed.serverTime}}`;
  if (!json.endsWith(last)) throw new Error('goods detail: serverTime must be the last field of the schema');
  const head = Buffer.from(`{"status":"${Status.OK}","code":"${Status.OK}","data":${json.slice(0, -last.length)},"serverTime":`);
  if (maxBytes > 0 && s.epoch === epoch) {
    drop(s, id); // two concurrent misses of one id: the second replaces the first
    s.entries.set(id, { head, project, projectStatus: detail.project.status });
    s.bytes += head.length;
    if (s.bytes > maxBytes) {
      // Oldest first (a Map iterates in insertion order) down to 90 % of the budget.
      for (const [k, e] of s.entries) {
        if (s.bytes <= maxBytes * 0.9) break;
        s.entries.delete(k);
        s.bytes -= e.head.length;
      }
    }
  }
  return compose(head, parsed.serverTime, lang);
}

/** Drops every cached collectible response of this database (tests; writers do not need it: triggers log their changes). */
export function clearGoodsDetailCache(ctx: AppContext) {
  const s = stores.get(ctx.db);
  if (s) clear(s);
}

/** Entries and bytes held; answers from the cache (hits) and filled afresh (misses); whole-cache drops (flushes). Operations and tests. */
export function goodsDetailCacheStats(ctx: AppContext) {
  const s = stores.get(ctx.db);
  return { entries: s?.entries.size ?? 0, bytes: s?.bytes ?? 0, hits: s?.hits ?? 0, misses: s?.misses ?? 0, flushes: s?.flushes ?? 0 };
}
