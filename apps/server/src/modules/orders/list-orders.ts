import { sql } from 'kysely';
import type { AppContext } from '../../context.ts';
import type { OrderStatus } from '../../db/schema.ts';
import { dropItemsOf, orderQuery, toOrderCard } from './order-view.ts';

const GROUPS = {
  pending: ['created', 'paying'],
  active: ['paid', 'settling'],
  done: ['completed'],
  closed: ['cancelled', 'expired', 'refunded'],
} as const satisfies Record<string, readonly OrderStatus[]>;
type OrderGroup = keyof typeof GROUPS;

export interface OrderFilter {
  role?: 'buyer' | 'seller' | null;
  /** One status, a group of statuses (pending / active / done / closed), or all. */
  status?: OrderStatus | OrderGroup | 'all' | null;
}

const statusesOf = (s: OrderStatus | OrderGroup): readonly OrderStatus[] => (Object.hasOwn(GROUPS, s) ? GROUPS[s as OrderGroup] : [s as OrderStatus]);

function filtered(ctx: AppContext, userId: number, f: OrderFilter) {
  let q = orderQuery(ctx.db.kysely).where(f.role === 'seller' ? 'orders.seller_user_id' : 'orders.buyer_user_id', '=', userId);
  const s = f.status;
  if (s && s !== 'all') q = q.where('orders.status', 'in', statusesOf(s));
  return q;
}

/** queryNftOrderList {role?, status?}: my latest 50 orders. */
export async function listOrders(ctx: AppContext, userId: number, f: OrderFilter) {
  const rows = await filtered(ctx, userId, f).orderBy('orders.id', 'desc').limit(50).execute();
  const items = await dropItemsOf(ctx.db.kysely, rows);
  return rows.map((r) => toOrderCard(ctx, r, userId, items));
}

/** pageListNftOrder {role?, status?, pageNum, pageSize}: my orders, newest first, paged. */
export async function pageOrders(ctx: AppContext, userId: number, f: OrderFilter & { pageNum: number; pageSize: number }) {
  const rows = await filtered(ctx, userId, f).orderBy('orders.id', 'desc').limit(f.pageSize).offset((f.pageNum - 1) * f.pageSize).execute();
  let cq = ctx.db.kysely.selectFrom('orders').select(sql<number>`count(*)`.as('n')).where(f.role === 'seller' ? 'seller_user_id' : 'buyer_user_id', '=', userId);
  if (f.status && f.status !== 'all') cq = cq.where('status', 'in', statusesOf(f.status));
  const total = Number((await cq.executeTakeFirstOrThrow()).n);
  const items = await dropItemsOf(ctx.db.kysely, rows);
  return { list: rows.map((r) => toOrderCard(ctx, r, userId, items)), total, pageNum: f.pageNum, pageSize: f.pageSize };
}
