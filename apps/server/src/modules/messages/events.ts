import { sql } from 'kysely';
import type { AppContext } from '../../context.ts';
import { keyList } from '../../db/key-list.ts';
import type { Q } from '../../db/tx.ts';
import { groupBy } from '../../util/group-by.ts';
import { notifyUser, notifyUsers, type Notice } from './notify-user.ts';
import { sweepPass } from './sweep-pass.ts';
import './tables.ts';

/**
 * The business events that notify a user. Each is called inside the business transaction that
 * makes the event true (so a rollback notifies nobody) and is keyed so a replay notifies once.
 */
type Ctx = Pick<AppContext, 'db' | 'now'>;

async function goodsInfo(q: Q, goodsId: number) {
  const g = await q.selectFrom('goods').select(['name', 'serial']).where('id', '=', goodsId).executeTakeFirst();
  return { name: g?.name ?? '', serial: g ? Number(g.serial) : 0 };
}

/**
 * The sellers, when market sales settled (orders/complete-market-orders.ts, in the completion
 * transaction, a burst at a time): one "sold" message each, with the collectible as the caller read it.
 */
export async function notifySold(
  ctx: Ctx,
  q: Q,
  sales: readonly { order_no: string; seller_user_id: number; price_fen: number; seller_income_fen: number; goods: { name: string; serial: number } }[],
  now: number,
) {
  return notifyUsers(
    ctx,
    q,
    sales.map((o) => ({
      userId: Number(o.seller_user_id),
      kind: 'sold' as const,
      params: { name: o.goods.name, serial: o.goods.serial, priceFen: Number(o.price_fen), incomeFen: Number(o.seller_income_fen), orderNo: o.order_no },
      opts: { dedupeKey: `sold:${o.order_no}`, link: '/personal-center/txn-details', now },
    })),
  );
}

/** The owner, when someone bids on their collectible (bids/place-bid.ts). */
export async function notifyBidReceived(ctx: Ctx, q: Q, b: { bidId: number; goodsId: number; ownerUserId: number; amountFen: number; expiresAt: number }, now: number) {
  const g = await goodsInfo(q, b.goodsId);
  return notifyUser(ctx, q, b.ownerUserId, 'bid_received', { name: g.name, serial: g.serial, amountFen: b.amountFen, expiresAt: b.expiresAt, goodsId: b.goodsId }, {
    dedupeKey: `bid_received:${b.bidId}`,
    link: `/assets/${b.goodsId}`,
    now,
  });
}

/** The bidder, when the owner accepted their bid (bids/accept-bid.ts): they now have an order to pay. */
export async function notifyBidAccepted(ctx: Ctx, q: Q, b: { bidId: number; goodsId: number; bidderUserId: number; amountFen: number; orderNo: string; deadlineAt: number }, now: number) {
  const g = await goodsInfo(q, b.goodsId);
  return notifyUser(ctx, q, b.bidderUserId, 'bid_accepted', { name: g.name, serial: g.serial, amountFen: b.amountFen, orderNo: b.orderNo, deadlineAt: b.deadlineAt }, {
    dedupeKey: `bid_accepted:${b.bidId}`,
    link: `/object-buy?goodsId=${b.goodsId}&orderNo=${encodeURIComponent(b.orderNo)}`,
    now,
  });
}

/** The columns of an order's subject for the buyer: the collectible (market) or the release (drop). */
function orderSubjects(q: Q) {
  return q
    .selectFrom('orders')
    .leftJoin('goods', 'goods.id', 'orders.goods_id')
    .leftJoin('projects', 'projects.id', 'orders.project_id')
    .select(['orders.order_no', 'orders.buyer_user_id', 'orders.price_fen', 'orders.expires_at', 'orders.goods_id', 'orders.project_id', 'orders.quantity', 'goods.name as goods_name', 'goods.serial', 'projects.name as project_name']);
}

type SubjectRow = Awaited<ReturnType<ReturnType<typeof orderSubjects>['execute']>>[number];

/** What the buyer's notice of an order says: its subject's name and where to pay it. */
function subjectOf(o: SubjectRow) {
  const orderNo = o.order_no;
  const name = o.goods_name ? `${o.goods_name} #${Number(o.serial)}` : o.project_name ? `${o.project_name} ×${Number(o.quantity ?? 1)}` : '';
  const payLink = o.goods_id !== null ? `/object-buy?goodsId=${Number(o.goods_id)}&orderNo=${encodeURIComponent(orderNo)}` : `/object-buy?projectId=${Number(o.project_id)}&orderNo=${encodeURIComponent(orderNo)}`;
  return { orderNo, buyer: Number(o.buyer_user_id), priceFen: Number(o.price_fen), deadlineAt: Number(o.expires_at), name, payLink };
}

/**
 * The buyers, when unpaid orders expired (orders/close-order.ts, in the closing transaction, a
 * chunk of the expiry sweep at a time): one read of the orders' subjects, one notifyUsers.
 */
export async function notifyOrdersExpired(ctx: Ctx, q: Q, orderNos: readonly string[], now: number) {
  if (!orderNos.length) return [];
  const rows = await orderSubjects(q).where('orders.order_no', 'in', keyList(ctx, orderNos)).execute();
  return notifyUsers(
    ctx,
    q,
    rows.map(subjectOf).map((o) => ({
      userId: o.buyer,
      kind: 'order_expired' as const,
      params: { orderNo: o.orderNo, name: o.name, priceFen: o.priceFen },
      opts: { dedupeKey: `order_expired:${o.orderNo}`, link: '/personal-center/txn-details', now },
    })),
  );
}

/**
 * The sweep (every MessagesConfig.sweepMs on the job worker): buyers of unpaid orders whose payment
 * window ends within MESSAGE_ORDER_EXPIRING_SECONDS are told once (`order_expiring:<orderNo>`).
 * One transaction for the whole pass: the due orders with their subjects in one read, their notices
 * in notifyUsers' multi-row statements and one SMS job. (One transaction per order stalled the
 * event loop for ≈ 0.7 s a pass when a drop's short payment window made hundreds due at once.)
 */
export async function notifyExpiringOrders(ctx: AppContext, limit = 500): Promise<number> {
  const now = ctx.now();
  const lead = ctx.config.messages.orderExpiringLeadMs;
  if (lead <= 0) return 0;
  const due = (q: Q, orderNos?: readonly string[]) => {
    let b = orderSubjects(q)
      .where('orders.status', 'in', ['created', 'paying'])
      .where('orders.expires_at', '>', now)
      .where('orders.expires_at', '<=', now + lead)
      // Not told yet (the message's dedupe key is 'order_expiring:' || order_no).
      .where(sql<boolean>`not exists (select 1 from messages m where m.user_id = orders.buyer_user_id and m.dedupe_key = cast(${'order_expiring:'} as varchar(32)) || orders.order_no)`);
    if (orderNos) b = b.where('orders.order_no', 'in', keyList(ctx, orderNos));
    return b.orderBy('orders.expires_at').limit(limit).execute();
  };
  // Read first (most passes find nothing and open no transaction), then again inside the transaction:
  // an order paid in between is not told.
  const first = (await due(ctx.db.kysely)).map((o) => o.order_no);
  return sweepPass(ctx, first, async (trx, nos) =>
    notifyUsers(
      ctx,
      trx,
      (await due(trx, nos)).map(subjectOf).map((o) => ({
        userId: o.buyer,
        kind: 'order_expiring' as const,
        params: { orderNo: o.orderNo, name: o.name, priceFen: o.priceFen, deadlineAt: o.deadlineAt },
        opts: { dedupeKey: `order_expiring:${o.orderNo}`, link: o.payLink, now },
      })),
    ),
  );
}

/**
 * The reminder sweep: every "remind me" subscriber of a release whose sale starts within
 * DROP_REMIND_MINUTES is told once — the subscriptions' `notified_at` is set by a conditional
 * UPDATE in the same transaction as the messages (`drop_starting:<projectId>`), so exactly once per
 * user per release even with several workers. Subscriptions whose start passed more than the lead
 * ago (the worker was down) are closed without a message. One transaction per pass of up to `limit`
 * subscriptions (one claim per release, the messages in notifyUsers' multi-row statements), where it
 * was one transaction per subscriber — up to 1,000 a pass for a popular release, holding SQLite's
 * event loop as the order-expiring sweep's passes did.
 */
export async function notifyDropReminders(ctx: AppContext, limit = 1000): Promise<number> {
  const now = ctx.now();
  const lead = ctx.config.messages.dropRemindLeadMs;
  const due = (q: Q) =>
    q
      .selectFrom('drop_reminders')
      .innerJoin('projects', 'projects.id', 'drop_reminders.project_id')
      .select(['drop_reminders.project_id', 'drop_reminders.user_id', 'projects.name', 'projects.sale_start_at', 'projects.price_fen'])
      .where('drop_reminders.notified_at', 'is', null)
      .where('projects.sale_start_at', '<=', now + lead)
      .orderBy('projects.sale_start_at')
      .limit(limit)
      .execute();
  return sweepPass(ctx, await due(ctx.db.kysely), async (trx, rows) => {
    const notices: Notice[] = [];
    for (const [projectId, subs] of groupBy(rows, (r) => Number(r.project_id))) {
      const r = subs[0]!;
      // The claim: only the subscriptions this update moved are told (another worker's pass took the rest).
      const won = await trx
        .updateTable('drop_reminders')
        .set({ notified_at: now })
        .where('project_id', '=', projectId)
        .where('user_id', 'in', keyList(ctx, subs.map((x) => Number(x.user_id))))
        .where('notified_at', 'is', null)
        .returning('user_id')
        .execute();
      if (Number(r.sale_start_at) < now - Math.max(lead, 60_000)) continue; // stale: closed without a message
      for (const w of won) {
        notices.push({
          userId: Number(w.user_id),
          kind: 'drop_starting',
          params: { name: r.name, startAt: Number(r.sale_start_at), priceFen: Number(r.price_fen), projectId },
          opts: { dedupeKey: `drop_starting:${projectId}`, link: `/projects/dropping/${projectId}`, now },
        });
      }
    }
    return notifyUsers(ctx, trx, notices);
  });
}

/** One entrant's lottery result, as notifyLotteryResults takes it. */
export interface LotteryResult {
  userId: number;
  projectId: number;
  won: boolean;
  count?: number;
  deadlineAt?: number | null;
  name?: string;
  link?: string | null;
}

/**
 * The lottery's results for their entrants: call it inside the transaction that records (or
 * delivers) the results. Won: the right to buy `count` units before `deadlineAt`. Once per user per
 * release (`lottery:<projectId>`). The lottery (modules/drops/lottery.ts) records results as
 * `drop_events`; deliver-drop-events.ts turns them into these messages, a pass at a time. A result
 * without its release's name reads it (once per release).
 */
export async function notifyLotteryResults(ctx: Ctx, q: Q, results: readonly LotteryResult[], now?: number) {
  const missing = [...new Set(results.filter((r) => r.name === undefined).map((r) => r.projectId))];
  const names = new Map<number, string>();
  if (missing.length) {
    for (const p of await q.selectFrom('projects').select(['id', 'name']).where('id', 'in', missing).execute()) names.set(Number(p.id), p.name);
  }
  return notifyUsers(
    ctx,
    q,
    results.map((r) => ({
      userId: r.userId,
      kind: 'lottery_result' as const,
      params: { name: r.name ?? names.get(r.projectId) ?? '', won: r.won, count: r.count ?? 0, deadlineAt: r.deadlineAt ?? null, projectId: r.projectId },
      opts: { dedupeKey: `lottery:${r.projectId}`, template: r.won ? ('lottery_won' as const) : ('lottery_lost' as const), link: r.link ?? `/projects/dropping/${r.projectId}`, now },
    })),
  );
}
