import type { AppContext } from '../../context.ts';
import { inTx } from '../../db/tx.ts';
import { marketHooks } from './market-hooks.ts';
import { historyAction } from './repo.ts';

/**
 * A listing whose token moved or whose approval was revoked on chain can never settle: it stops
 * being buyable at once (status invalid, the goods no longer on sale). An unpaid order holding it
 * is cancelled. A paid order is left to its settlement job, which finds the chain refusing and
 * refunds the buyer — the two never race over the same money.
 */
export async function invalidateListing(ctx: AppContext, listingId: number, reason: string): Promise<boolean> {
  const now = ctx.now();
  return inTx(ctx, async (trx) => {
    const l = await trx.selectFrom('listings').select(['id', 'status', 'goods_id', 'seller_user_id', 'price_fen', 'reserved_order_no', 'kind']).where('id', '=', listingId).executeTakeFirst();
    if (!l) return false;
    if (l.status === 'reserved' && l.reserved_order_no) {
      const o = await trx.selectFrom('orders').select(['status']).where('order_no', '=', l.reserved_order_no).executeTakeFirst();
      if (!o || (o.status !== 'created' && o.status !== 'paying')) return false;
      const moved = await marketHooks(ctx).moveOrder(trx, l.reserved_order_no, o.status, 'cancelled', now, { closed_at: now, fail_reason: `listing no longer valid: ${reason}`.slice(0, 200) }, `listing no longer valid: ${reason}`);
      if (!moved) return false;
      await trx.updateTable('listings').set({ status: 'invalid', close_reason: reason.slice(0, 32), closed_at: now, reserved_order_no: null }).where('id', '=', l.id).where('status', '=', 'reserved').execute();
    } else if (l.status === 'on_sale') {
      const res = await trx.updateTable('listings').set({ status: 'invalid', close_reason: reason.slice(0, 32), closed_at: now }).where('id', '=', l.id).where('status', '=', 'on_sale').executeTakeFirst();
      if (Number(res.numUpdatedRows) !== 1) return false;
    } else {
      return false;
    }
    if (l.kind === 'market') {
      await trx.updateTable('goods').set({ status: 'held', sale_price_fen: null, listed_at: null }).where('id', '=', Number(l.goods_id)).where('status', '=', 'on_sale').execute();
      await historyAction(trx, { goodsId: Number(l.goods_id), action: 'delist', from: Number(l.seller_user_id), to: null, priceFen: Number(l.price_fen), at: now });
    }
    return true;
  });
}
