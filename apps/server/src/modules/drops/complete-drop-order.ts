import { sql } from 'kysely';
import type { AppContext } from '../../context.ts';
import { inTx, unindexedEq, type Q } from '../../db/tx.ts';
import { Account, postTxns } from '../ledger/index.ts';

/**
 * A drop order whose collectibles are all minted is completed: it moves settling → completed
 * (conditional, so exactly once) with the mint transaction hash, and posts `settle:<orderNo>`:
 * escrow → creator (total − commission) + platform:commission.
 *
 * Called by the mint pass right after it marked goods minted, and by a periodic sweep
 * (`complete-drops`, every 2 s) that catches whatever a crash between the two left behind.
 *
 * Orders are completed CHUNK at a time, each chunk in one database transaction of four statements
 * whatever its size: one conditional UPDATE … RETURNING moves the chunk's orders whose goods are
 * all minted (a unit refunded as undeliverable, 'void', is no longer the order's), one multi-row
 * insert writes their events and postTxns writes their ledger transactions. Completing them one by
 * one (≈ 8 statements each) took 25–34 s for the 2,000 orders of a mint pass on PostgreSQL under a
 * drop's load, holding the escrow balance's row lock against the payments meanwhile.
 */
export async function completeMintedDropOrders(ctx: AppContext, orderNos?: string[]): Promise<number> {
  if (orderNos && !orderNos.length) return 0;
  let nos: string[];
  if (orderNos) {
    nos = [...new Set(orderNos)];
  } else {
    const due = await ctx.db.kysely
      .selectFrom('orders')
      .select('order_no')
      .where('kind', '=', 'drop')
      .where('status', '=', 'settling')
      .where(({ not, exists, selectFrom }) => not(exists(selectFrom('goods').select(sql`1`.as('x')).whereRef('goods.drop_order_no', '=', 'orders.order_no').where('goods.chain_status', '=', 'pending'))))
      .orderBy('id')
      .limit(SWEEP_LIMIT)
      .execute();
    nos = due.map((d) => d.order_no);
  }
  nos.sort();
  let n = 0;
  for (let i = 0; i < nos.length; i += CHUNK) {
    const chunk = nos.slice(i, i + CHUNK);
    n += await inTx(ctx, (trx) => completeInTx(trx, chunk, ctx.now()));
  }
  return n;
}

const CHUNK = 200;
const SWEEP_LIMIT = 2000;

/** One chunk of completeMintedDropOrders in the caller's transaction (exported for the plan test). */
export async function completeInTx(trx: Q, orderNos: string[], now: number): Promise<number> {
  const done = await trx
    .updateTable('orders')
    .set({
      status: 'completed',
      completed_at: now,
      // the hash of the order's last mint
      tx_hash: sql<string | null>`(select g.mint_tx_hash from goods g where g.drop_order_no = orders.order_no and g.chain_status = 'minted' and g.mint_tx_hash is not null order by g.minted_at desc limit 1)`,
    })
    .where('order_no', 'in', orderNos)
    // The order numbers are the way in, not the status (unindexedEq); the test still moves each once.
    .where(unindexedEq('orders.kind', 'drop'))
    .where(unindexedEq('orders.status', 'settling'))
    .where(sql<boolean>`not exists (select 1 from goods g where g.drop_order_no = orders.order_no and g.chain_status not in ('minted', 'void'))`)
    .where(sql<boolean>`(select count(*) from goods g where g.drop_order_no = orders.order_no and g.chain_status = 'minted') = orders.quantity`)
    .returning(['order_no', 'tx_hash', 'price_fen', 'commission_fen', 'seller_income_fen', 'seller_user_id'])
    .execute();
  if (!done.length) return 0;
  await trx
    .insertInto('order_events')
    .values(done.map((o) => ({ order_no: o.order_no, from_status: 'settling' as const, to_status: 'completed' as const, note: o.tx_hash ? `minted on chain ${o.tx_hash}` : 'minted on chain', at: now })))
    .execute();
  await postTxns(
    trx,
    done.map((o) => ({
      id: `settle:${o.order_no}`,
      kind: 'settle' as const,
      orderNo: o.order_no,
      entries: [
        { account: Account.escrow, amountFen: -Number(o.price_fen) },
        { account: Account.user(Number(o.seller_user_id)), amountFen: Number(o.seller_income_fen) },
        { account: Account.commission, amountFen: Number(o.commission_fen) },
      ],
      now,
    })),
  );
  return done.length;
}
