import type { AppContext } from '../../context.ts';
import type { JobResult } from '../../jobs/runner.ts';
import { defineJob } from '../../jobs/define-job.ts';
import { keyList } from '../../db/key-list.ts';
import { changed, inTx, rowParts, unindexedEq, type Q } from '../../db/tx.ts';
import { compareText } from '../../util/compare.ts';
import { groupBy } from '../../util/group-by.ts';
import { Account, postTxn } from '../ledger/index.ts';
import { FILLED_REVERTS, type SettleRequest } from '../market/index.ts';
import { resyncGoodsOwner } from '../market/index.ts';
import { moveOrder } from './transitions.ts';
import { completeMarketOrders, type SettledFill } from './complete-market-orders.ts';

/**
 * Settlement of a paid order — the durable job `settle:<orderNo>`, inserted in the
 * same transaction that marked the order paid.
 *
 *  paid      → submit the fill (listOrder, signature, buyer, orderNo) to the chain side, which
 *              gathers fills into one Exchange.executeOrders transaction on the operator's durable
 *              queue (up to MARKET_SETTLE_BATCH), and move the order to settling with that row's id.
 *  settling  → wait for the queue's outcome (it polls receipts: 5 × 3 s, configurable) and read this
 *              order's own fill from the receipt (OrderExecuted or FillSkipped with its reason), then
 *     executed  → one transaction: order completed, listing sold, goods to the buyer, a deal
 *                 record, a price-history point, a history action, bids closed, and the ledger:
 *                 escrow → seller (price − commission − royalty) + commission + royalty;
 *     skipped for a permanent reason (the batch's FillSkipped) → refund, as below;
 *     failed or skipped otherwise → dry-run the order now (simulateCall) to name the reason:
 *                 permanent (NotOnShelf, InvalidSigner, ERC721IncorrectOwner, …) → refund: the
 *                   escrow goes back to the buyer's balance, the listing is closed as invalid;
 *                 already filled and the chain says this orderNo was executed → completed;
 *                 would succeed now (a lost transaction) → back to paid with attempt + 1.
 *
 * Nothing is paid twice: the chain itself refuses a second fill of the order hash and of the
 * buyerOrderId (= orderNo); every database step is a conditional update; ledger transactions
 * are keyed by `settle:<orderNo>` / `refund:<orderNo>`. A crash anywhere resumes from the job.
 */
type OrderFull = {
  order_no: string;
  status: string;
  listing_id: number;
  buyer_address: string;
  chain_tx_id: number | null;
  settle_attempt: number;
  seller_address: string;
  nft_token: string;
  token_id: string;
  listing_price_fen: number;
  seller_order_id: string;
  signature: string | null;
};

/** The order with its listing (the seller's signed order), in one query. */
async function loadOrder(ctx: AppContext, orderNo: string): Promise<OrderFull | undefined> {
  const o = await ctx.db.kysely
    .selectFrom('orders')
    .innerJoin('listings', 'listings.id', 'orders.listing_id')
    .select([
      'orders.order_no', 'orders.status', 'orders.listing_id', 'orders.buyer_address', 'orders.chain_tx_id', 'orders.settle_attempt',
      'listings.seller_address', 'listings.nft_token', 'listings.token_id', 'listings.price_fen as listing_price_fen', 'listings.seller_order_id', 'listings.signature',
    ])
    .where('orders.order_no', '=', orderNo)
    .executeTakeFirst();
  if (!o) return undefined;
  return { ...o, listing_id: Number(o.listing_id), chain_tx_id: o.chain_tx_id === null ? null : Number(o.chain_tx_id), settle_attempt: Number(o.settle_attempt), listing_price_fen: Number(o.listing_price_fen) };
}

function requestOf(o: OrderFull): SettleRequest {
  return {
    key: o.settle_attempt > 0 ? `settle:${o.order_no}:${o.settle_attempt}` : `settle:${o.order_no}`,
    order: { seller: o.seller_address, nftToken: o.nft_token, tokenId: o.token_id, amount: o.listing_price_fen, sellerOrderId: o.seller_order_id },
    signature: o.signature ?? '0x',
    buyer: o.buyer_address,
    buyerOrderId: o.order_no,
  };
}

/** The settlement request of an order (also the dry run of pay-order.ts). */
export async function settleRequestOf(ctx: AppContext, o: { order_no: string }): Promise<SettleRequest> {
  const full = await loadOrder(ctx, o.order_no);
  if (!full) throw new Error(`order ${o.order_no} not found`);
  return requestOf(full);
}

/** The durable job `settle:<orderNo>` of a paid market or bid order (its handler: runSettleJob). */
export const settleJob = defineJob<'settle', { orderNo: string }>('settle', {
  key: (p) => `settle:${p.orderNo}`,
  read: (job) => ({ orderNo: String(job.payload.orderNo ?? job.key.replace(/^settle:/, '')) }),
});

export async function runSettleJob(ctx: AppContext, orderNo: string): Promise<JobResult> {
  const chain = ctx.market?.settlement;
  const recheck = () => ({ retryAt: Date.now() + ctx.config.market.settleCheckMs });
  const o = await loadOrder(ctx, orderNo);
  if (!o) return { done: true };
  if (o.status !== 'paid' && o.status !== 'settling') return { done: true };
  if (!chain) return recheck();

  let txId = o.chain_tx_id;
  let wait: Promise<void> | undefined;
  if (o.status === 'paid') {
    txId = await chain.submit(requestOf(o));
    // Listen before anything else can run: the queue reports on a later tick, never before this line.
    wait = ctx.market!.waitTx(txId, ctx.config.market.settleCheckMs);
    const moved = ctx.market?.markSettling
      ? await ctx.market.markSettling(orderNo, txId)
      : await inTx(ctx, (trx) => moveOrder(trx, orderNo, 'paid', 'settling', ctx.now(), { chain_tx_id: txId }, `operator transaction #${txId}`));
    if (!moved) return { retryAt: Date.now() + 200 }; // someone else moved it: look again
  }
  if (txId === null) return { retryAt: Date.now() };
  wait ??= ctx.market!.waitTx(txId, ctx.config.market.settleCheckMs);
  let out = await chain.outcome(txId, orderNo);
  if (out.state === 'pending') {
    await wait;
    out = await chain.outcome(txId, orderNo);
  }
  if (out.state === 'pending') return { retryAt: Date.now() + 200 };
  if (out.state === 'confirmed') {
    await (ctx.market?.complete ?? ((n: string, h: string | null) => completeOrder(ctx, n, h)))(orderNo, out.txHash);
    return { done: true };
  }

  // The batch went through but skipped this fill for a reason that cannot change (the seller cancelled
  // its order id, took the token off shelf, a bad signature, …): refund. The contract checks "buyer id
  // used" first (an Exchange deployed before: "already filled" first), so a permanent skip also means
  // this order was not filled elsewhere; the chain is asked once more all the same before money moves.
  if (out.skipped?.permanent && !(await chain.executed(orderNo))) return refundSettled(ctx, orderNo, out.skipped.reason);

  // The transaction failed (or could not even be estimated, or skipped this fill for a reason that may pass): why?
  const verdict = await chain.check(requestOf(o));
  if (verdict.ok || FILLED_REVERTS.has(verdict.reason)) {
    if (await chain.executed(orderNo).catch(() => false)) {
      await completeOrder(ctx, orderNo, await executedTxHash(ctx, orderNo));
      return { done: true };
    }
    if (verdict.ok) {
      // Would succeed now: the transaction was lost (no receipt within the retry limit). Submit a new one.
      await inTx(ctx, async (trx) => {
        const res = await trx.updateTable('orders').set({ settle_attempt: o.settle_attempt + 1 }).where('order_no', '=', orderNo).where('status', '=', 'settling').where('settle_attempt', '=', o.settle_attempt).executeTakeFirst();
        if (changed(res) === 1) await moveOrder(trx, orderNo, 'settling', 'paid', ctx.now(), { chain_tx_id: null }, `retrying settlement: ${out.error ?? 'transaction failed'}`.slice(0, 200));
      });
      return { retryAt: Date.now() };
    }
  }
  if (!verdict.ok && verdict.permanent) return refundSettled(ctx, orderNo, verdict.reason);
  // Transient (node unreachable, unknown revert): try again later; the money stays in escrow.
  return { retryAt: Date.now() + Math.min(60_000, ctx.config.market.settleCheckMs) };
}

/** Refund after a permanent settlement failure, then re-read the token's holder. */
async function refundSettled(ctx: AppContext, orderNo: string, reason: string): Promise<JobResult> {
  if (await refundOrder(ctx, orderNo, reason)) {
    // The token may have gone to another of our users while the sale was in flight (the watcher leaves such goods alone).
    const g = await ctx.db.kysely.selectFrom('orders').select('goods_id').where('order_no', '=', orderNo).executeTakeFirst();
    if (g) await resyncGoodsOwner(ctx, Number(g.goods_id)).catch(() => undefined);
  }
  return { done: true };
}

/** The tx hash of our OrderExecuted, if the indexer has seen it. */
async function executedTxHash(ctx: AppContext, orderNo: string): Promise<string | null> {
  const rows = await ctx.db.kysely.selectFrom('chain_records').select(['tx_hash', 'data']).where('event', '=', 'OrderExecuted').orderBy('id', 'desc').limit(200).execute();
  for (const r of rows) if (r.data.includes(`"buyerOrderId":"${orderNo}"`)) return r.tx_hash;
  return null;
}

/** Settled on chain: completes the order and moves goods and money, in one transaction. */
export async function completeOrder(ctx: AppContext, orderNo: string, txHash: string | null): Promise<boolean> {
  return inTx(ctx, async (trx) => (await completeMarketOrders(ctx, trx, [{ orderNo, txHash }], ctx.now()))[0]!);
}

/**
 * Runs the settlement jobs' per-order steps ("paid → settling" moves, completions), which arrive in
 * bursts (receipts come in batches), a burst in one database transaction (one commit for the batch):
 * `steps` takes the whole burst and answers per item. If a burst fails, each item is retried in its
 * own transaction so one bad row cannot hold the others back.
 */
export function txBatcher<I, R>(ctx: AppContext, steps: (trx: Q, items: I[], now: number) => Promise<R[]>, maxBatch = 200) {
  const queue: { item: I; resolve: (r: R) => void; reject: (e: unknown) => void }[] = [];
  let scheduled = false;
  const flush = async () => {
    scheduled = false;
    const batch = queue.splice(0, maxBatch);
    if (queue.length) schedule();
    if (!batch.length) return;
    try {
      const now = ctx.now();
      const results = await inTx(ctx, (trx) => steps(trx, batch.map((b) => b.item), now));
      batch.forEach((b, i) => b.resolve(results[i]!));
    } catch {
      for (const b of batch) inTx(ctx, async (trx) => (await steps(trx, [b.item], ctx.now()))[0]!).then(b.resolve, b.reject);
    }
  };
  const schedule = () => {
    if (scheduled) return;
    scheduled = true;
    setImmediate(() => void flush());
  };
  return (item: I) =>
    new Promise<R>((resolve, reject) => {
      queue.push({ item, resolve, reject });
      schedule();
    });
}

/** Batched completion (one transaction per burst of receipts). */
export function completionBatcher(ctx: AppContext) {
  const run = txBatcher(ctx, (trx, fills: SettledFill[], now) => completeMarketOrders(ctx, trx, fills, now));
  return (orderNo: string, txHash: string | null) => run({ orderNo, txHash });
}

/** Batched "paid → settling" moves (one transaction per burst of submissions). */
export function settlingBatcher(ctx: AppContext) {
  const run = txBatcher(ctx, (trx, items: { orderNo: string; txId: number }[], now) => markSettling(ctx, trx, items, now));
  return (orderNo: string, txId: number) => run({ orderNo, txId });
}

/**
 * paid → settling for a burst of submitted fills, set-based: one conditional UPDATE … RETURNING per
 * operator transaction and one multi-row insert of the events. Answers per item as moveOrder does
 * ('paid', or null when the order was not paid any more — someone else moved it).
 */
async function markSettling(ctx: AppContext, trx: Q, items: { orderNo: string; txId: number }[], now: number): Promise<('paid' | null)[]> {
  const movedTo = new Map<string, number>();
  for (const [txId, same] of groupBy(items, (i) => i.txId)) {
    for (const part of rowParts(ctx, [...new Set(same.map((i) => i.orderNo))].sort(compareText), SETTLING_CHUNK)) {
      const rows = await trx
        .updateTable('orders')
        .set({ status: 'settling', chain_tx_id: txId })
        .where('order_no', 'in', keyList(ctx, part))
        .where(unindexedEq('orders.status', 'paid')) // the order numbers are the way in, not the status
        .returning('order_no')
        .execute();
      for (const r of rows) movedTo.set(r.order_no, txId);
    }
  }
  for (const part of rowParts(ctx, [...movedTo], SETTLING_CHUNK)) {
    await trx
      .insertInto('order_events')
      .values(part.map(([orderNo, txId]) => ({ order_no: orderNo, from_status: 'paid' as const, to_status: 'settling' as const, note: `operator transaction #${txId}`, at: now })))
      .execute();
  }
  const answered = new Set<string>();
  return items.map((i) => {
    if (movedTo.get(i.orderNo) !== i.txId || answered.has(i.orderNo)) return null;
    answered.add(i.orderNo);
    return 'paid';
  });
}
const SETTLING_CHUNK = 100;

/** Settlement failed for good: the buyer's payment goes back to the buyer's balance and the listing closes. */
export async function refundOrder(ctx: AppContext, orderNo: string, reason: string): Promise<boolean> {
  const now = ctx.now();
  return inTx(ctx, async (trx) => {
    const o = await trx.selectFrom('orders').selectAll().where('order_no', '=', orderNo).executeTakeFirst();
    if (!o || (o.status !== 'settling' && o.status !== 'paid')) return false;
    const from = o.status;
    if (from === 'paid') {
      // refunds happen from settling; a paid order first moves to settling (e.g. submission impossible).
      if (!(await moveOrder(trx, orderNo, 'paid', 'settling', now, {}, 'settlement impossible'))) return false;
    }
    if (!(await moveOrder(trx, orderNo, 'settling', 'refunded', now, { closed_at: now, fail_reason: `settlement failed: ${reason}`.slice(0, 200) }, `refunded to balance: ${reason}`))) return false;
    const l = await trx.selectFrom('listings').select(['id', 'status', 'goods_id']).where('id', '=', Number(o.listing_id)).executeTakeFirst();
    if (l && l.status === 'reserved') {
      await trx.updateTable('listings').set({ status: 'invalid', close_reason: reason.slice(0, 32), closed_at: now }).where('id', '=', l.id).where('status', '=', 'reserved').execute();
      await trx.updateTable('goods').set({ status: 'held', sale_price_fen: null, listed_at: null }).where('id', '=', Number(o.goods_id)).execute();
    }
    await postTxn(trx, {
      id: `refund:${orderNo}`,
      kind: 'refund',
      orderNo,
      entries: [
        { account: Account.escrow, amountFen: -Number(o.price_fen) },
        { account: Account.user(Number(o.buyer_user_id)), amountFen: Number(o.price_fen) },
      ],
      now,
    });
    return true;
  });
}
