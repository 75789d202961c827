import { sql } from 'kysely';
import type { OrderDetail } from '@cfx/contract/market.ts';
import type { AppContext } from '../../context.ts';
import type { Q } from '../../db/tx.ts';

/** Reads of orders with their collectible and parties, as the API shows them. */
export function orderQuery(q: Q) {
  return q
    .selectFrom('orders')
    // A drop order has no goods row of its own (modules/drops): its release is orders.project_id.
    .leftJoin('goods', 'goods.id', 'orders.goods_id')
    .innerJoin('projects', (j) => j.on(sql<boolean>`projects.id = coalesce(orders.project_id, goods.project_id)`))
    .innerJoin('users as bu', 'bu.id', 'orders.buyer_user_id')
    .innerJoin('users as su', 'su.id', 'orders.seller_user_id')
    .select([
      'orders.id', 'orders.order_no', 'orders.kind', 'orders.status', 'orders.listing_id', 'orders.goods_id', 'orders.buyer_user_id', 'orders.seller_user_id',
      'orders.price_fen', 'orders.commission_fen', 'orders.royalty_fen', 'orders.seller_income_fen', 'orders.pay_method', 'orders.expires_at',
      'orders.created_at', 'orders.paid_at', 'orders.completed_at', 'orders.closed_at', 'orders.tx_hash', 'orders.fail_reason',
      'goods.name as goods_name', 'goods.image as goods_image', 'goods.serial as goods_serial', 'goods.token_id as goods_token_id',
      'projects.name as project_name', 'projects.cover as project_cover',
      'orders.project_id', 'orders.quantity', 'orders.unit_price_fen',
      'bu.account_id as buyer_account_id', 'bu.nickname as buyer_nickname', 'su.account_id as seller_account_id', 'su.nickname as seller_nickname',
    ]);
}
export type OrderRow = NonNullable<Awaited<ReturnType<ReturnType<typeof orderQuery>['executeTakeFirst']>>>;

const n = (v: number | string | null) => (v === null ? null : Number(v));

export function toOrderCard(ctx: AppContext, r: OrderRow, viewerId: number, dropItems?: DropItems): Omit<OrderDetail, 'timeline'> {
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
    goods: r.kind === 'drop'
      ? { id: dropItems?.get(r.order_no)?.[0]?.goodsId ?? 0, name: r.project_name, image: r.project_cover, serial: 0, projectName: r.project_name, tokenId: null }
      : { id: Number(r.goods_id), name: r.goods_name ?? '', image: r.goods_image ?? '', serial: Number(r.goods_serial), projectName: r.project_name, tokenId: r.goods_token_id === null ? null : String(r.goods_token_id) },
    drop: r.kind === 'drop'
      ? { projectId: Number(r.project_id), quantity: Number(r.quantity), unitPriceFen: Number(r.unit_price_fen), items: dropItems?.get(r.order_no) ?? [] }
      : null,
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
  return { ...toOrderCard(ctx, r, viewerId, await dropItemsOf(ctx.db.kysely, [r])), timeline: await orderTimeline(ctx.db.kysely, orderNo) };
}

/** The collectibles of drop orders (created when the order is fulfilled), by order number. */
export type DropItems = Map<string, NonNullable<OrderDetail['drop']>['items']>;

/** Statuses of an order never paid (orders/transitions.ts: none of them is reached from `paid`): a drop order in one has no collectibles. */
const NEVER_PAID: ReadonlySet<string> = new Set(['created', 'paying', 'cancelled', 'expired']);

export async function dropItemsOf(q: Q, rows: readonly { order_no: string; kind: string; status: string }[]): Promise<DropItems> {
  const out: DropItems = new Map();
  const nos = rows.filter((r) => r.kind === 'drop' && !NEVER_PAID.has(r.status)).map((r) => r.order_no);
  if (!nos.length) return out;
  const goods = await q.selectFrom('goods').select(['id', 'serial', 'token_id', 'chain_status', 'drop_order_no']).where('drop_order_no', 'in', nos).orderBy('serial').execute();
  for (const g of goods) {
    const list = out.get(g.drop_order_no!) ?? [];
    list.push({ goodsId: Number(g.id), serial: Number(g.serial), tokenId: g.token_id === null ? null : String(g.token_id), chainStatus: g.chain_status });
    out.set(g.drop_order_no!, list);
  }
  return out;
}
