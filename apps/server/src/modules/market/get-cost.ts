import type { Lang } from '@cfx/contract/messages.ts';
import type { AppContext } from '../../context.ts';
import { costOf } from './fees.ts';
import { checkPrice, notFound } from './repo.ts';

/** GET /goods/v1/cost ?price=&goodsId=: the commission (and royalty) a sale at `price` costs the seller. */
export async function getCost(ctx: AppContext, input: { price: number; goodsId?: number }, lang: Lang) {
  checkPrice(ctx, input.price);
  if (input.goodsId !== undefined) {
    const g = await ctx.db.kysely.selectFrom('goods').select('id').where('id', '=', input.goodsId).executeTakeFirst();
    if (!g) throw notFound('goodsNotFound');
  }
  return costOf(input.price, ctx.config.commissionPermille, ctx.config.market.royaltyPermille, lang);
}
