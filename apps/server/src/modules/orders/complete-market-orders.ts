import { sql } from 'kysely';
import type { AppContext } from '../../context.ts';
import { keyList } from '../../db/key-list.ts';
import { rowParts, unindexedEq, type Q } from '../../db/tx.ts';
import { compareText } from '../../util/compare.ts';
import { groupBy } from '../../util/group-by.ts';
import { Account, postTxns } from '../ledger/index.ts';
import { historyActions } from '../market/index.ts';
import { notifySold } from '../messages/index.ts';

/** One settled fill: the order and the hash of the transaction that executed it. */
export interface SettledFill {
  orderNo: string;
  txHash: string | null;
}

/** Rows per multi-row statement (bound parameters stay far below SQLite's and PostgreSQL's limits). */
const CHUNK = 100;

/**
 * Market and bid orders settled on chain, completed in the caller's database transaction: each order
 * settling → completed, its listing sold, the collectible to the buyer, a deal record, a price-history
 * point, a history action, the collectible's open bids closed, and the ledger — escrow → seller
 * (price − commission − royalty) + commission + royalty (`settle:<orderNo>`) — and the seller's "sold"
 * message. Returns, per fill, whether this call completed it (false: not settling, not a market or bid
 * order, or named twice).
 *
 * Set-based: a burst of receipts completes its orders in a few statements whatever its size (one
 * conditional UPDATE … RETURNING per transaction hash, one multi-row statement per table), where one
 * order at a time took ≈ 15 statements each; the sellers' messages go through notifyUsers, a few statements too.
 * Only the orders the conditional update moved are touched further, so a fill named again (a job run
 * twice, a crash between receipt and completion) changes nothing.
 */
export async function completeMarketOrders(ctx: Pick<AppContext, 'db' | 'now'>, trx: Q, fills: readonly SettledFill[], now: number): Promise<boolean[]> {
  const first = new Map<string, SettledFill>();
  for (const f of fills) if (!first.has(f.orderNo)) first.set(f.orderNo, f);
  const byHash = groupBy(first.values(), (f) => f.txHash);

  // 1. the orders: settling → completed, conditional (the order numbers are the way in, not the status)
  const done: Completed[] = [];
  for (const [txHash, fs] of byHash) {
    for (const part of rowParts(ctx, fs.map((f) => f.orderNo).sort(compareText), CHUNK)) {
      const rows = await completedOrders(ctx, trx, part, txHash, now).execute();
      for (const r of rows) {
        done.push({
          order_no: r.order_no, listing_id: Number(r.listing_id), goods_id: Number(r.goods_id), buyer_user_id: Number(r.buyer_user_id), seller_user_id: Number(r.seller_user_id),
          price_fen: Number(r.price_fen), commission_fen: Number(r.commission_fen), royalty_fen: Number(r.royalty_fen),
          royalty_user_id: r.royalty_user_id === null ? null : Number(r.royalty_user_id), seller_income_fen: Number(r.seller_income_fen), tx_hash: r.tx_hash,
        });
      }
    }
  }
  const completed = new Set(done.map((o) => o.order_no));
  const seen = new Set<string>();
  const out = fills.map((f) => {
    const ok = completed.has(f.orderNo) && !seen.has(f.orderNo);
    seen.add(f.orderNo);
    return ok;
  });
  if (!done.length) return out;
  // Goods in id order: the rows' lock order on PostgreSQL.
  done.sort((a, b) => a.goods_id - b.goods_id);

  const goodsOf = new Map<number, { projectId: number; name: string; serial: number }>();
  for (const part of rowParts(ctx, done, CHUNK)) {
    const goodsIds = part.map((o) => o.goods_id);
    await trx
      .insertInto('order_events')
      .values(part.map((o) => ({ order_no: o.order_no, from_status: 'settling' as const, to_status: 'completed' as const, note: o.tx_hash ? `settled on chain ${o.tx_hash}` : 'settled on chain', at: now })))
      .execute();
    await trx.updateTable('listings').set({ status: 'sold', closed_at: now }).where('id', 'in', keyList(ctx, part.map((o) => o.listing_id))).where(unindexedEq('listings.status', 'reserved')).execute();
    const perGoods = (value: (o: Completed) => number) => sql<number>`case id ${sql.join(part.map((o) => sql`when ${o.goods_id} then cast(${value(o)} as bigint)`), sql` `)} end`;
    await trx
      .updateTable('goods')
      .set({ owner_user_id: perGoods((o) => o.buyer_user_id), status: 'held', sale_price_fen: null, listed_at: null, last_price_fen: perGoods((o) => o.price_fen), acquired_at: now })
      .where('id', 'in', keyList(ctx, goodsIds))
      .execute();
    for (const g of await trx.selectFrom('goods').select(['id', 'project_id', 'name', 'serial']).where('id', 'in', keyList(ctx, goodsIds)).execute()) {
      goodsOf.set(Number(g.id), { projectId: Number(g.project_id), name: g.name, serial: Number(g.serial) });
    }
    await trx
      .insertInto('deals')
      .values(part.map((o) => ({
        order_no: o.order_no, goods_id: o.goods_id, project_id: goodsOf.get(o.goods_id)!.projectId, listing_id: o.listing_id, seller_user_id: o.seller_user_id, buyer_user_id: o.buyer_user_id,
        price_fen: o.price_fen, commission_fen: o.commission_fen, royalty_fen: o.royalty_fen, tx_hash: o.tx_hash, created_at: now,
      })))
      .execute();
    await trx.insertInto('goods_price_history').values(part.map((o) => ({ goods_id: o.goods_id, price_fen: o.price_fen, at: now }))).execute();
    await historyActions(trx, part.map((o) => ({ goodsId: o.goods_id, action: 'sale' as const, from: o.seller_user_id, to: o.buyer_user_id, priceFen: o.price_fen, txHash: o.tx_hash, at: now })));
    await trx.updateTable('bids').set({ status: 'closed', updated_at: now }).where('goods_id', 'in', keyList(ctx, goodsIds)).where('status', '=', 'active').execute();
  }
  await postTxns(
    trx,
    done.map((o) => {
      const entries = [
        { account: Account.escrow, amountFen: -o.price_fen },
        { account: Account.user(o.seller_user_id), amountFen: o.seller_income_fen },
        { account: Account.commission, amountFen: o.commission_fen },
      ];
      if (o.royalty_fen > 0) entries.push({ account: o.royalty_user_id === null ? Account.commission : Account.user(o.royalty_user_id), amountFen: o.royalty_fen });
      return { id: `settle:${o.order_no}`, kind: 'settle' as const, orderNo: o.order_no, entries, now };
    }),
    { dialect: ctx.db.dialect },
  );
  // The sellers' "sold" messages (and SMS per their settings), committed with the sales or not at all.
  await notifySold(ctx, trx, done.map((o) => ({ ...o, goods: goodsOf.get(o.goods_id)! })), now);
  return out;
}

/**
 * The conditional UPDATE … RETURNING that moves a part of a burst settling → completed. The order numbers
 * are its way in; status and kind are tested in a form no index serves (unindexedEq), so that a status
 * index misjudged while a backlog settles cannot be chosen instead (test/orders-indexes.test.ts). Drop
 * orders, which complete through their mints, are left out by their kind.
 */
export function completedOrders(ctx: Pick<AppContext, 'db'>, trx: Q, orderNos: readonly string[], txHash: string | null, now: number) {
  return trx
    .updateTable('orders')
    .set({ status: 'completed', completed_at: now, tx_hash: txHash })
    .where('order_no', 'in', keyList(ctx, orderNos))
    .where(unindexedEq('orders.status', 'settling'))
    .where(unindexedEq('orders.kind', ['market', 'bid']))
    .returning(['order_no', 'listing_id', 'goods_id', 'buyer_user_id', 'seller_user_id', 'price_fen', 'commission_fen', 'royalty_fen', 'royalty_user_id', 'seller_income_fen', 'tx_hash']);
}

type Completed = {
  order_no: string;
  listing_id: number;
  goods_id: number;
  buyer_user_id: number;
  seller_user_id: number;
  price_fen: number;
  commission_fen: number;
  royalty_fen: number;
  royalty_user_id: number | null;
  seller_income_fen: number;
  tx_hash: string | null;
};
