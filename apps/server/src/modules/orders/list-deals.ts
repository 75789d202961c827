import { sql } from 'kysely';
import type { AppContext } from '../../context.ts';
import { requireUserId } from '../../http/auth.ts';
import type { FastifyRequest } from 'fastify';

/**
 * pageListNftDealRecordByParams {goodsId?, projectId?, mine?, pageNum, pageSize}: completed sales,
 * newest first. By collectible or release it is public (the asset page's trade list); `mine`
 * ('buy' / 'sell' / 'all') lists the signed-in user's own deals.
 */
export async function listDeals(
  ctx: AppContext,
  req: FastifyRequest,
  f: { goodsId?: number; projectId?: number; mine?: 'buy' | 'sell' | 'all' | null; pageNum: number; pageSize: number },
) {
  const me = f.mine ? await requireUserId(ctx, req) : undefined;
  const base = () => {
    let q = ctx.db.kysely.selectFrom('deals');
    if (f.goodsId !== undefined) q = q.where('deals.goods_id', '=', f.goodsId);
    if (f.projectId !== undefined) q = q.where('deals.project_id', '=', f.projectId);
    if (me !== undefined) {
      if (f.mine === 'buy') q = q.where('deals.buyer_user_id', '=', me);
      else if (f.mine === 'sell') q = q.where('deals.seller_user_id', '=', me);
      else q = q.where((eb) => eb.or([eb('deals.buyer_user_id', '=', me), eb('deals.seller_user_id', '=', me)]));
    }
    return q;
  };
  const rows = await base()
    .innerJoin('goods', 'goods.id', 'deals.goods_id')
    .innerJoin('users as su', 'su.id', 'deals.seller_user_id')
    .innerJoin('users as bu', 'bu.id', 'deals.buyer_user_id')
    .select([
      'deals.id', 'deals.order_no', 'deals.goods_id', 'deals.price_fen', 'deals.tx_hash', 'deals.created_at', 'goods.name', 'goods.image',
      'su.account_id as seller_account_id', 'su.nickname as seller_nickname', 'bu.account_id as buyer_account_id', 'bu.nickname as buyer_nickname',
    ])
    .orderBy('deals.id', 'desc')
    .limit(f.pageSize)
    .offset((f.pageNum - 1) * f.pageSize)
    .execute();
  const total = Number((await base().select(sql<number>`count(*)`.as('n')).executeTakeFirstOrThrow()).n);
  const explorer = ctx.market?.settlement?.explorerUrl ?? ctx.config.chain.explorerUrl;
  return {
    list: rows.map((r) => ({
      id: Number(r.id),
      orderNo: r.order_no,
      goodsId: Number(r.goods_id),
      goodsName: r.name,
      image: r.image,
      priceFen: Number(r.price_fen),
      seller: { accountId: r.seller_account_id, nickname: r.seller_nickname },
      buyer: { accountId: r.buyer_account_id, nickname: r.buyer_nickname },
      txHash: r.tx_hash,
      explorerUrl: r.tx_hash ? `${explorer}/transaction/${r.tx_hash}` : null,
      at: Number(r.created_at),
    })),
    total,
    pageNum: f.pageNum,
    pageSize: f.pageSize,
  };
}
