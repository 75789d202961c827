import { sql } from 'kysely';
import type { AppContext } from '../../context.ts';
import { afterCommit, type Q } from '../../db/tx.ts';

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
  const read = () =>
    ctx.db.kysely
      .selectFrom('drop_stock')
      .select(['supply', 'taken', 'paid', 'voided'])
      .select((e) => e.selectFrom('drop_stock_returns').select((r) => r.fn.sum<number>('units').as('n')).where('project_id', '=', projectId).as('returned'))
      .where('project_id', '=', projectId)
      .executeTakeFirst();
  let row = await read();
  if (!row && (await ensureStock(ctx.db.kysely, projectId, ctx.now()))) row = await read();
  if (!row) return undefined;
  const v = Number(row.voided);
  // Units given back but not yet folded into the row (giveStockAfterCommit) are for sale again: shown so.
  return { supply: Number(row.supply) - v, taken: Number(row.taken) - v - Number(row.returned ?? 0), paid: Number(row.paid) - v };
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

/**
 * PostgreSQL: gives back the units of unpaid drop orders closed in `trx` (release → units) without
 * touching the stock rows in it. A row per release goes into `drop_stock_returns` — a new row, which
 * no reservation waits for — and once `trx` has committed one statement of its own folds the
 * release's pending returns into `taken` (foldStockReturns); until then the snapshot counts them
 * for sale already, and inTx returns once the fold is done. A reservation batch that meets the row
 * before the fold refuses as before (sold out) for the milliseconds in between. What a crash between the commit and the fold
 * leaves, the drops' periodic sweep folds (sweepStockReturns).
 */
export async function giveStockAfterCommit(ctx: AppContext, trx: Q, units: ReadonlyMap<number, number>, now: number): Promise<void> {
  const rows = [...units].filter(([, n]) => n > 0).map(([project_id, n]) => ({ project_id, units: n, created_at: now }));
  if (!rows.length) return;
  await trx.insertInto('drop_stock_returns').values(rows).execute();
  afterCommit(trx, () =>
    Promise.all(
      rows.map((r) => {
        dropStockSnapshot(ctx, r.project_id);
        return scheduleFold(ctx, r.project_id);
      }),
    ),
  );
}

/**
 * Folds every pending return of a release into its stock row, in ONE statement on its own (it
 * commits by itself; the row is locked only while it runs): the returns deleted, their sum taken
 * off `taken`. Two folds at once cannot count a return twice: the second waits for the first's row
 * locks and then finds the rows gone. Returns the units folded. PostgreSQL only (SQLite writes none).
 */
export async function foldStockReturns(ctx: AppContext, projectId: number): Promise<number> {
  const r = await sql<{ n: string | number }>`
    with r as (delete from drop_stock_returns where project_id = ${projectId} returning units),
         s as (select coalesce(sum(units), 0) as n from r)
    update drop_stock set taken = taken - s.n, updated_at = ${ctx.now()} from s
    where drop_stock.project_id = ${projectId} and s.n > 0
    returning s.n`.execute(ctx.db.kysely);
  // No snapshot to adjust: it counted the returns as for sale already (load).
  return Number(r.rows[0]?.n ?? 0);
}

/**
 * Per database handle and release: the last fold queued (`tail`) and one not started yet (`pending`),
 * which every caller meanwhile shares — it starts after their commits, so it sees their returns.
 */
const folds = new WeakMap<object, Map<number, { tail: Promise<void>; pending?: Promise<void> }>>();

/**
 * Folds a release's returns after the caller's commit: at most one fold runs at a time per release
 * and process, and the returns that commit while it runs are folded by one more right after it,
 * however many they are. Resolves when that fold is done; a fold that fails is left to the sweep.
 */
function scheduleFold(ctx: AppContext, projectId: number): Promise<void> {
  let m = folds.get(ctx.db);
  if (!m) folds.set(ctx.db, (m = new Map()));
  let st = m.get(projectId);
  if (!st) m.set(projectId, (st = { tail: Promise.resolve() }));
  if (st.pending) return st.pending;
  const state = st;
  const map = m;
  const p: Promise<void> = state.tail.then(async () => {
    state.pending = undefined;
    await foldStockReturns(ctx, projectId).catch(() => 0);
  });
  state.pending = p;
  state.tail = p;
  void p.then(() => {
    if (state.tail === p) map.delete(projectId);
  });
  return p;
}

/** Returns pending longer than this are folded by the sweep (the fold after the commit missed them: a crash, an error). */
export const STOCK_RETURN_SWEEP_AGE_MS = 1_000;

/** The sweep: folds the releases with returns older than STOCK_RETURN_SWEEP_AGE_MS. Returns the units folded. */
export async function sweepStockReturns(ctx: AppContext): Promise<number> {
  const due = await ctx.db.kysely
    .selectFrom('drop_stock_returns')
    .select('project_id')
    .distinct()
    .where('created_at', '<=', ctx.now() - STOCK_RETURN_SWEEP_AGE_MS)
    .execute();
  let n = 0;
  for (const d of due) n += await foldStockReturns(ctx, Number(d.project_id));
  return n;
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
