import { Status } from '@cfx/contract/envelope.ts';
import type { AdminOrderDetail, AdminOrderRow, Page } from '@cfx/contract/admin.ts';
import type { OrderStatus } from '@cfx/contract/market.ts';
import type { AppContext } from '../../context.ts';
import type { OrderKind } from '../../db/schema.ts';
import { changed, type Q } from '../../db/tx.ts';
import { ApiError } from '../../http/envelope.ts';
import { orderQuery, type OrderRow } from '../orders/index.ts';
import { userMatch } from './users.ts';

/**
 * Orders for finance and support (docs/admin.md "Orders"): search by order number, user, status
 * and kind; one order with its event timeline, payments and ledger postings. The two actions go
 * through the orders module's own functions (routes.ts), never a raw UPDATE:
 * - cancel an unpaid order: closeUnpaidOrder (the listing or drop stock is released; not counted
 *   against the buyer's re-order limits);
 * - refund a paid market order whose settlement has not started: refundOrder (escrow → buyer's
 *   balance, listing closed invalid), inside which `claimSettlement` takes the settlement job away
 *   from the worker in the same transaction — if the worker already claimed it, or a chain
 *   transaction exists for the order, the refund is refused and everything rolls back, so an order
 *   can never be both settled on chain and refunded.
 */
function rowView(r: OrderRow): AdminOrderRow {
  const n = (v: number | null) => (v === null ? null : Number(v));
  return {
    orderNo: r.order_no,
    kind: r.kind,
    status: r.status,
    priceFen: Number(r.price_fen),
    commissionFen: Number(r.commission_fen),
    buyerId: Number(r.buyer_user_id),
    buyerNickname: r.buyer_nickname,
    sellerId: Number(r.seller_user_id),
    sellerNickname: r.seller_nickname,
    title: r.kind === 'drop' ? `${r.project_name} ×${Number(r.quantity)}` : `${r.goods_name ?? ''} #${Number(r.goods_serial)}`,
    payMethod: r.pay_method,
    createdAt: Number(r.created_at),
    paidAt: n(r.paid_at),
    closedAt: n(r.closed_at),
    completedAt: n(r.completed_at),
  };
}

export async function searchOrders(
  ctx: AppContext,
  input: { orderNo: string; user: string; status?: OrderStatus | null; kind?: OrderKind | null; pageNum: number; pageSize: number },
): Promise<Page<AdminOrderRow>> {
  const k = ctx.db.kysely;
  let base = orderQuery(k);
  if (input.orderNo) base = base.where('orders.order_no', '=', input.orderNo);
  if (input.user) {
    const ids = userMatch(k, input.user);
    base = base.where((e) => e.or([e('orders.buyer_user_id', 'in', ids), e('orders.seller_user_id', 'in', ids)]));
  }
  if (input.status) base = base.where('orders.status', '=', input.status);
  if (input.kind) base = base.where('orders.kind', '=', input.kind);
  const total = Number((await base.clearSelect().select((e) => e.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
  const rows = await base.orderBy('orders.id', 'desc').limit(input.pageSize).offset((input.pageNum - 1) * input.pageSize).execute();
  return { list: rows.map(rowView), total, pageNum: input.pageNum, pageSize: input.pageSize };
}

/** Whether staff may refund now (the refund checks again inside its transaction). */
function refundable(o: { kind: OrderKind; status: OrderStatus; settle_attempt: number; chain_tx_id: number | null }): boolean {
  return o.kind !== 'drop' && o.status === 'paid' && Number(o.settle_attempt) === 0 && o.chain_tx_id === null;
}

export async function orderDetailForStaff(ctx: AppContext, orderNo: string): Promise<AdminOrderDetail> {
  const k = ctx.db.kysely;
  const r = await orderQuery(k).where('orders.order_no', '=', orderNo).executeTakeFirst();
  if (!r) throw new ApiError(Status.NOT_FOUND_ITEM, 'orderNotFound', {}, 404);
  const [extra, events, payments, txns] = await Promise.all([
    k.selectFrom('orders').select(['settle_attempt', 'chain_tx_id', 'kind', 'status']).where('order_no', '=', orderNo).executeTakeFirstOrThrow(),
    k.selectFrom('order_events').select(['from_status', 'to_status', 'note', 'at']).where('order_no', '=', orderNo).orderBy('id').execute(),
    k.selectFrom('payments').select(['provider', 'provider_trade_no', 'amount_fen', 'outcome', 'created_at']).where('order_no', '=', orderNo).orderBy('id').execute(),
    k.selectFrom('ledger_txns').select(['id', 'kind', 'created_at']).where('order_no', '=', orderNo).orderBy('created_at').execute(),
  ]);
  const entries = txns.length
    ? await k.selectFrom('ledger_entries').select(['txn_id', 'account', 'amount_fen']).where('txn_id', 'in', txns.map((t) => t.id)).orderBy('id').execute()
    : [];
  return {
    ...rowView(r),
    quantity: r.quantity === null ? null : Number(r.quantity),
    sellerIncomeFen: Number(r.seller_income_fen),
    royaltyFen: Number(r.royalty_fen),
    failReason: r.fail_reason,
    txHash: r.tx_hash,
    events: events.map((e) => ({ from: e.from_status, to: e.to_status, note: e.note, at: Number(e.at) })),
    payments: payments.map((p) => ({ provider: p.provider, tradeNo: p.provider_trade_no, amountFen: Number(p.amount_fen), outcome: p.outcome, at: Number(p.created_at) })),
    ledger: txns.map((t) => ({
      id: t.id,
      kind: t.kind,
      at: Number(t.created_at),
      entries: entries.filter((e) => e.txn_id === t.id).map((e) => ({ account: e.account, amountFen: Number(e.amount_fen) })),
    })),
    canCancel: r.status === 'created' || r.status === 'paying',
    canRefund: refundable({ kind: extra.kind, status: extra.status, settle_attempt: Number(extra.settle_attempt), chain_tx_id: extra.chain_tx_id === null ? null : Number(extra.chain_tx_id) }),
  };
}

/** Refusals before any domain function runs (the same checks repeat inside the refund's transaction). */
export async function checkRefundable(ctx: AppContext, orderNo: string): Promise<{ priceFen: number; buyerId: number }> {
  const o = await ctx.db.kysely.selectFrom('orders').select(['kind', 'status', 'settle_attempt', 'chain_tx_id', 'price_fen', 'buyer_user_id']).where('order_no', '=', orderNo).executeTakeFirst();
  if (!o) throw new ApiError(Status.NOT_FOUND_ITEM, 'orderNotFound', {}, 404);
  if (!refundable({ ...o, settle_attempt: Number(o.settle_attempt), chain_tx_id: o.chain_tx_id === null ? null : Number(o.chain_tx_id) })) {
    throw new ApiError(Status.ORDER_STATE, 'orderNotRefundable');
  }
  return { priceFen: Number(o.price_fen), buyerId: Number(o.buyer_user_id) };
}

/**
 * Inside refundOrder's transaction: the settlement must not have started. The pending settlement
 * job is marked done here (the worker claims only pending jobs: a conditional UPDATE decides who
 * wins); a running job or any operator transaction for the order refuses the refund.
 */
export async function claimSettlement(trx: Q, orderNo: string, now: number): Promise<void> {
  const o = await trx.selectFrom('orders').select(['settle_attempt', 'chain_tx_id']).where('order_no', '=', orderNo).executeTakeFirstOrThrow();
  if (Number(o.settle_attempt) !== 0 || o.chain_tx_id !== null) throw new ApiError(Status.ORDER_STATE, 'orderNotRefundable');
  const sent = await trx.selectFrom('chain_txs').select('id').where('idempotency_key', 'like', `settle:${orderNo}%`).executeTakeFirst();
  if (sent) throw new ApiError(Status.ORDER_STATE, 'orderNotRefundable');
  const key = `settle:${orderNo}`;
  const job = await trx.selectFrom('jobs').select(['status']).where('job_key', '=', key).executeTakeFirst();
  if (!job) return;
  if (job.status === 'running') throw new ApiError(Status.ORDER_STATE, 'orderSettling');
  if (job.status === 'pending') {
    const r = await trx.updateTable('jobs').set({ status: 'done', last_error: 'refunded by staff', updated_at: now }).where('job_key', '=', key).where('status', '=', 'pending').executeTakeFirst();
    if (changed(r) !== 1) throw new ApiError(Status.ORDER_STATE, 'orderSettling');
  }
}
