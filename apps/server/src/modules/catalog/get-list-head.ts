import { sql } from 'kysely';
import type { AppContext } from '../../context.ts';

/** The signed-in user's collection summary (head of the personal asset list). */
export async function getListHead(ctx: AppContext, userId: number) {
  const row = await ctx.db.kysely
    .selectFrom('goods')
    .select((e) => [
      e.fn.countAll<number>().as('total'),
      sql<number>`coalesce(sum(case when goods.status = 'on_sale' then 1 else 0 end), 0)`.as('on_sale'),
      sql<number>`count(distinct goods.project_id)`.as('series'),
      sql<number>`coalesce(sum(coalesce(goods.last_price_fen, 0)), 0)`.as('valuation'),
    ])
    .where('owner_user_id', '=', userId)
    .where('status', '!=', 'burned')
    .executeTakeFirst();
  const total = Number(row?.total ?? 0);
  const onSale = Number(row?.on_sale ?? 0);
  return { total, held: total - onSale, onSale, series: Number(row?.series ?? 0), valuationFen: Number(row?.valuation ?? 0) };
}
