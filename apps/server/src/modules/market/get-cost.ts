import type { Lang } from '@cfx/contract/messages.ts';
import type { AppContext } from '../../context.ts';
import { costOf, royaltyPermilleOf } from './fees.ts';
import { checkPrice, notFound } from './repo.ts';

/**
 * GET /goods/v1/cost ?price=&goodsId=: the commission and the creator royalty a sale at `price` costs
 * the seller. The royalty is the collectible's release's own rate (else the platform default); without
 * a goodsId the default.
 */
export async function getCost(ctx: AppContext, input: { price: number; goodsId?: number }, lang: Lang) {
  checkPrice(ctx, input.price);
  let own: number | null = null;
  if (input.goodsId !== undefined) {
    const g = await ctx.db.kysely
      .selectFrom('goods')
      .innerJoin('projects', 'projects.id', 'goods.project_id')
      .select(['goods.id', 'projects.royalty_permille'])
      .where('goods.id', '=', input.goodsId)
      .executeTakeFirst();
    if (!g) throw notFound('goodsNotFound');
    own = g.royalty_permille;
  }
  return costOf(input.price, ctx.config.commissionPermille, royaltyPermilleOf(ctx, own), lang);
}
