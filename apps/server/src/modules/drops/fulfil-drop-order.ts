import type { AppContext } from '../../context.ts';
import { inTx } from '../../db/tx.ts';
import type { JobResult } from '../../jobs/runner.ts';
import { defineJob } from '../../jobs/define-job.ts';
import { imageId, imageUrl, parseImageId, RARITIES, rarityOf } from '../content/index.ts';
import { moveOrder } from '../orders/index.ts';
import { wakeMinting } from './mint-batches.ts';
import { allocateSerials } from './stock.ts';

/**
 * The fulfilment of a paid drop order (durable job `fulfil:<orderNo>`, inserted with the payment).
 * One transaction, in this lock order:
 *
 *   1. orders      paid → settling (conditional: a second run changes nothing)
 *   2. drop_stock  allocate `quantity` consecutive serials (next_serial += n, paid += n)
 *   3. goods       insert the collectibles (owner = buyer, chain_status pending, token id =
 *                  release token_start + serial − 1, drop_order_no = the order) with their price
 *                  point and `mint` history action
 *
 * The mint job then mints them to the buyer's linked wallet in mintBatch transactions and, once
 * every collectible of the order is minted, completes the order (complete-drop-order.ts).
 */
/** The durable job `fulfil:<orderNo>` of a paid drop order (its handler: runFulfilJob). */
export const fulfilJob = defineJob<'fulfil', { orderNo: string }>('fulfil', {
  key: (p) => `fulfil:${p.orderNo}`,
  read: (job) => ({ orderNo: String(job.payload.orderNo ?? job.key.replace(/^fulfil:/, '')) }),
});

export async function runFulfilJob(ctx: AppContext, orderNo: string): Promise<JobResult> {
  const now = ctx.now();
  const created = await inTx(ctx, async (trx) => {
    const o = await trx
      .selectFrom('orders')
      .innerJoin('projects', 'projects.id', 'orders.project_id')
      .select(['orders.kind', 'orders.status', 'orders.project_id', 'orders.quantity', 'orders.unit_price_fen', 'orders.buyer_user_id', 'projects.name', 'projects.cover', 'projects.token_start', 'projects.supply'])
      .where('orders.order_no', '=', orderNo)
      .executeTakeFirst();
    if (!o || o.kind !== 'drop' || o.status !== 'paid' || o.project_id === null || o.quantity === null || o.token_start === null) return 0;
    const n = Number(o.quantity);
    const projectId = Number(o.project_id);
    if (!(await moveOrder(trx, orderNo, 'paid', 'settling', now, {}, `${n} collectible(s) allocated, minting`))) return 0;
    const first = await allocateSerials(trx, projectId, n, now);
    const buyer = Number(o.buyer_user_id);
    const price = Number(o.unit_price_fen);
    const art = parseImageId(new URL(o.cover, 'http://x').searchParams.get('id') ?? '');
    const digits = Math.max(4, String(o.supply).length);
    const rows = [];
    for (let serial = first; serial < first + n; serial++) {
      rows.push({
        project_id: projectId,
        serial,
        token_id: Number(o.token_start) + serial - 1,
        contract: ctx.chain?.collectible ?? null,
        chain_status: 'pending' as const,
        mint_tx_hash: null,
        minted_at: null,
        owner_user_id: buyer,
        name: `${o.name} #${String(serial).padStart(digits, '0')}`,
        image: art ? imageUrl(imageId('g', art.style, art.seed, 0, serial)) : o.cover,
        attributes: JSON.stringify([
          { trait: '系列', value: o.name },
          ...(art ? [{ trait: '稀有度', value: RARITIES[rarityOf(art.seed, serial)] }] : []),
        ]),
        status: 'held' as const,
        sale_price_fen: null,
        listed_at: null,
        last_price_fen: price,
        acquired_at: now,
        created_at: now,
        drop_order_no: orderNo,
      });
    }
    const ids = await trx.insertInto('goods').values(rows).returning('id').execute();
    await trx.insertInto('goods_price_history').values(ids.map((g) => ({ goods_id: Number(g.id), price_fen: price, at: now }))).execute();
    await trx
      .insertInto('goods_history_actions')
      .values(ids.map((g) => ({ goods_id: Number(g.id), action: 'mint' as const, from_user_id: null, to_user_id: buyer, price_fen: price, tx_hash: null, at: now })))
      .execute();
    return n;
  });
  if (created) wakeMinting(ctx);
  return { done: true };
}
