import { sql } from 'kysely';
import type { StudioRelease, StudioStats } from '@cfx/contract/studio.ts';
import type { AppContext } from '../../context.ts';
import { projectStatusOf, SOLD } from '../catalog/index.ts';
import { Account, balanceOf } from '../ledger/index.ts';

/**
 * The studio's numbers for each of the creator's releases: its state, units sold, holders (distinct
 * owners of its collectibles not burned or voided) and the creator's income, read from the ledger:
 * - primary sales: the creator's entries (`user:<creatorUserId>`) in the `settle:<orderNo>`
 *   transactions of the release's drop orders (its price less the platform's commission);
 * - royalties: the royalty of each settled resale of the release's collectibles paid to the
 *   creator (orders.royalty_fen with royalty_user_id = the creator, whose `settle:<orderNo>`
 *   transaction posted it to `user:<creatorUserId>`; counted from the order so a resale the
 *   creator made themselves does not add their seller income).
 * Both reach the creator's available balance, withdrawn through the money-out page.
 */
export async function studioStats(ctx: AppContext, creator: { id: number; userId: number }): Promise<StudioStats> {
  const k = ctx.db.kysely;
  const now = ctx.now();
  const account = Account.user(creator.userId);
  const projects = await k
    .selectFrom('projects')
    .leftJoin('drop_stock', 'drop_stock.project_id', 'projects.id')
    .select(['projects.id', 'projects.name', 'projects.cover', 'projects.supply', 'projects.price_fen', 'projects.sale_start_at', 'projects.sale_end_at', 'projects.royalty_permille', SOLD.as('sold')])
    .where('projects.creator_id', '=', creator.id)
    .orderBy('projects.id', 'desc')
    .limit(500)
    .execute();
  const ids = projects.map((p) => Number(p.id));
  const [primary, royalty, holders] = ids.length
    ? await Promise.all([
        k
          .selectFrom('orders')
          .innerJoin('ledger_entries', (j) => j.on(sql<boolean>`ledger_entries.txn_id = ${sql.lit('settle:')} || orders.order_no`))
          .select(['orders.project_id', sql<string>`sum(ledger_entries.amount_fen)`.as('s')])
          .where('orders.kind', '=', 'drop')
          .where('orders.project_id', 'in', ids)
          .where('ledger_entries.account', '=', account)
          .groupBy('orders.project_id')
          .execute(),
        k
          .selectFrom('orders')
          .innerJoin('goods', 'goods.id', 'orders.goods_id')
          .innerJoin('ledger_txns', (j) => j.on(sql<boolean>`ledger_txns.id = ${sql.lit('settle:')} || orders.order_no`))
          .select(['goods.project_id', sql<string>`sum(orders.royalty_fen)`.as('s')])
          .where('orders.kind', '!=', 'drop')
          .where('orders.royalty_user_id', '=', creator.userId)
          .where('goods.project_id', 'in', ids)
          .groupBy('goods.project_id')
          .execute(),
        k
          .selectFrom('goods')
          .select(['project_id', sql<string>`count(distinct owner_user_id)`.as('n')])
          .where('project_id', 'in', ids)
          .where('status', '!=', 'burned')
          .where('chain_status', '!=', 'void')
          .groupBy('project_id')
          .execute(),
      ])
    : [[], [], []];
  const by = (rows: { s?: string; n?: string; project_id: number | null }[], f: 's' | 'n') => new Map(rows.map((r) => [Number(r.project_id), Number(r[f] ?? 0)]));
  const pm = by(primary, 's');
  const rm = by(royalty, 's');
  const hm = by(holders, 'n');
  const releases: StudioRelease[] = projects.map((p) => {
    const id = Number(p.id);
    const sold = Number(p.sold);
    return {
      projectId: id,
      name: p.name,
      cover: p.cover,
      status: projectStatusOf({ sale_start_at: Number(p.sale_start_at), sale_end_at: p.sale_end_at === null ? null : Number(p.sale_end_at), sold, supply: Number(p.supply) }, now),
      supply: Number(p.supply),
      sold,
      holders: hm.get(id) ?? 0,
      priceFen: Number(p.price_fen),
      saleStartAt: Number(p.sale_start_at),
      royaltyPermille: p.royalty_permille === null ? null : Number(p.royalty_permille),
      primaryIncomeFen: pm.get(id) ?? 0,
      royaltyIncomeFen: rm.get(id) ?? 0,
    };
  });
  const sum = (f: (r: StudioRelease) => number) => releases.reduce((a, r) => a + f(r), 0);
  return {
    releases,
    totals: { sold: sum((r) => r.sold), primaryIncomeFen: sum((r) => r.primaryIncomeFen), royaltyIncomeFen: sum((r) => r.royaltyIncomeFen) },
    balanceFen: await balanceOf(k, account),
  };
}
