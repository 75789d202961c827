import { sql } from 'kysely';
import type { AppContext } from '../../context.ts';
import { inTx, type Q } from '../../db/tx.ts';
import { Account, postTxn } from '../ledger/index.ts';
import { moveOrder } from '../orders/index.ts';

/**
 * A drop order whose collectibles are all minted is completed: one transaction moves it
 * settling → completed (conditional, so exactly once) with the mint transaction hash, and posts
 * `settle:<orderNo>`: escrow → creator (total − commission) + platform:commission.
 *
 * Called by the mint pass right after it marked goods minted, and by a periodic sweep
 * (`complete-drops`, every 2 s) that catches whatever a crash between the two left behind.
 */
export async function completeMintedDropOrders(ctx: AppContext, orderNos?: string[]): Promise<number> {
  if (orderNos && !orderNos.length) return 0;
  let q = ctx.db.kysely
    .selectFrom('orders')
    .select('order_no')
    .where('kind', '=', 'drop')
    .where('status', '=', 'settling')
    .where(({ not, exists, selectFrom }) =>
      not(exists(selectFrom('goods').select(sql`1`.as('x')).whereRef('goods.drop_order_no', '=', 'orders.order_no').where('goods.chain_status', '=', 'pending'))),
    )
    .orderBy('id')
    .limit(500);
  if (orderNos) q = q.where('order_no', 'in', [...new Set(orderNos)]);
  const due = await q.execute();
  let n = 0;
  for (let i = 0; i < due.length; i += 100) {
    const chunk = due.slice(i, i + 100);
    n += await inTx(ctx, async (trx) => {
      let done = 0;
      for (const d of chunk) if (await completeInTx(trx, d.order_no, ctx.now())) done++;
      return done;
    });
  }
  return n;
}

async function completeInTx(trx: Q, orderNo: string, now: number): Promise<boolean> {
  const o = await trx.selectFrom('orders').select(['kind', 'status', 'quantity', 'price_fen', 'commission_fen', 'seller_income_fen', 'seller_user_id']).where('order_no', '=', orderNo).executeTakeFirst();
  if (!o || o.kind !== 'drop' || o.status !== 'settling') return false;
  // Units refunded because they could never be minted ('void') are no longer the order's (its quantity shrank).
  const goods = await trx.selectFrom('goods').select(['chain_status', 'mint_tx_hash', 'minted_at']).where('drop_order_no', '=', orderNo).where('chain_status', '!=', 'void').orderBy('minted_at', 'desc').execute();
  if (goods.length !== Number(o.quantity) || goods.some((g) => g.chain_status !== 'minted')) return false;
  const txHash = goods.find((g) => g.mint_tx_hash)?.mint_tx_hash ?? null;
  const note = txHash ? `minted on chain ${txHash}` : 'minted on chain';
  if (!(await moveOrder(trx, orderNo, 'settling', 'completed', now, { completed_at: now, tx_hash: txHash }, note))) return false;
  await postTxn(trx, {
    id: `settle:${orderNo}`,
    kind: 'settle',
    orderNo,
    entries: [
      { account: Account.escrow, amountFen: -Number(o.price_fen) },
      { account: Account.user(Number(o.seller_user_id)), amountFen: Number(o.seller_income_fen) },
      { account: Account.commission, amountFen: Number(o.commission_fen) },
    ],
    now,
  });
  return true;
}
