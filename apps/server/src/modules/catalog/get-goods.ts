import type { CompiledQuery } from 'kysely';
import type { GoodsDetail } from '@cfx/contract/catalog.ts';
import type { AppContext } from '../../context.ts';
import { creatorBriefOf, jsonArray, notFound, projectStatusOf, toGoodsCard, type GoodsCardRow } from './repo.ts';

const DAY_MS = 86_400_000;

interface DetailRow extends GoodsCardRow {
  token_id: number | null;
  contract: string | null;
  attributes: string;
  listed_at: number | null;
  minted_at: number | null;
  acquired_at: number;
  created_at: number;
  project_cover: string;
  project_price_fen: number;
  holding_days: number;
  sale_start_at: number;
  sale_end_at: number | null;
  sold: number;
  creator_id: number;
  creator_avatar: string;
  creator_account_id: string;
  owner_account_id: string;
  owner_nickname: string;
  owner_avatar: string;
}

/** The collectible page's one query (goods ⋈ release ⋈ creator ⋈ owner), compiled once per database. */
const compiled = new WeakMap<object, CompiledQuery<DetailRow>>();
function detailQuery(ctx: AppContext): CompiledQuery<DetailRow> {
  let q = compiled.get(ctx.db);
  if (!q) {
    q = ctx.db.kysely
      .selectFrom('goods')
      .innerJoin('projects', 'projects.id', 'goods.project_id')
      .innerJoin('creators', 'creators.id', 'projects.creator_id')
      .innerJoin('users as cu', 'cu.id', 'creators.user_id')
      .innerJoin('users as ou', 'ou.id', 'goods.owner_user_id')
      .leftJoin('profpics', 'profpics.id', 'ou.profpic_id')
      .select([
        'goods.id', 'goods.name', 'goods.image', 'goods.serial', 'projects.supply', 'goods.project_id', 'projects.name as project_name',
        'creators.name as creator_name', 'goods.status', 'goods.sale_price_fen', 'goods.last_price_fen', 'goods.chain_status',
        'goods.token_id', 'goods.contract', 'goods.attributes', 'goods.listed_at', 'goods.minted_at', 'goods.acquired_at', 'goods.created_at',
        'projects.cover as project_cover', 'projects.price_fen as project_price_fen', 'projects.holding_days', 'projects.sale_start_at',
        'projects.sale_end_at', 'projects.sold', 'creators.id as creator_id', 'creators.avatar as creator_avatar',
        'cu.account_id as creator_account_id', 'ou.account_id as owner_account_id', 'ou.nickname as owner_nickname', 'profpics.url as owner_avatar',
      ])
      .where('goods.id', '=', 0)
      .compile() as CompiledQuery<DetailRow>;
    compiled.set(ctx.db, q);
  }
  return q;
}

export async function getGoods(ctx: AppContext, id: number): Promise<GoodsDetail> {
  const [r] = await ctx.db.run(detailQuery(ctx), [id]);
  if (!r) throw notFound('goodsNotFound');
  const now = ctx.now();
  const holdingDays = Number(r.holding_days);
  const acquiredAt = Number(r.acquired_at);
  return {
    ...toGoodsCard(r),
    tokenId: r.token_id === null ? null : String(r.token_id),
    contract: r.contract,
    attributes: jsonArray<{ trait: unknown; value: unknown }>(r.attributes).map((a) => ({ trait: String(a?.trait ?? ''), value: String(a?.value ?? '') })),
    owner: { accountId: r.owner_account_id, nickname: r.owner_nickname, avatar: r.owner_avatar ?? '' },
    creator: creatorBriefOf(r),
    project: {
      id: Number(r.project_id),
      name: r.project_name,
      cover: r.project_cover,
      priceFen: Number(r.project_price_fen),
      status: projectStatusOf(r, now),
    },
    holdingDays,
    transferableAt: acquiredAt + holdingDays * DAY_MS,
    acquiredAt,
    listedAt: r.status === 'on_sale' && r.listed_at !== null ? Number(r.listed_at) : null,
    mintedAt: r.minted_at === null ? null : Number(r.minted_at),
    createdAt: Number(r.created_at),
    serverTime: now,
  };
}
