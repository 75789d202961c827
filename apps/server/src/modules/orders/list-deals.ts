import { sql } from 'kysely';
import type { AppContext } from '../../context.ts';
import { requireUserId } from '../accounts/index.ts';
import type { FastifyRequest } from 'fastify';

/**
 * pageListNftDealRecordByParams {goodsId?, projectId?, mine?, pageNum, pageSize}: completed sales,
 * newest first. By collectible or release it is public (the asset page's trade list: market deals
 * only); `mine` ('buy' / 'sell' / 'all') lists the signed-in user's own receipts — market deals and
 * completed primary purchases (drop orders: the buyer bought, the creator sold; `kind: 'drop'`, the
 * order's quantity, its first collectible and the mint transaction) and, for a creator ('sell' / 'all'),
 * the resales of their releases between others whose royalty they received (`kind: 'royalty'`, the
 * amount in `royaltyFen`), merged by time. Every row carries the sale's royalty (`royaltyFen`, 0 for a drop).
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
  // My primary purchases (and, for a creator, primary sales) once minted: completed drop orders.
  const drops = () => {
    let q = ctx.db.kysely.selectFrom('orders').where('orders.kind', '=', 'drop').where('orders.status', '=', 'completed');
    if (f.goodsId !== undefined) q = q.where(({ exists, selectFrom }) => exists(selectFrom('goods').select('goods.id').whereRef('goods.drop_order_no', '=', 'orders.order_no').where('goods.id', '=', f.goodsId!)));
    if (f.projectId !== undefined) q = q.where('orders.project_id', '=', f.projectId);
    if (f.mine === 'buy') q = q.where('orders.buyer_user_id', '=', me!);
    else if (f.mine === 'sell') q = q.where('orders.seller_user_id', '=', me!);
    else q = q.where((eb) => eb.or([eb('orders.buyer_user_id', '=', me!), eb('orders.seller_user_id', '=', me!)]));
    return q;
  };
  // A creator's royalty income: resales of their releases where they were neither party (else the row above shows it).
  const royalties = () =>
    ctx.db.kysely
      .selectFrom('deals')
      .innerJoin('orders', 'orders.order_no', 'deals.order_no')
      .where('orders.royalty_user_id', '=', me!)
      .where('deals.royalty_fen', '>', 0)
      .where('deals.seller_user_id', '!=', me!)
      .where('deals.buyer_user_id', '!=', me!)
      .$if(f.goodsId !== undefined, (q) => q.where('deals.goods_id', '=', f.goodsId!))
      .$if(f.projectId !== undefined, (q) => q.where('deals.project_id', '=', f.projectId!));
  const withRoyalties = me !== undefined && f.mine !== 'buy';
  // Enough of each to cut this page from their merge (newest first).
  const upTo = f.pageNum * f.pageSize;
  const [marketRows, dropRows, royaltyRows, marketTotal, dropTotal, royaltyTotal] = await Promise.all([
    base()
      .innerJoin('goods', 'goods.id', 'deals.goods_id')
      .innerJoin('users as su', 'su.id', 'deals.seller_user_id')
      .innerJoin('users as bu', 'bu.id', 'deals.buyer_user_id')
      .select([
        'deals.id', 'deals.order_no', 'deals.goods_id', 'deals.price_fen', 'deals.royalty_fen', 'deals.tx_hash', 'deals.created_at', 'goods.name', 'goods.image',
        'su.account_id as seller_account_id', 'su.nickname as seller_nickname', 'bu.account_id as buyer_account_id', 'bu.nickname as buyer_nickname',
      ])
      .orderBy('deals.id', 'desc')
      .limit(me === undefined ? f.pageSize : upTo)
      .offset(me === undefined ? (f.pageNum - 1) * f.pageSize : 0)
      .execute(),
    me === undefined
      ? Promise.resolve([])
      : drops()
          .innerJoin('projects', 'projects.id', 'orders.project_id')
          .innerJoin('users as su', 'su.id', 'orders.seller_user_id')
          .innerJoin('users as bu', 'bu.id', 'orders.buyer_user_id')
          .select((eb) => [
            'orders.id', 'orders.order_no', 'orders.price_fen', 'orders.quantity', 'orders.tx_hash', 'orders.completed_at', 'projects.name', 'projects.cover',
            'su.account_id as seller_account_id', 'su.nickname as seller_nickname', 'bu.account_id as buyer_account_id', 'bu.nickname as buyer_nickname',
            eb.selectFrom('goods').select((g) => g.fn.min<number>('goods.id').as('m')).whereRef('goods.drop_order_no', '=', 'orders.order_no').where('goods.chain_status', '=', 'minted').as('first_goods_id'),
          ])
          .orderBy('orders.completed_at', 'desc')
          .orderBy('orders.id', 'desc')
          .limit(upTo)
          .execute(),
    withRoyalties
      ? royalties()
          .innerJoin('goods', 'goods.id', 'deals.goods_id')
          .innerJoin('users as su', 'su.id', 'deals.seller_user_id')
          .innerJoin('users as bu', 'bu.id', 'deals.buyer_user_id')
          .select([
            'deals.id', 'deals.order_no', 'deals.goods_id', 'deals.price_fen', 'deals.royalty_fen', 'deals.tx_hash', 'deals.created_at', 'goods.name', 'goods.image',
            'su.account_id as seller_account_id', 'su.nickname as seller_nickname', 'bu.account_id as buyer_account_id', 'bu.nickname as buyer_nickname',
          ])
          .orderBy('deals.id', 'desc')
          .limit(upTo)
          .execute()
      : Promise.resolve([]),
    base().select(sql<number>`count(*)`.as('n')).executeTakeFirstOrThrow(),
    me === undefined ? Promise.resolve({ n: 0 }) : drops().select(sql<number>`count(*)`.as('n')).executeTakeFirstOrThrow(),
    withRoyalties ? royalties().select(sql<number>`count(*)`.as('n')).executeTakeFirstOrThrow() : Promise.resolve({ n: 0 }),
  ]);
  const explorer = ctx.market?.settlement?.explorerUrl ?? ctx.config.chain.explorerUrl;
  const link = (tx: string | null) => (tx ? `${explorer}/transaction/${tx}` : null);
  const dealRow = (kind: 'market' | 'royalty') => (r: (typeof marketRows)[number]) => ({
    id: Number(r.id),
    kind,
    orderNo: r.order_no,
    goodsId: Number(r.goods_id),
    goodsName: r.name,
    image: r.image,
    quantity: 1,
    priceFen: Number(r.price_fen),
    royaltyFen: Number(r.royalty_fen),
    seller: { accountId: r.seller_account_id, nickname: r.seller_nickname },
    buyer: { accountId: r.buyer_account_id, nickname: r.buyer_nickname },
    txHash: r.tx_hash,
    explorerUrl: link(r.tx_hash),
    at: Number(r.created_at),
  });
  const market = marketRows.map(dealRow('market'));
  const royalty = royaltyRows.map(dealRow('royalty'));
  const primary = dropRows.map((r) => ({
    id: Number(r.id),
    kind: 'drop' as const,
    orderNo: r.order_no,
    goodsId: Number(r.first_goods_id ?? 0),
    goodsName: r.name,
    image: r.cover,
    quantity: Number(r.quantity ?? 1),
    priceFen: Number(r.price_fen),
    royaltyFen: 0,
    seller: { accountId: r.seller_account_id, nickname: r.seller_nickname },
    buyer: { accountId: r.buyer_account_id, nickname: r.buyer_nickname },
    txHash: r.tx_hash,
    explorerUrl: link(r.tx_hash),
    at: Number(r.completed_at ?? 0),
  }));
  const list = me === undefined ? market : [...market, ...primary, ...royalty].sort((a, b) => b.at - a.at || b.id - a.id).slice((f.pageNum - 1) * f.pageSize, upTo);
  return {
    list,
    total: Number(marketTotal.n) + Number(dropTotal.n) + Number(royaltyTotal.n),
    pageNum: f.pageNum,
    pageSize: f.pageSize,
  };
}
