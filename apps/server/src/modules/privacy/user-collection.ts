import { sql } from 'kysely';
import type { AppContext } from '../../context.ts';
import { goodsCardQuery, notFound, toGoodsCard } from '../catalog/index.ts';
import { readPrivacySettings } from './privacy-settings.ts';

/**
 * goods/v1/list/userCollection {accountId, pageNum, pageSize}: the collectibles a user holds, for
 * public pages (the creator page), most recently acquired first. When the user switched
 * showCollection off — or the account was cancelled — the answer is `hidden: true` with no goods and
 * a zero total, so not even the size of the collection shows. Unknown account: 1404.
 */
export async function listUserCollection(ctx: AppContext, f: { accountId: string; pageNum: number; pageSize: number }) {
  const user = await ctx.db.kysely.selectFrom('users').select(['id', 'cancelled_at']).where('account_id', '=', f.accountId.trim()).executeTakeFirst();
  if (!user) throw notFound('userNotFound');
  const userId = Number(user.id);
  const empty = { hidden: true, list: [], total: 0, pageNum: f.pageNum, pageSize: f.pageSize };
  if (user.cancelled_at !== null) return empty;
  if (!(await readPrivacySettings(ctx, userId)).showCollection) return empty;
  const rows = await goodsCardQuery(ctx)
    .where('goods.owner_user_id', '=', userId)
    .where('goods.status', '!=', 'burned')
    .orderBy('goods.acquired_at', 'desc')
    .orderBy('goods.id', 'desc')
    .limit(f.pageSize)
    .offset((f.pageNum - 1) * f.pageSize)
    .execute();
  const total = await ctx.db.kysely.selectFrom('goods').select(sql<number>`count(*)`.as('n')).where('owner_user_id', '=', userId).where('status', '!=', 'burned').executeTakeFirstOrThrow();
  return { hidden: false, list: rows.map(toGoodsCard), total: Number(total.n), pageNum: f.pageNum, pageSize: f.pageSize };
}
