import { sql } from 'kysely';
import type { AppContext } from '../../context.ts';
import { GroupCommit } from '../../db/group-commit.ts';
import { inTx, isUniqueViolation, rowParts, type Q } from '../../db/tx.ts';
import { newId } from '../market/index.ts';
import { isContention } from './admission.ts';
import { givePhaseQuota } from './phase-quota.ts';
import { takeTermsQuota, type PurchaseTerms } from './phase-gate.ts';
import { giveQuota } from './quota.ts';
import { takeStock } from './stock.ts';
import { compareText } from '../../util/compare.ts';
import { DROP_ORDER_PREFIX } from './order-number.ts';

/**
 * Group commit of drop reservations (docs/drops.md "Under load"): the paid-for reservations
 * (`mode: 'buy'`) of one release that arrive in this process while its previous batch is being
 * written are written together in ONE transaction, in arrival order, with the same lock order as a
 * single reservation:
 *
 *   1. quota     the public bucket (drop_quota, one limit for everyone): one multi-row conditional
 *                upsert per "round" of distinct identities, sorted by identity (a fixed lock order
 *                across processes; a second member of the same identity goes into the next round,
 *                which only touches rows this transaction already holds). Phase buckets (whitelist,
 *                lottery: a limit per identity) take theirs one by one, sorted the same way.
 *   2. orders    one multi-row INSERT of the orders of the members that got their quota and one of
 *                their `created` events (new rows: nothing to wait for).
 *   3. stock     the stock row, the last statement before COMMIT (on PostgreSQL every reservation,
 *                release and fulfilment of the release queues for this one row, so it is held for
 *                one statement and the commit): one conditional UPDATE for the batch total; when not
 *                all of it fits, the row is locked and read (UPDATE … RETURNING) and the members are
 *                served greedily in arrival order from what is left — the decision comes from the
 *                row's current values inside the transaction, never from a cache, so nothing is
 *                oversold. Members that do not fit give their quota back and lose the orders this
 *                transaction inserted for them (rows already held: no lock wait).
 *
 * Every member gets its own outcome: 'ok', or the refusal 'quota' / 'stock' (answered 1023 / 1022 by
 * createDropOrder). Database contention fails the whole batch (each member answers 1021 排队中);
 * any other error of a batch of several members re-runs each member alone, so one bad member
 * cannot take the others down with it. An order-number collision re-draws the numbers.
 */
export interface Reservation {
  projectId: number;
  quantity: number;
  unitPriceFen: number;
  totalFen: number;
  commissionFen: number;
  creatorFen: number;
  buyerUserId: number;
  creatorUserId: number;
  buyerAddress: string;
  identity: string;
  expiresAt: number;
  now: number;
  terms: PurchaseTerms;
}

export type ReserveOutcome = { ok: true; orderNo: string } | { ok: false; why: 'quota' | 'stock' };

/** Largest batch written in one transaction (the admission bound, DROP_MAX_IN_FLIGHT, usually keeps it smaller). */
export const MAX_BATCH = 256;
/** Rows per multi-row INSERT (well below SQLite's and PostgreSQL's bound-parameter limits). */
const INSERT_CHUNK = 200;

/** One group commit per release and database (db/group-commit.ts). */
const queues = new WeakMap<object, Map<number, GroupCommit<Reservation, ReserveOutcome>>>();

/** Reserves one member's units in the release's next batch; resolves after its transaction committed. */
export function reserveInBatch(ctx: AppContext, r: Reservation): Promise<ReserveOutcome> {
  let m = queues.get(ctx.db);
  if (!m) queues.set(ctx.db, (m = new Map()));
  let q = m.get(r.projectId);
  if (!q) {
    // Database contention fails the whole batch (every member answers 1021); any other error is a member's.
    q = new GroupCommit({ maxBatch: MAX_BATCH, write: (rs) => writeBatch(ctx, rs), failTogether: isContention });
    m.set(r.projectId, q);
  }
  return q.submit(r);
}

/** Writes one batch in one transaction; returns each member's outcome (same order). */
export async function writeBatch(ctx: AppContext, rs: readonly Reservation[]): Promise<ReserveOutcome[]> {
  // PostgreSQL, members of the public bucket only: the whole batch in one statement (migration 0035).
  const oneStatement = ctx.db.dialect === 'postgres' && rs.every((r) => !r.terms.bucket);
  for (let attempt = 0; ; attempt++) {
    try {
      return oneStatement ? await writeBatchCall(ctx, rs) : await inTx(ctx, (trx) => writeBatchIn(ctx, trx, rs));
    } catch (err) {
      if (attempt < 3 && isUniqueViolation(err)) continue; // an order number collision: draw others
      throw err;
    }
  }
}

/** The `created` event's note of a drop order (every way of writing one). */
export const noteOf = (r: { quantity: number; projectId: number }) => `reserved ${r.quantity} × release ${r.projectId}`;

/** The orders row of a new drop order (status created) — of a batch member or of a single reservation. */
export function dropOrderRow(o: Omit<Reservation, 'terms'>, orderNo: string, quotaBucket: string | null) {
  return {
    order_no: orderNo, kind: 'drop' as const, listing_id: null, goods_id: null, buyer_user_id: o.buyerUserId, seller_user_id: o.creatorUserId,
    buyer_address: o.buyerAddress, price_fen: o.totalFen, commission_fen: o.commissionFen, royalty_fen: 0, royalty_user_id: null,
    seller_income_fen: o.creatorFen, status: 'created' as const, pay_method: null, provider_trade_no: null, expires_at: o.expiresAt, chain_tx_id: null,
    tx_hash: null, fail_reason: null, created_at: o.now, paid_at: null, completed_at: null, closed_at: null,
    project_id: o.projectId, quantity: o.quantity, unit_price_fen: o.unitPriceFen, identity_digest: o.identity, quota_bucket: quotaBucket,
  };
}

/**
 * The batch as one call of `drop_reserve_batch` (PostgreSQL, migration 0035): the steps of
 * writeBatchIn below in one statement — one round trip, and the stock row held only inside it.
 * The two must stay in step: a change to writeBatchIn's writes (or to the orders it inserts) needs a
 * migration that replaces the function; drop-reserve-batch.test.ts runs the same cases through both
 * (on SQLite the transaction, on PostgreSQL the function).
 */
async function writeBatchCall(ctx: AppContext, rs: readonly Reservation[]): Promise<ReserveOutcome[]> {
  const projectId = rs[0]!.projectId;
  if (rs.some((r) => r.projectId !== projectId)) throw new Error('a reservation batch is of one release');
  const members = rs.map((r, i) => ({
    i, identity: r.identity, qty: r.quantity, lim: r.terms.limit, order_no: newId(DROP_ORDER_PREFIX, r.now), buyer: r.buyerUserId, seller: r.creatorUserId,
    address: r.buyerAddress, total: r.totalFen, commission: r.commissionFen, creator_fen: r.creatorFen, unit_price: r.unitPriceFen,
    expires_at: r.expiresAt, created_at: r.now, note: noteOf(r),
  }));
  const { rows } = await sql<{ idx: number; outcome: 'ok' | 'quota' | 'stock' }>`select idx, outcome from drop_reserve_batch(${projectId}, ${ctx.now()}, ${JSON.stringify(members)}::jsonb)`.execute(ctx.db.kysely);
  const out: ReserveOutcome[] = new Array(rs.length);
  for (const row of rows) out[row.idx] = row.outcome === 'ok' ? { ok: true, orderNo: members[row.idx]!.order_no } : { ok: false, why: row.outcome };
  return out;
}

async function writeBatchIn(ctx: AppContext, trx: Q, rs: readonly Reservation[]): Promise<ReserveOutcome[]> {
  const projectId = rs[0]!.projectId;
  if (rs.some((r) => r.projectId !== projectId)) throw new Error('a reservation batch is of one release');
  const now = ctx.now();
  // PostgreSQL: a reservation never waits long for a row lock (55P03 → 1021 排队中).
  if (ctx.db.dialect === 'postgres') await sql`set local lock_timeout = '2s'`.execute(trx);
  const out: (ReserveOutcome | undefined)[] = new Array(rs.length);

  // 1. quota
  const quotaOk = new Array<boolean>(rs.length).fill(false);
  const publicIdx: number[] = [];
  const phaseIdx: number[] = [];
  rs.forEach((r, i) => (r.terms.bucket ? phaseIdx : publicIdx).push(i));
  for (const round of rounds(publicIdx, rs)) {
    const ok = await takePublicQuota(ctx, trx, projectId, round.map((i) => rs[i]!), now);
    round.forEach((i) => (quotaOk[i] = ok.has(rs[i]!.identity)));
  }
  phaseIdx.sort((a, b) => compareText(`${rs[a]!.terms.bucket}:${rs[a]!.identity}`, `${rs[b]!.terms.bucket}:${rs[b]!.identity}`) || a - b);
  for (const i of phaseIdx) quotaOk[i] = await takeTermsQuota(trx, projectId, rs[i]!.terms, rs[i]!.identity, rs[i]!.quantity, now);
  rs.forEach((_, i) => {
    if (!quotaOk[i]) out[i] = { ok: false, why: 'quota' };
  });

  // 2. orders and their events, for every member that got its quota (rows of this transaction only).
  const wanted = rs.map((_, i) => i).filter((i) => quotaOk[i]);
  const nos = new Map(wanted.map((i) => [i, newId(DROP_ORDER_PREFIX, rs[i]!.now)]));
  for (const part of rowParts(ctx, wanted, INSERT_CHUNK)) {
    await trx
      .insertInto('orders')
      .values(part.map((i) => dropOrderRow(rs[i]!, nos.get(i)!, rs[i]!.terms.bucket ?? null)))
      .execute();
    await trx
      .insertInto('order_events')
      .values(part.map((i) => ({ order_no: nos.get(i)!, from_status: null, to_status: 'created', note: noteOf(rs[i]!), at: rs[i]!.now })))
      .execute();
  }

  // 3. stock, the last statement before COMMIT (PostgreSQL holds the release's one hot row from here
  //    to the commit): everything at once, else greedily from what the row says is left — then the
  //    members that do not fit give back their quota (rows already held) and lose their orders (rows
  //    this transaction inserted), so no lock is waited for while the stock row is held.
  const total = wanted.reduce((a, i) => a + rs[i]!.quantity, 0);
  let fit = wanted;
  if (total > 0 && !(await takeStock(trx, projectId, total, now))) {
    const row = await trx.updateTable('drop_stock').set({ updated_at: now }).where('project_id', '=', projectId).returning(['supply', 'taken']).executeTakeFirst();
    let left = row ? Number(row.supply) - Number(row.taken) : 0;
    fit = [];
    const unfit: string[] = [];
    for (const i of wanted) {
      if (rs[i]!.quantity <= left) {
        fit.push(i);
        left -= rs[i]!.quantity;
      } else {
        out[i] = { ok: false, why: 'stock' };
        unfit.push(nos.get(i)!);
        const r = rs[i]!;
        if (r.terms.bucket) await givePhaseQuota(trx, projectId, r.terms.bucket, r.identity, r.quantity, now);
        else await giveQuota(trx, projectId, r.identity, r.quantity, now);
      }
    }
    for (const part of rowParts(ctx, unfit, INSERT_CHUNK)) {
      await trx.deleteFrom('order_events').where('order_no', 'in', part).execute();
      await trx.deleteFrom('orders').where('order_no', 'in', part).execute();
    }
    const got = fit.reduce((a, i) => a + rs[i]!.quantity, 0);
    if (got > 0 && !(await takeStock(trx, projectId, got, now))) throw new Error(`drop stock of release ${projectId}: ${got} units counted free but not taken`);
  }
  for (const i of fit) out[i] = { ok: true, orderNo: nos.get(i)! };
  return out as ReserveOutcome[];
}

/** Members of the public bucket in rounds of distinct identities, each round sorted by identity. */
function rounds(idx: readonly number[], rs: readonly Reservation[]): number[][] {
  const out: number[][] = [];
  const seen = new Map<string, number>();
  for (const i of idx) {
    const k = seen.get(rs[i]!.identity) ?? 0;
    seen.set(rs[i]!.identity, k + 1);
    (out[k] ??= []).push(i);
  }
  for (const r of out) r.sort((a, b) => compareText(rs[a]!.identity, rs[b]!.identity));
  return out;
}

/**
 * The public quota of several distinct identities in one statement: the conditional upsert of
 * quota.ts with many rows (one limit: the members' terms of the public bucket are the same
 * release limit). Returns the identities whose units were taken.
 */
async function takePublicQuota(ctx: AppContext, trx: Q, projectId: number, rs: readonly Reservation[], now: number): Promise<Set<string>> {
  const ok = new Set<string>();
  const byLimit = new Map<number, Reservation[]>();
  for (const r of rs) if (r.quantity <= r.terms.limit) byLimit.set(r.terms.limit, [...(byLimit.get(r.terms.limit) ?? []), r]);
  for (const [limit, group] of byLimit) {
    for (const part of rowParts(ctx, group, INSERT_CHUNK)) {
      const rows = await trx
        .insertInto('drop_quota')
        .values(part.map((r) => ({ project_id: projectId, identity_digest: r.identity, taken: r.quantity, updated_at: now })))
        .onConflict((oc) =>
          oc
            .columns(['project_id', 'identity_digest'])
            .doUpdateSet({ taken: sql`drop_quota.taken + excluded.taken`, updated_at: now })
            .where(sql<boolean>`drop_quota.taken + excluded.taken <= ${limit}`),
        )
        .returning('identity_digest')
        .execute();
      for (const row of rows) ok.add(row.identity_digest);
    }
  }
  return ok;
}
