import { Status } from '@cfx/contract/envelope.ts';
import type { AppContext } from '../../context.ts';
import type { OrdersTable } from '../../db/schema.ts';
import { ApiError } from '../../http/envelope.ts';
import { compiledOnce } from '../../db/tx.ts';
import { notFound } from '../market/index.ts';
import { closeUnpaidOrder } from './close-order.ts';

/**
 * Every column of `orders`, named: a `select *` text is never a named statement on PostgreSQL
 * (db/pg-prepared.ts), and this read runs for every pay, cancel and card payment — in a drop's sale
 * it was parsed and planned anew each time (≈ 90 µs of planning, more than its execution). The
 * `satisfies` below fails to compile when a column is added to OrdersTable and not here.
 */
const ORDER_COLUMNS = [
  'id', 'order_no', 'kind', 'listing_id', 'goods_id', 'buyer_user_id', 'seller_user_id', 'buyer_address', 'price_fen', 'commission_fen',
  'royalty_fen', 'royalty_user_id', 'seller_income_fen', 'status', 'pay_method', 'provider_trade_no', 'expires_at', 'chain_tx_id',
  'settle_attempt', 'tx_hash', 'fail_reason', 'created_at', 'paid_at', 'completed_at', 'closed_at', 'closed_by', 'project_id', 'quantity',
  'unit_price_fen', 'identity_digest', 'quota_bucket',
] as const satisfies readonly (keyof OrdersTable)[];
type Missing = Exclude<keyof OrdersTable, (typeof ORDER_COLUMNS)[number]>;
const allColumns: [Missing] extends [never] ? true : { missing: Missing } = true;
void allColumns;

/** Built and compiled once per database (compiledOnce): with 31 named columns, building it cost more than running it. */
const orderByNo = compiledOnce((k) => k.selectFrom('orders').select(ORDER_COLUMNS).where('order_no', '=', ''));

/** The order for the buyer's own call: 1404 unknown, 1012 another user's; an unpaid order past its window is expired here. */
export async function buyerOrder(ctx: AppContext, userId: number, orderNo: string) {
  const [o] = await orderByNo(ctx.db.kysely, [orderNo]);
  if (!o) throw notFound('orderNotFound');
  if (Number(o.buyer_user_id) !== userId) throw new ApiError(Status.FORBIDDEN, 'orderNotYours');
  if ((o.status === 'created' || o.status === 'paying') && Number(o.expires_at) <= ctx.now()) {
    await closeUnpaidOrder(ctx, orderNo, 'expired', { dueOnly: true, read: o });
    throw new ApiError(Status.ORDER_STATE, 'orderExpired');
  }
  return o;
}
