import type { Page } from '@cfx/contract/paging.ts';
import type { AppContext } from '../../context.ts';
import type { GoodsHistoryAction } from '../../db/schema.ts';
import { goodsExists, notFound } from './repo.ts';

/** Trade prices of a collectible, oldest first (the newest `limit` points, default 200). */
export async function listPriceHistory(ctx: AppContext, goodsId: number, limit = 200) {
  if (!(await goodsExists(ctx, goodsId))) throw notFound('goodsNotFound');
  const rows = await ctx.db.kysely
    .selectFrom('goods_price_history')
    .select(['at', 'price_fen'])
    .where('goods_id', '=', goodsId)
    .orderBy('at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
  return rows.reverse().map((r) => ({ at: Number(r.at), priceFen: Number(r.price_fen) }));
}

type Action = GoodsHistoryAction;
const ACTIONS = new Set<string>(['mint', 'list', 'delist', 'sale', 'transfer', 'open', 'burn', 'compose', 'gift', 'shift'] satisfies Action[]);

/** What happened to a collectible (mint, listings, sales, transfers, box opening, compose, gifts, moves), newest first, paged. */
export async function listHistoryActions(ctx: AppContext, goodsId: number, pageNum: number, pageSize: number) {
  if (!(await goodsExists(ctx, goodsId))) throw notFound('goodsNotFound');
  const k = ctx.db.kysely;
  const count = await k.selectFrom('goods_history_actions').select((e) => e.fn.countAll<number>().as('n')).where('goods_id', '=', goodsId).executeTakeFirst();
  const rows = await k
    .selectFrom('goods_history_actions as h')
    .leftJoin('users as fu', 'fu.id', 'h.from_user_id')
    .leftJoin('profpics as fp', 'fp.id', 'fu.profpic_id')
    .leftJoin('users as tu', 'tu.id', 'h.to_user_id')
    .leftJoin('profpics as tp', 'tp.id', 'tu.profpic_id')
    .select([
      'h.action', 'h.price_fen', 'h.tx_hash', 'h.at',
      'fu.account_id as from_account_id', 'fu.nickname as from_nickname', 'fp.url as from_avatar',
      'tu.account_id as to_account_id', 'tu.nickname as to_nickname', 'tp.url as to_avatar',
    ])
    .where('h.goods_id', '=', goodsId)
    .orderBy('h.at', 'desc')
    .orderBy('h.id', 'desc')
    .limit(pageSize)
    .offset((pageNum - 1) * pageSize)
    .execute();
  const brief = (accountId: string | null, nickname: string | null, avatar: string | null) =>
    accountId === null ? null : { accountId, nickname: nickname ?? '', avatar: avatar ?? '' };
  const page: Page<{ action: Action; from: ReturnType<typeof brief>; to: ReturnType<typeof brief>; priceFen: number | null; txHash: string | null; at: number }> = {
    list: rows
      .filter((r) => ACTIONS.has(r.action))
      .map((r) => ({
        action: r.action as Action,
        from: brief(r.from_account_id, r.from_nickname, r.from_avatar),
        to: brief(r.to_account_id, r.to_nickname, r.to_avatar),
        priceFen: r.price_fen === null ? null : Number(r.price_fen),
        txHash: r.tx_hash,
        at: Number(r.at),
      })),
    total: Number(count?.n ?? 0),
    pageNum,
    pageSize,
  };
  return page;
}
