import { sql } from 'kysely';
import type { AppContext } from '../../context.ts';
import { inTx } from '../../db/tx.ts';
import { Account, postTxn } from '../ledger/index.ts';
import { notifyUser } from '../messages/index.ts';
import { moveOrder, noteOrder } from '../orders/index.ts';
import { givePhaseQuota } from './phase-quota.ts';
import { giveQuota } from './quota.ts';
import { dropStockSnapshot } from './stock.ts';

const yuan = (fen: number) => `￥${(fen / 100).toFixed(2)}`;

/**
 * Units of a paid drop order that can never be minted (the mint job decided: the token id belongs to
 * another address on chain, or DROP_MINT_MAX_FAILURES single mints failed) are refunded to the
 * buyer's balance instead of leaving the order `settling` for ever. One transaction per order:
 *
 *   goods       pending → chain_status 'void', status 'burned' (conditional on pending: a unit is
 *               voided once, and never after the mint job marked it minted)
 *   orders      none left → settling → refunded; some left (already minted or still minting) → the
 *               order shrinks to the units it delivers: quantity, price, commission and creator income
 *               in proportion (the settlement then credits the creator only for those); `fail_reason`
 *               keeps why (the console shows it) and the timeline says what was refunded
 *   ledger      escrow → user:<buyer>, unit price × voided units (`refund:<orderNo>` when the whole
 *               order goes back, else `refund:<orderNo>:<first voided goods id>`)
 *   quota       the buyer identity's units come back (the release limit or the phase bucket)
 *   stock       drop_stock.voided += units: still taken (their serials and token ids are used up, they
 *               are never sold again) but no longer counted as sold
 *   message     an `order_refunded` message to the buyer (same transaction)
 *
 * The conditional move of each unit makes the whole refund exactly once, whatever retries or a
 * second mint pass do. Returns the units refunded.
 */
export async function refundUndeliverableUnits(ctx: AppContext, orderNo: string, goodsIds: number[], reason: string): Promise<number> {
  if (!goodsIds.length) return 0;
  const now = ctx.now();
  const out = await inTx(ctx, async (trx) => {
    const voided = await trx
      .updateTable('goods')
      .set({ chain_status: 'void', status: 'burned' })
      .where('id', 'in', goodsIds)
      .where('drop_order_no', '=', orderNo)
      .where('chain_status', '=', 'pending')
      .returning('id')
      .execute();
    const k = voided.length;
    if (!k) return null;
    const o = await trx
      .selectFrom('orders')
      .innerJoin('projects', 'projects.id', 'orders.project_id')
      .select(['orders.status', 'orders.kind', 'orders.project_id', 'orders.quantity', 'orders.unit_price_fen', 'orders.price_fen', 'orders.commission_fen', 'orders.buyer_user_id', 'orders.identity_digest', 'orders.quota_bucket', 'projects.name'])
      .where('orders.order_no', '=', orderNo)
      .executeTakeFirst();
    // A pending unit of a drop order means the order is settling (it completes only when every unit is minted).
    if (!o || o.kind !== 'drop' || o.status !== 'settling' || o.quantity === null || o.unit_price_fen === null || o.project_id === null) {
      throw new Error(`drop order ${orderNo} is not settling: cannot refund its units`);
    }
    const n = Number(o.quantity);
    const unit = Number(o.unit_price_fen);
    const projectId = Number(o.project_id);
    const buyer = Number(o.buyer_user_id);
    const left = n - k;
    const refundFen = k * unit;
    const firstId = Math.min(...voided.map((v) => Number(v.id)));
    const why = `not minted: ${reason}`.slice(0, 200);
    const note = `${k} of ${n} unit(s) refunded to balance (${yuan(refundFen)}): ${reason}`;
    if (left <= 0) {
      if (!(await moveOrder(trx, orderNo, 'settling', 'refunded', now, { closed_at: now, fail_reason: why }, note))) throw new Error(`drop order ${orderNo} moved meanwhile`);
    } else {
      const priceFen = left * unit;
      const commissionFen = Math.floor((Number(o.commission_fen) * left) / n);
      const res = await trx
        .updateTable('orders')
        .set({ quantity: left, price_fen: priceFen, commission_fen: commissionFen, seller_income_fen: priceFen - commissionFen, fail_reason: why })
        .where('order_no', '=', orderNo)
        .where('status', '=', 'settling')
        .where('quantity', '=', n)
        .executeTakeFirst();
      if (Number(res.numUpdatedRows) !== 1) throw new Error(`drop order ${orderNo} moved meanwhile`);
      await noteOrder(trx, orderNo, 'settling', note, now);
    }
    await postTxn(trx, {
      id: left <= 0 ? `refund:${orderNo}` : `refund:${orderNo}:${firstId}`,
      kind: 'refund',
      orderNo,
      entries: [
        { account: Account.escrow, amountFen: -refundFen },
        { account: Account.user(buyer), amountFen: refundFen },
      ],
      now,
    });
    if (o.identity_digest && o.quota_bucket) await givePhaseQuota(trx, projectId, o.quota_bucket, o.identity_digest, k, now);
    else if (o.identity_digest) await giveQuota(trx, projectId, o.identity_digest, k, now);
    // The stock row last (lock order of docs/drops.md).
    await trx.updateTable('drop_stock').set({ voided: sql`voided + ${k}`, updated_at: now }).where('project_id', '=', projectId).execute();
    await notifyUser(ctx, trx, buyer, 'order_refunded', { orderNo, name: o.name, count: k, amountFen: refundFen }, { dedupeKey: `order_refunded:${orderNo}:${firstId}`, link: '/personal-center/txn-details', now });
    return { k, projectId };
  });
  if (!out) return 0;
  dropStockSnapshot(ctx, out.projectId);
  return out.k;
}
