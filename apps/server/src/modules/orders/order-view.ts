import type { OrderDetail } from '@cfx/contract/market.ts';
import type { AppContext } from '../../context.ts';
import type { Q } from '../../db/tx.ts';

/** Reads of orders with their collectible and parties, as the API shows them. */
export function orderQuery(q: Q) {
  return q
    .selectFrom('orders')
    .innerJoin('goods', 'goods.id', 'orders.goods_id')
    .innerJoin('projects', 'projects.id', 'goods.project_id')
    .innerJoin('users as bu', 'bu.id', 'orders.buyer_user_id')
    .innerJoin('users as su', 'su.id', 'orders.seller_user_id')
    .select([
      'orders.id', 'orders.order_no', 'orders.kind', 'orders.status', 'orders.listing_id', 'orders.goods_id', 'orders.buyer_user_id', 'orders.seller_user_id',
      'orders.price_fen', 'orders.commission_fen', 'orders.royalty_fen', 'orders.seller_income_fen', 'orders.pay_method', 'orders.expires_at',
      'orders.created_at', 'orders.paid_at', 'orders.completed_at', 'orders.closed_at', 'orders.tx_hash', 'orders.fail_reason',
      'goods.name as goods_name', 'goods.image as goods_image', 'goods.serial as goods_serial', 'goods.token_id as goods_token_id',
      'projects.name as project_name',
      'bu.account_id as buyer_account_id', 'bu.nickname as buyer_nickname', 'su.account_id as seller_account_id', 'su.nickname as seller_nickname',
    ]);
}
export type OrderRow = NonNullable<Awaited<ReturnType<ReturnType<typeof orderQuery>['executeTakeFirst']>>>;

const n = (v: number | string | null) => (v === null ? null : Number(v));

export function toOrderCard(ctx: AppContext, r: OrderRow, viewerId: number): Omit<OrderDetail, 'timeline'> {
  const now = ctx.now();
  // The DB's status and pay-method unions are the API's enums (db/api-guards.ts): no cast needed.
  const status = r.status;
  const awaiting = status === 'created' || status === 'paying';
  const role = Number(r.seller_user_id) === viewerId ? 'seller' : 'buyer';
  const explorer = ctx.market?.settlement?.explorerUrl ?? ctx.config.chain.explorerUrl;
  return {
    orderNo: r.order_no,
    kind: r.kind,
    status,
    role,
    goods: { id: Number(r.goods_id), name: r.goods_name, image: r.goods_image, serial: Number(r.goods_serial), projectName: r.project_name, tokenId: r.goods_token_id === null ? null : String(r.goods_token_id) },
    listingId: Number(r.listing_id),
    priceFen: Number(r.price_fen),
    commissionFen: Number(r.commission_fen),
    royaltyFen: Number(r.royalty_fen),
    sellerIncomeFen: role === 'seller' ? Number(r.seller_income_fen) : null,
    buyer: { accountId: r.buyer_account_id, nickname: r.buyer_nickname },
    seller: { accountId: r.seller_account_id, nickname: r.seller_nickname },
    payMethod: r.pay_method,
    expiresAt: Number(r.expires_at),
    remainingMs: awaiting ? Math.max(0, Number(r.expires_at) - now) : 0,
    createdAt: Number(r.created_at),
    paidAt: n(r.paid_at),
    completedAt: n(r.completed_at),
    closedAt: n(r.closed_at),
    txHash: r.tx_hash,
    explorerUrl: r.tx_hash ? `${explorer}/transaction/${r.tx_hash}` : null,
    failReason: r.fail_reason,
    serverTime: now,
  };
}

export async function orderTimeline(q: Q, orderNo: string): Promise<OrderDetail['timeline']> {
  const rows = await q.selectFrom('order_events').selectAll().where('order_no', '=', orderNo).orderBy('id').execute();
  return rows.map((e) => ({ status: e.to_status, from: e.from_status, note: e.note, at: Number(e.at) }));
}

export async function orderDetailOf(ctx: AppContext, orderNo: string, viewerId: number): Promise<OrderDetail | undefined> {
  const r = await orderQuery(ctx.db.kysely).where('orders.order_no', '=', orderNo).executeTakeFirst();
  if (!r) return undefined;
  return { ...toOrderCard(ctx, r, viewerId), timeline: await orderTimeline(ctx.db.kysely, orderNo) };
}
