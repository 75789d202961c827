import { sql } from 'kysely';
import { Status } from '@cfx/contract/envelope.ts';
import type { OrderDetail } from '@cfx/contract/market.ts';
import type { AppContext } from '../../context.ts';
import { inTx, isUniqueViolation, type Q } from '../../db/tx.ts';
import { ApiError } from '../../http/envelope.ts';
import { requireTrader } from '../kyc/index.ts';
import { newId } from '../market/index.ts';
import { orderDetailOf, toOrderCard, type OrderRow } from '../orders/index.ts';
import { enqueueJob } from '../../jobs/runner.ts';
import { moveOrder } from '../orders/index.ts';
import { admitted, countAttempt, DropBusy, isContention } from './admission.ts';
import { afterPaymentJob } from './after-payment.ts';
import { purchaseTerms, quotaRefusal, takeTermsQuota, type PurchaseTerms } from './phase-gate.ts';
import { checkOnSale, dropRelease } from './release.ts';
import { dropSettings, primarySplit } from './settings.ts';
import { dropOrderRow, noteOf, reserveInBatch, type Reservation } from './reserve-batch.ts';
import { noteStock, soldOutForSure, takeStock } from './stock.ts';
import { DROP_ORDER_PREFIX } from './order-number.ts';

/** Thrown inside the reservation transaction to roll it back with a business answer. */
class Refused extends Error {
  constructor(readonly why: 'quota' | 'stock') {
    super(why);
  }
}

/**
 * createOrder {projectId, count}: reserves `count` units of a release for the buyer for the
 * payment window (PAYMENT_WINDOW_SECONDS), as a `drop` order (DO…) in the orders table.
 *
 * Checks, cheapest first: attempts per second (user), the trading gate (logged in, real name,
 * 18+, wallet), attempts per second (identity), the release and its sale window by server time,
 * count ≤ max per order, sold out by the cached stock, then the in-process admission bound.
 * The reservation itself is ONE short transaction, locking in this order:
 *
 *   1. drop_quota (release, identity)  conditional upsert  taken + n <= limit
 *   2. orders                          insert (status created) + order_events
 *   3. drop_stock (release)            conditional update  taken + n <= supply   ← last, held only until commit
 *
 * so stock and quota can never be exceeded, by any number of concurrent buyers on any number of
 * server processes. A paid-for reservation (`buy`) shares that transaction with the others of its
 * release that arrive while the previous one is written (group commit, reserve-batch.ts). Contention the database reports (SQLite busy, PostgreSQL serialization /
 * deadlock / lock timeout) is answered 1021 排队中 like the admission bound — never a 5xx.
 *
 * Sale phases (phase-gate.ts): after the window check the current phase by server time decides
 * who may buy, the unit price and which quota step 1 takes (the whitelist entry, the lottery win
 * or the release limit). `mode: 'claim'` is the free claim (nftmint): price 0, the order moves
 * created → paid with its fulfil job in the same transaction, before the stock row.
 */
export async function createDropOrder(ctx: AppContext, userId: number, input: { projectId: number; count?: number }, mode: 'buy' | 'claim' = 'buy'): Promise<OrderDetail> {
  const n = input.count ?? 1;
  countAttempt(ctx, userId);
  const trader = await requireTrader(ctx, userId);
  const { walletAddress, idDigest: identity } = trader;
  countAttempt(ctx, identity);

  const release = await dropRelease(ctx, input.projectId);
  if (!release) throw new ApiError(Status.NOT_FOUND_ITEM, 'projectNotFound', {}, 404);
  const now = ctx.now();
  checkOnSale(release, now);
  if (release.creatorUserId === userId) throw new ApiError(Status.GOODS_STATE, 'ownGoods');
  const settings = await dropSettings(ctx, release.id);
  if (n > settings.maxPerOrder) throw new ApiError(Status.INVALID, 'dropMaxPerOrder', { n: settings.maxPerOrder });
  const terms = await purchaseTerms(ctx, release, identity, settings, now, mode);
  if (await soldOutForSure(ctx, release.id)) throw new ApiError(Status.DROP_SOLD_OUT, 'dropSoldOut');

  const total = terms.unitPriceFen * n;
  const split = primarySplit(total, settings.commissionPermille);
  const expiresAt = now + ctx.config.market.paymentWindowMs;

  const orderNo = await admitted(ctx, release.id, async () => {
    if (mode === 'buy') {
      // Paid-for reservations go through the release's group commit (reserve-batch.ts).
      const o = await reserveInBatch(ctx, {
        projectId: release.id, quantity: n, unitPriceFen: terms.unitPriceFen, totalFen: total, commissionFen: split.commissionFen, creatorFen: split.creatorFen,
        buyerUserId: userId, creatorUserId: release.creatorUserId, buyerAddress: walletAddress, identity, expiresAt, now, terms,
      });
      if (!o.ok) throw new Refused(o.why);
      return o.orderNo;
    }
    for (let attempt = 0; ; attempt++) {
      const no = newId(DROP_ORDER_PREFIX, now);
      try {
        await inTx(ctx, async (trx) => {
          // PostgreSQL: a reservation never waits long for a row lock (55P03 → 1021 排队中).
          if (ctx.db.dialect === 'postgres') await sql`set local lock_timeout = '2s'`.execute(trx);
          if (!(await takeTermsQuota(trx, release.id, terms, identity, n, now))) throw new Refused('quota');
          await insertDropOrder(trx, {
            orderNo: no, projectId: release.id, quantity: n, unitPriceFen: terms.unitPriceFen, totalFen: total, commissionFen: split.commissionFen,
            creatorFen: split.creatorFen, buyerUserId: userId, creatorUserId: release.creatorUserId, buyerAddress: walletAddress, identity,
            expiresAt: mode === 'claim' ? now : expiresAt, now, quotaBucket: terms.bucket,
          });
          if (mode === 'claim') {
            // Nothing to pay: paid at once, fulfilled by the same job as a paid order (exactly once: the job key).
            await moveOrder(trx, no, 'created', 'paid', now, { paid_at: now }, 'free claim');
            await enqueueJob(trx, afterPaymentJob('drop', no));
          }
          if (!(await takeStock(trx, release.id, n, now))) throw new Refused('stock');
        });
        return no;
      } catch (err) {
        if (attempt < 3 && isUniqueViolation(err)) continue; // an order number collision: draw another
        throw err;
      }
    }
  }).catch(async (err) => {
    if (err instanceof Refused) throw await refusal(ctx, err.why, release.id, identity, n, terms);
    if (err instanceof ApiError) throw err;
    if (isContention(err)) throw new DropBusy('dropQueueing', ctx.config.drops.retryAfterMs);
    throw err;
  });
  noteStock(ctx, release.id, n);
  if (mode === 'claim') {
    ctx.jobs.wake();
    return (await orderDetailOf(ctx, orderNo, userId))!;
  }
  // A new order is exactly what was just written: its detail needs no read.
  const note = noteOf({ quantity: n, projectId: release.id });
  const row: OrderRow = {
    id: 0, order_no: orderNo, kind: 'drop', status: 'created', listing_id: null, goods_id: null, buyer_user_id: userId, seller_user_id: release.creatorUserId,
    price_fen: total, commission_fen: split.commissionFen, royalty_fen: 0, seller_income_fen: split.creatorFen, pay_method: null, expires_at: expiresAt,
    created_at: now, paid_at: null, completed_at: null, closed_at: null, tx_hash: null, fail_reason: null,
    goods_name: null, goods_image: null, goods_serial: null, goods_token_id: null, project_name: release.name, project_cover: release.cover,
    project_id: release.id, quantity: n, unit_price_fen: terms.unitPriceFen,
    buyer_account_id: trader.accountId, buyer_nickname: trader.nickname, seller_account_id: release.creatorAccountId, seller_nickname: release.creatorNickname,
  };
  return { ...toOrderCard(ctx, row, userId, new Map()), timeline: [{ status: 'created', from: null, note, at: now }] };
}

/** Why the reservation was refused, with the numbers the buyer needs. */
async function refusal(ctx: AppContext, why: 'quota' | 'stock', projectId: number, identity: string, n: number, terms: PurchaseTerms): Promise<ApiError> {
  if (why === 'quota') return quotaRefusal(ctx.db.kysely, projectId, terms, identity, n);
  const row = await ctx.db.kysely.selectFrom('drop_stock').select(['supply', 'taken']).where('project_id', '=', projectId).executeTakeFirst();
  const left = row ? Math.max(0, Number(row.supply) - Number(row.taken)) : 0;
  return left === 0 || left >= n ? new ApiError(Status.DROP_SOLD_OUT, 'dropSoldOut') : new ApiError(Status.DROP_SOLD_OUT, 'dropNotEnough', { n: left });
}

/** A drop order to insert: a reservation's fields (reserve-batch.ts) with its number and quota bucket. */
export interface NewDropOrder extends Omit<Reservation, 'terms'> {
  orderNo: string;
  /** The quota bucket the units came from (phase-quota.ts); null/absent = drop_quota. */
  quotaBucket?: string | null;
}

async function insertDropOrder(trx: Q, o: NewDropOrder) {
  await trx.insertInto('orders').values(dropOrderRow(o, o.orderNo, o.quotaBucket ?? null)).execute();
  await trx.insertInto('order_events').values({ order_no: o.orderNo, from_status: null, to_status: 'created', note: noteOf(o), at: o.now }).execute();
}
