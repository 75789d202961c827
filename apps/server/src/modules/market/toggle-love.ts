import { sql } from 'kysely';
import type { AppContext } from '../../context.ts';
import { inTx } from '../../db/tx.ts';
import { notFound } from './repo.ts';

/** love {goodsId}: toggles the collectible in my favourites; returns the new state and its favourite count. */
export async function toggleLove(ctx: AppContext, userId: number, goodsId: number) {
  const g = await ctx.db.kysely.selectFrom('goods').select('id').where('id', '=', goodsId).executeTakeFirst();
  if (!g) throw notFound('goodsNotFound');
  const loved = await inTx(ctx, async (trx) => {
    const del = await trx.deleteFrom('favorites').where('user_id', '=', userId).where('goods_id', '=', goodsId).executeTakeFirst();
    if (Number(del.numDeletedRows) > 0) return false;
    await trx.insertInto('favorites').values({ user_id: userId, goods_id: goodsId, created_at: ctx.now() }).onConflict((oc) => oc.columns(['user_id', 'goods_id']).doNothing()).execute();
    return true;
  });
  const c = await ctx.db.kysely.selectFrom('favorites').select(sql<number>`count(*)`.as('n')).where('goods_id', '=', goodsId).executeTakeFirstOrThrow();
  return { goodsId, loved, loveCount: Number(c.n) };
}
