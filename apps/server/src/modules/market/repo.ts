import { randomInt } from 'node:crypto';
import { Status } from '@cfx/contract/envelope.ts';
import { formatFen } from '@cfx/protocol/money.ts';
import type { AppContext } from '../../context.ts';
import { ApiError } from '../../http/envelope.ts';
import type { Q } from '../../db/tx.ts';
import type { SettlementChain } from './settlement-chain.ts';

/** Shared reads and checks of the market. */

const DAY_MS = 86_400_000;
export const LIVE = ['on_sale', 'reserved'] as const;

export const notFound = (key: 'goodsNotFound' | 'orderNotFound' | 'bidNotFound' | 'listingNotFound') => new ApiError(Status.NOT_FOUND_ITEM, key, {}, 404);

export function requireSettlement(ctx: AppContext): SettlementChain {
  const s = ctx.market?.settlement;
  if (!s) throw new ApiError(Status.CHAIN_UNAVAILABLE, 'chainUnavailable');
  return s;
}

export interface GoodsForSale {
  id: number;
  project_id: number;
  owner_user_id: number;
  token_id: number | null;
  contract: string | null;
  chain_status: string;
  status: string;
  name: string;
  acquired_at: number;
  holding_days: number;
  creator_user_id: number;
}

export async function loadGoods(q: Q, goodsId: number): Promise<GoodsForSale> {
  const g = await q
    .selectFrom('goods')
    .innerJoin('projects', 'projects.id', 'goods.project_id')
    .innerJoin('creators', 'creators.id', 'projects.creator_id')
    .select([
      'goods.id', 'goods.project_id', 'goods.owner_user_id', 'goods.token_id', 'goods.contract', 'goods.chain_status', 'goods.status',
      'goods.name', 'goods.acquired_at', 'projects.holding_days', 'creators.user_id as creator_user_id',
    ])
    .where('goods.id', '=', goodsId)
    .executeTakeFirst();
  if (!g) throw notFound('goodsNotFound');
  return { ...g, id: Number(g.id), project_id: Number(g.project_id), owner_user_id: Number(g.owner_user_id), acquired_at: Number(g.acquired_at), holding_days: Number(g.holding_days), creator_user_id: Number(g.creator_user_id) };
}

/** The checks every sale path shares: mine, minted on our contract, out of its holding period. Returns the token id. */
export function checkSellable(ctx: AppContext, g: GoodsForSale, userId: number, chain: SettlementChain): string {
  if (g.owner_user_id !== userId) throw new ApiError(Status.FORBIDDEN, 'goodsNotYours');
  if (g.chain_status !== 'minted' || g.token_id === null) throw new ApiError(Status.GOODS_STATE, 'goodsNotMinted');
  if (g.contract && g.contract.toLowerCase() !== chain.collectible.toLowerCase() && g.contract.toLowerCase() !== chain.collectibleHex.toLowerCase()) {
    throw new ApiError(Status.GOODS_STATE, 'goodsNotMinted');
  }
  const transferableAt = g.acquired_at + g.holding_days * DAY_MS;
  if (ctx.now() < transferableAt) throw new ApiError(Status.GOODS_STATE, 'goodsHolding', { date: beijingDate(transferableAt) });
  return String(g.token_id);
}

export function checkPrice(ctx: AppContext, priceFen: number) {
  const { minPriceFen, maxPriceFen } = ctx.config.market;
  if (!Number.isSafeInteger(priceFen) || priceFen < minPriceFen || priceFen > maxPriceFen) {
    throw new ApiError(Status.INVALID, 'priceOutOfRange', { min: formatFen(minPriceFen), max: formatFen(maxPriceFen) });
  }
}

/** yyyy-MM-dd HH:mm (Beijing). */
export function beijingDate(ms: number): string {
  const d = new Date(ms + 8 * 3600_000);
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getUTCFullYear()}-${p(d.getUTCMonth() + 1)}-${p(d.getUTCDate())} ${p(d.getUTCHours())}:${p(d.getUTCMinutes())}`;
}

export async function liveListing(q: Q, goodsId: number) {
  return q.selectFrom('listings').selectAll().where('goods_id', '=', goodsId).where('status', 'in', [...LIVE]).executeTakeFirst();
}

export type ListingRow = NonNullable<Awaited<ReturnType<typeof liveListing>>>;

export function toListing(l: ListingRow) {
  const status = l.status === 'on_sale' || l.status === 'reserved' || l.status === 'sold' || l.status === 'invalid' ? l.status : 'closed';
  return {
    listingId: Number(l.id),
    goodsId: Number(l.goods_id),
    priceFen: Number(l.price_fen),
    sellerOrderId: l.seller_order_id,
    status: status as 'on_sale' | 'reserved' | 'sold' | 'closed' | 'invalid',
    listedAt: l.listed_at === null ? null : Number(l.listed_at),
    closedAt: l.closed_at === null ? null : Number(l.closed_at),
    closeReason: l.close_reason,
  };
}

/** A fresh id for an order: prefix + Beijing yyyyMMddHHmmss + 12 random digits (a collision is also caught by the unique index). */
export function newId(prefix: string, now: number): string {
  const d = new Date(now + 8 * 3600_000);
  const p = (n: number, w = 2) => String(n).padStart(w, '0');
  const stamp = `${d.getUTCFullYear()}${p(d.getUTCMonth() + 1)}${p(d.getUTCDate())}${p(d.getUTCHours())}${p(d.getUTCMinutes())}${p(d.getUTCSeconds())}`;
  return `${prefix}${stamp}${String(randomInt(1_000_000)).padStart(6, '0')}${String(randomInt(1_000_000)).padStart(6, '0')}`;
}

/** Marks goods as listed / not listed (the catalog's columns). */
export async function setGoodsListed(q: Q, goodsId: number, priceFen: number | null, now: number) {
  await q
    .updateTable('goods')
    .set(priceFen === null ? { status: 'held', sale_price_fen: null, listed_at: null } : { status: 'on_sale', sale_price_fen: priceFen, listed_at: now })
    .where('id', '=', goodsId)
    .execute();
}

export async function historyAction(q: Q, a: { goodsId: number; action: 'list' | 'delist' | 'sale' | 'transfer'; from: number | null; to: number | null; priceFen: number | null; txHash?: string | null; at: number }) {
  await q
    .insertInto('goods_history_actions')
    .values({ goods_id: a.goodsId, action: a.action, from_user_id: a.from, to_user_id: a.to, price_fen: a.priceFen, tx_hash: a.txHash ?? null, at: a.at })
    .execute();
}
