import type { GoodsTransfer } from '@cfx/contract/goods-flows.ts';
import type { Selectable } from 'kysely';
import type { AppContext } from '../../context.ts';
import type { GoodsTransfersTable } from '../../db/schema.ts';

export type TransferRow = Selectable<GoodsTransfersTable>;

/** A transfer as the API shows it to `viewerId` (its sender or receiver). */
export async function transferView(ctx: AppContext, t: TransferRow, viewerId: number): Promise<GoodsTransfer> {
  return (await transferViews(ctx, [t], viewerId))[0]!;
}

export async function transferViews(ctx: AppContext, rows: TransferRow[], viewerId: number): Promise<GoodsTransfer[]> {
  if (!rows.length) return [];
  const userIds = [...new Set(rows.flatMap((t) => [Number(t.from_user_id), Number(t.to_user_id)]))];
  const users = new Map(
    (await ctx.db.kysely.selectFrom('users').select(['id', 'account_id', 'nickname']).where('id', 'in', userIds).execute()).map((u) => [Number(u.id), { accountId: u.account_id, nickname: u.nickname }]),
  );
  const goodsIds = [...new Set(rows.map((t) => Number(t.goods_id)))];
  const goods = new Map(
    (
      await ctx.db.kysely
        .selectFrom('goods')
        .innerJoin('projects', 'projects.id', 'goods.project_id')
        .select(['goods.id', 'goods.name', 'goods.image', 'goods.serial', 'projects.name as project_name'])
        .where('goods.id', 'in', goodsIds)
        .execute()
    ).map((g) => [Number(g.id), g]),
  );
  const explorer = ctx.market?.settlement?.explorerUrl ?? ctx.config.chain.explorerUrl;
  return rows.map((t) => {
    const g = goods.get(Number(t.goods_id));
    const none = { accountId: '', nickname: '' };
    return {
      transferNo: t.transfer_no,
      kind: t.kind,
      status: t.status,
      direction: Number(t.from_user_id) === viewerId ? ('out' as const) : ('in' as const),
      goods: { goodsId: Number(t.goods_id), name: g?.name ?? '', image: g?.image ?? '', serial: Number(g?.serial ?? 0), projectName: g?.project_name ?? '', tokenId: t.token_id },
      from: users.get(Number(t.from_user_id)) ?? none,
      to: users.get(Number(t.to_user_id)) ?? none,
      fromAddress: t.from_address,
      toAddress: t.to_address,
      txHash: t.tx_hash,
      explorerUrl: t.tx_hash ? `${explorer}/transaction/${t.tx_hash}` : null,
      createdAt: Number(t.created_at),
      expiresAt: Number(t.expires_at),
      doneAt: t.done_at === null ? null : Number(t.done_at),
    };
  });
}
