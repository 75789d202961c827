import { randomInt } from 'node:crypto';
import { sql } from 'kysely';
import { Status } from '@cfx/contract/envelope.ts';
import { formatFen } from '@cfx/protocol/money.ts';
import { sameAddress } from '@cfx/protocol/address.ts';
import type { AppContext } from '../../context.ts';
import { ApiError } from '../../http/envelope.ts';
import type { Q } from '../../db/tx.ts';
import type { GoodsHistoryAction } from '../../db/schema.ts';
import type { SettlementChain } from './settlement-chain.ts';
import { chinaParts, formatChinaDateTime } from '@cfx/protocol/china-time.ts';

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
  /** The release's own royalty per mille (null: the platform default, fees.ts royaltyPermilleOf). */
  royalty_permille: number | null;
  /** Set when the token is at another address of the owner (a shift, migration 0014). */
  holder_address: string | null;
  /** A box opening / compose / transfer holding it (modules/compose/holds.ts), with its expiry (null: until the flow ends). */
  hold_kind: string | null;
  hold_expires_at: number | null;
}

export async function loadGoods(q: Q, goodsId: number): Promise<GoodsForSale> {
  const g = await q
    .selectFrom('goods')
    .innerJoin('projects', 'projects.id', 'goods.project_id')
    .innerJoin('creators', 'creators.id', 'projects.creator_id')
    .leftJoin('goods_holds', 'goods_holds.goods_id', 'goods.id')
    .select([
      'goods.id', 'goods.project_id', 'goods.owner_user_id', 'goods.token_id', 'goods.contract', 'goods.chain_status', 'goods.status',
      'goods.name', 'goods.acquired_at', 'projects.holding_days', 'projects.royalty_permille', 'creators.user_id as creator_user_id',
      'goods.holder_address', 'goods_holds.kind as hold_kind', 'goods_holds.expires_at as hold_expires_at',
    ])
    .where('goods.id', '=', goodsId)
    .executeTakeFirst();
  if (!g) throw notFound('goodsNotFound');
  return {
    ...g,
    id: Number(g.id),
    project_id: Number(g.project_id),
    owner_user_id: Number(g.owner_user_id),
    acquired_at: Number(g.acquired_at),
    holding_days: Number(g.holding_days),
    creator_user_id: Number(g.creator_user_id),
    royalty_permille: g.royalty_permille === null ? null : Number(g.royalty_permille),
    hold_expires_at: g.hold_expires_at === null ? null : Number(g.hold_expires_at),
  };
}

/** The checks every sale path shares: mine, minted on our contract, out of its holding period. Returns the token id. */
export function checkSellable(ctx: AppContext, g: GoodsForSale, userId: number, chain: SettlementChain): string {
  if (g.owner_user_id !== userId) throw new ApiError(Status.FORBIDDEN, 'goodsNotYours');
  if (g.status === 'burned') throw new ApiError(Status.GOODS_STATE, 'goodsBurned');
  if (g.chain_status !== 'minted' || g.token_id === null) throw new ApiError(Status.GOODS_STATE, 'goodsNotMinted');
  // Listing needs the token at the linked wallet, and no box opening / compose / transfer holding it.
  if (g.holder_address) throw new ApiError(Status.GOODS_STATE, 'goodsNotAtWallet');
  if (g.hold_kind && (g.hold_expires_at === null || g.hold_expires_at > ctx.now())) throw new ApiError(Status.GOODS_STATE, 'goodsLocked');
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
  return formatChinaDateTime(ms, { seconds: false });
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
  const p = chinaParts(now);
  const stamp = `${p.year}${p.month}${p.day}${p.hour}${p.minute}${p.second}`;
  return `${prefix}${stamp}${String(randomInt(1_000_000)).padStart(6, '0')}${String(randomInt(1_000_000)).padStart(6, '0')}`;
}

/**
 * Inside the transaction that lists a collectible (openSale, agreeBargin), before it changes the
 * goods: locks the goods row and refuses when it was burned, moved off the linked wallet or taken
 * by a box opening / compose / transfer meanwhile. Those flows lock the goods row before inserting
 * their hold (modules/compose/holds.ts takeGoods), so a listing and a hold can never both win.
 */
export async function lockListable(q: Q, goodsId: number, now: number) {
  const res = await q.updateTable('goods').set({ status: sql`status` }).where('id', '=', goodsId).where('status', '!=', 'burned').where('holder_address', 'is', null).executeTakeFirst();
  if (Number(res.numUpdatedRows) !== 1) throw new ApiError(Status.GOODS_STATE, 'goodsLocked');
  const hold = await q
    .selectFrom('goods_holds')
    .select('goods_id')
    .where('goods_id', '=', goodsId)
    .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', now)]))
    .executeTakeFirst();
  if (hold) throw new ApiError(Status.GOODS_STATE, 'goodsLocked');
}

/**
 * A collectible recorded at another own address (goods.holder_address, a shift): when the chain
 * already shows its token back at the owner's linked wallet, the record follows (conditional on
 * the address read). Returns the holder address now recorded.
 */
export async function refreshHolder(ctx: AppContext, chain: SettlementChain, g: GoodsForSale, wallet: string): Promise<string | null> {
  if (!g.holder_address || g.token_id === null) return g.holder_address;
  let owner: string | null;
  try {
    owner = (await chain.tokenState(String(g.token_id))).owner;
  } catch {
    return g.holder_address;
  }
  if (!owner || !sameAddress(owner, wallet)) return g.holder_address;
  await ctx.db.kysely.updateTable('goods').set({ holder_address: null }).where('id', '=', g.id).where('holder_address', '=', g.holder_address).execute();
  return null;
}

/** Marks goods as listed / not listed (the catalog's columns). */
export async function setGoodsListed(q: Q, goodsId: number, priceFen: number | null, now: number) {
  await q
    .updateTable('goods')
    .set(priceFen === null ? { status: 'held', sale_price_fen: null, listed_at: null } : { status: 'on_sale', sale_price_fen: priceFen, listed_at: now })
    .where('id', '=', goodsId)
    .execute();
}

export type HistoryAction = { goodsId: number; action: Exclude<GoodsHistoryAction, 'mint'>; from: number | null; to: number | null; priceFen: number | null; txHash?: string | null; at: number };

export async function historyAction(q: Q, a: HistoryAction) {
  await historyActions(q, [a]);
}

/** Several history actions in one multi-row insert (the caller keeps the batch to a statement's size). */
export async function historyActions(q: Q, as: readonly HistoryAction[]) {
  if (!as.length) return;
  await q
    .insertInto('goods_history_actions')
    .values(as.map((a) => ({ goods_id: a.goodsId, action: a.action, from_user_id: a.from, to_user_id: a.to, price_fen: a.priceFen, tx_hash: a.txHash ?? null, at: a.at })))
    .execute();
}
