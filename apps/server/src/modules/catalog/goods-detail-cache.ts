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
 * cache applies the log rows it has not seen and drops exactly those entries.
 * - SQLite: the log is read when `total_changes()`/`data_version` moved (one cheap statement per
 *   request, the same as the list cache) — an entry never outlives a committed change, from this
 *   process or another. Writers are serialised, so seq order is commit order.
 * - PostgreSQL: the log is read at most every CATALOG_CACHE_MS (default 1 s, the staleness bound
 *   of lists too), and the rows of the last LATE_COMMIT_MS are read again because a sequence value
 *   can commit after a larger one.
 * An entry also remembers its release (ProjectInfo, which keeps its identity while unchanged) and
 * the release's status at fill time: a rename, price change or a sale window edge misses it.
 * DETAILS_CACHE_MB bounds the memory (0 turns the cache off; responses are still sent as bytes).
 */
const CHANGE_LOG_KEEP_MS = 10 * 60_000;
const LATE_COMMIT_MS = 30_000;
/** More unseen changes than this drop everything instead of reading them one by one. */
const MAX_CHANGES_READ = 5000;

interface Entry {
  head: Buffer;
  project: ProjectInfo;
  projectStatus: string;
}

interface Store {
  entries: Map<number, Entry>;
  bytes: number;
  /** Highest change seq applied; -1 before the first sync. */
  seq: number;
  version: string;
  /** performance.now() of the last sync. */
  syncedAt: number;
  prunedAt: number;
  /** Bumped whenever changes are applied: a fill that started before must not store its result. */
  epoch: number;
  syncing?: Promise<void>;
}

const stores = new WeakMap<object, Store>();

function storeOf(ctx: AppContext): Store {
  let s = stores.get(ctx.db);
  if (!s) {
    s = { entries: new Map(), bytes: 0, seq: -1, version: '', syncedAt: -Infinity, prunedAt: performance.now(), epoch: 0 };
    stores.set(ctx.db, s);
  }
  return s;
}

function clear(s: Store) {
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

const changeQueries = new WeakMap<object, CompiledQuery<{ seq: number; goods_id: number | null }>>();
function changesQuery(ctx: AppContext) {
  let q = changeQueries.get(ctx.db);
  if (!q) {
    q = ctx.db.kysely
      .selectFrom('catalog_changes')
      .select(['seq', 'goods_id'])
      .where((eb) => eb.or([eb('seq', '>', 0), eb('created_at', '>', 0)]))
      .orderBy('seq')
      .limit(MAX_CHANGES_READ + 1)
      .compile() as CompiledQuery<{ seq: number; goods_id: number | null }>;
    changeQueries.set(ctx.db, q);
  }
  return q;
}

async function readChanges(ctx: AppContext, s: Store) {
  const now = performance.now();
  if (s.seq < 0 || now - s.syncedAt > CHANGE_LOG_KEEP_MS / 2) {
    // First sync, or idle for so long that pruned rows may be unseen: start from an empty cache.
    clear(s);
    const [row] = await ctx.db.kysely.selectFrom('catalog_changes').select((eb) => eb.fn.max('seq').as('m')).execute();
    s.seq = Number(row?.m ?? 0);
    s.syncedAt = now;
    return;
  }
  const since = ctx.db.dialect === 'sqlite' ? Number.MAX_SAFE_INTEGER : Date.now() - LATE_COMMIT_MS;
  const rows = await ctx.db.run(changesQuery(ctx), [s.seq, since, MAX_CHANGES_READ + 1]);
  if (rows.length > MAX_CHANGES_READ) {
    clear(s);
    const [row] = await ctx.db.kysely.selectFrom('catalog_changes').select((eb) => eb.fn.max('seq').as('m')).execute();
    s.seq = Number(row?.m ?? s.seq);
  } else {
    // A fill that read its row before one of these changes must not store it (it may not be cached yet).
    if (rows.length) s.epoch++;
    for (const r of rows) {
      if (r.goods_id === null) clear(s);
      else drop(s, Number(r.goods_id));
      s.seq = Math.max(s.seq, Number(r.seq));
    }
  }
  s.syncedAt = now;
  if (now - s.prunedAt > 60_000) {
    s.prunedAt = now;
    await ctx.db.kysely.deleteFrom('catalog_changes').where('created_at', '<', Date.now() - CHANGE_LOG_KEEP_MS).execute();
  }
}

async function sync(ctx: AppContext, s: Store): Promise<void> {
  if (ctx.db.dialect === 'sqlite') {
    // Read the version before the log: a write in between moves it again and the next call re-reads.
    const v = await dataVersion(ctx);
    if (v === s.version) {
      s.syncedAt = performance.now();
      return;
    }
    await readChanges(ctx, s);
    s.version = v;
    return;
  }
  if (performance.now() - s.syncedAt < ctx.config.catalogCacheMs) return;
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
      if (p === e.project && projectStatusOf(p, now) === e.projectStatus) return compose(e.head, now, lang);
      drop(s, id);
    }
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

/** Entries and bytes held (operations and tests). */
export function goodsDetailCacheStats(ctx: AppContext) {
  const s = stores.get(ctx.db);
  return { entries: s?.entries.size ?? 0, bytes: s?.bytes ?? 0 };
}
