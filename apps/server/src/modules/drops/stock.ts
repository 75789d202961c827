import { sql } from 'kysely';
import type { AppContext } from '../../context.ts';
import type { Q } from '../../db/tx.ts';

/**
 * The stock of a release's primary sale: one `drop_stock` row per release (supply, units taken =
 * reserved by unpaid orders + paid, units paid, next serial). Every change is one conditional
 * UPDATE inside the caller's transaction, so the stock can never be oversold, whatever number of
 * server processes reserve at once:
 *
 *   take     taken = taken + n            WHERE taken + n <= supply      (createOrder)
 *   give     taken = taken - n            WHERE taken >= n               (an unpaid order closes)
 *   allocate next_serial += n, paid += n  WHERE next_serial + n - 1 <= supply RETURNING  (compose)
 *   commit   next_serial += n, paid += n  WHERE next_serial = <read before> AND …     (fulfilment: the
 *            serials are read without a lock, the goods written, and this UPDATE comes last)
 *
 * Lock order (docs/drops.md): the stock row is always the last row a transaction locks — nothing
 * that holds it ever waits for another lock — so a reservation, an expiry and a fulfilment can
 * never deadlock on it, and the row is held only for the rest of a short transaction.
 *
 * Reads for display and the sold-out fast path come from an in-memory snapshot at most
 * DROP_STOCK_CACHE_MS (≤ 1 s) old on the cache clock (ctx.monotonicNow) — ≤ SOLD_OUT_RECHECK_MS
 * once it says sold out — refreshed in the background; this process's own reservations and releases
 * adjust it at once.
 */
export interface StockSnapshot {
  supply: number;
  taken: number;
  paid: number;
}

interface Entry {
  value?: StockSnapshot;
  loadedAt: number;
  loading?: Promise<StockSnapshot | undefined>;
  /** The value was moved by noteStock since it was read (it may count a commit twice: see soldOutForSure). */
  adjusted?: boolean;
}
const caches = new WeakMap<object, Map<number, Entry>>();

function cacheOf(ctx: AppContext): Map<number, Entry> {
  let m = caches.get(ctx.db);
  if (!m) caches.set(ctx.db, (m = new Map()));
  return m;
}

/** Creates the stock row of a release that has none yet (releases made after migration 0010): sold so far counts as taken and paid. */
export async function ensureStock(q: Q, projectId: number, now: number): Promise<boolean> {
  const p = await q.selectFrom('projects').select(['supply', 'sold']).where('id', '=', projectId).executeTakeFirst();
  if (!p) return false;
  const max = await q.selectFrom('goods').select((e) => e.fn.max<number>('serial').as('m')).where('project_id', '=', projectId).executeTakeFirstOrThrow();
  const taken = Math.min(Number(p.sold), Number(p.supply));
  await q
    .insertInto('drop_stock')
    .values({ project_id: projectId, supply: Number(p.supply), taken, paid: taken, next_serial: Math.max(Number(max.m ?? 0), taken) + 1, updated_at: now })
    .onConflict((oc) => oc.column('project_id').doNothing())
    .execute();
  return true;
}

/**
 * The stock as shown and checked: units refunded instead of minted (`voided`, refund-undeliverable.ts)
 * are left out of the supply and of what was taken and paid — never sold, never for sale again — so
 * `supply − taken` (what can still be bought) is the row's own.
 */
async function load(ctx: AppContext, projectId: number): Promise<StockSnapshot | undefined> {
  const read = () => ctx.db.kysely.selectFrom('drop_stock').select(['supply', 'taken', 'paid', 'voided']).where('project_id', '=', projectId).executeTakeFirst();
  let row = await read();
  if (!row && (await ensureStock(ctx.db.kysely, projectId, ctx.now()))) row = await read();
  if (!row) return undefined;
  const v = Number(row.voided);
  return { supply: Number(row.supply) - v, taken: Number(row.taken) - v, paid: Number(row.paid) - v };
}

/**
 * How old a snapshot that says "sold out" may be, at most (DROP_STOCK_CACHE_MS when shorter). Units
 * come back after the sell-out — a buyer cancels, an unpaid order expires (in another process, or in
 * this process's worker thread, neither of which adjusts this snapshot) — and until the snapshot is
 * read again every attempt is refused 1022 although a unit is for sale. Read ten times a second at
 * most while a release is sold out (one row by its key, however many attempts: one load at a time).
 */
export const SOLD_OUT_RECHECK_MS = 100;

/** The stock of a release, at most DROP_STOCK_CACHE_MS old, at most SOLD_OUT_RECHECK_MS when sold out (undefined for an unknown release). */
export async function stockOf(ctx: AppContext, projectId: number): Promise<StockSnapshot | undefined> {
  const cache = cacheOf(ctx);
  let e = cache.get(projectId);
  const v = e?.value;
  const maxAge = v && v.taken >= v.supply ? Math.min(SOLD_OUT_RECHECK_MS, ctx.config.drops.stockCacheMs) : ctx.config.drops.stockCacheMs;
  const fresh = v && ctx.monotonicNow() - e!.loadedAt <= maxAge;
  if (e && fresh) return e.value;
  if (!e) cache.set(projectId, (e = { loadedAt: -Infinity }));
  const loading = startLoad(ctx, projectId, e);
  // A stale value answers at once while the reload runs; the first read waits for it.
  return e.value ?? loading;
}

function startLoad(ctx: AppContext, projectId: number, entry: Entry): Promise<StockSnapshot | undefined> {
  entry.loading ??= load(ctx, projectId)
    .then((v) => {
      entry.value = v;
      entry.loadedAt = ctx.monotonicNow();
      entry.adjusted = false;
      return v;
    })
    .finally(() => {
      entry.loading = undefined;
    });
  return entry.loading;
}

/**
 * Whether the release is sold out, for the fast refusal of a purchase (1022 without a transaction).
 * A snapshot that says so only after this process's own adjustments is read again first: a
 * reservation is committed before its caller adjusts the snapshot (noteStock runs once the answer
 * has come back through the group commit), and a reload that read the row in between — on another
 * PostgreSQL pool connection, or queued behind the COMMIT on SQLite's one connection — already
 * counts it. The adjustment then counts it twice, and units still for sale would be refused.
 */
export async function soldOutForSure(ctx: AppContext, projectId: number): Promise<boolean> {
  const s = await stockOf(ctx, projectId);
  if (s && s.taken < s.supply) return false;
  const e = cacheOf(ctx).get(projectId);
  if (!s || !e?.adjusted) return true;
  const exact = await startLoad(ctx, projectId, e);
  return !exact || exact.taken >= exact.supply;
}

/** This process changed the stock (after its transaction committed): adjust the snapshot now. */
export function noteStock(ctx: AppContext, projectId: number, takenDelta: number) {
  const e = cacheOf(ctx).get(projectId);
  if (!e?.value) return;
  e.value = { ...e.value, taken: Math.max(0, Math.min(e.value.supply, e.value.taken + takenDelta)) };
  e.adjusted = true;
}

/** Forget the snapshot (the next read loads it). */
export function dropStockSnapshot(ctx: AppContext, projectId: number) {
  cacheOf(ctx).delete(projectId);
}

/** Reserves `n` units (true) or changes nothing when fewer than `n` are left (false). */
export async function takeStock(trx: Q, projectId: number, n: number, now: number): Promise<boolean> {
  const res = await trx
    .updateTable('drop_stock')
    .set({ taken: sql`taken + ${n}`, updated_at: now })
    .where('project_id', '=', projectId)
    .where(sql<boolean>`taken + ${n} <= supply`)
    .executeTakeFirst();
  return Number(res.numUpdatedRows) === 1;
}

/** Gives `n` reserved units back (an unpaid order closed). */
export async function giveStock(trx: Q, projectId: number, n: number, now: number): Promise<boolean> {
  const res = await trx
    .updateTable('drop_stock')
    .set({ taken: sql`taken - ${n}`, updated_at: now })
    .where('project_id', '=', projectId)
    .where('taken', '>=', n)
    .executeTakeFirst();
  return Number(res.numUpdatedRows) === 1;
}

/** Allocates `n` consecutive serials for a paid order and counts it paid. Returns the first serial. */
export async function allocateSerials(trx: Q, projectId: number, n: number, now: number): Promise<number> {
  const row = await trx
    .updateTable('drop_stock')
    .set({ next_serial: sql`next_serial + ${n}`, paid: sql`paid + ${n}`, updated_at: now })
    .where('project_id', '=', projectId)
    .where(sql<boolean>`next_serial + ${n} - 1 <= supply`)
    .returning('next_serial')
    .executeTakeFirst();
  if (!row) throw new Error(`drop stock of release ${projectId}: no ${n} serials left to allocate`);
  return Number(row.next_serial) - n;
}

/** A release's next serial and supply as the row says now, read without a lock (commitSerials checks it). */
export async function peekSerials(trx: Q, projectId: number): Promise<{ next: number; supply: number } | undefined> {
  const row = await trx.selectFrom('drop_stock').select(['next_serial', 'supply']).where('project_id', '=', projectId).executeTakeFirst();
  return row && { next: Number(row.next_serial), supply: Number(row.supply) };
}

/**
 * Counts the `n` serials from `first` (read by peekSerials) allocated and paid, as the last statement
 * of the caller's transaction: false when the row moved since the read (another allocation, a supply
 * change) or fewer than `n` are left — the caller rolls back and reads again.
 */
export async function commitSerials(trx: Q, projectId: number, first: number, n: number, now: number): Promise<boolean> {
  const res = await trx
    .updateTable('drop_stock')
    .set({ next_serial: sql`next_serial + ${n}`, paid: sql`paid + ${n}`, updated_at: now })
    .where('project_id', '=', projectId)
    .where('next_serial', '=', first)
    .where(sql<boolean>`next_serial + ${n} - 1 <= supply`)
    .executeTakeFirst();
  return Number(res.numUpdatedRows) === 1;
}
