import { Status } from '@cfx/contract/envelope.ts';
import type { TransferIntent } from '@cfx/contract/goods-flows.ts';
import { formatMessage, type Lang } from '@cfx/contract/messages.ts';
import { sameAddress, toBase32Address, toHexAddress } from '@cfx/protocol/address.ts';
import type { AppContext } from '../../context.ts';
import { inTx, isUniqueViolation, lockKey } from '../../db/tx.ts';
import { ApiError } from '../../http/envelope.ts';
import { requireTrader } from '../kyc/index.ts';
import { newId, requireSettlement } from '../market/index.ts';
import { releaseHolds, takeGoods } from '../compose/index.ts';
import { giftsToday, loadMovable, requireMovable } from './shift-status.ts';
import { transferView } from './transfer-view.ts';

/**
 * Moving a collectible (docs/drops.md "Shift and gifts"). The token is in the user's own wallet, so
 * the move is the holder's own wallet transaction `Collectible.transferFrom(from, to, tokenId)`
 * (sponsored, 0 CFX); the platform checks its rules first, holds the collectible meanwhile (no
 * listing, opening, compose), and records the move when the chain shows it (the indexer's Transfer,
 * or shift/notify reading the owner now — apply-transfer.ts).
 *
 * - shift {goodsId, toAddress}: to another address of the same user — a `cfx:` user address that is
 *   not the linked wallet and not linked to any other account (that would be a gift). The goods
 *   stays the user's, at `goods.holder_address`; listing needs it back at the linked wallet.
 * - gift {goodsId, mobile | accountId} (转赠): to another real-named adult's linked wallet; on the
 *   indexed Transfer the goods becomes theirs. At most GIFTS_PER_DAY a China-time day per sender.
 *
 * Same rules for both (shift-status.ts): minted, not burned, not on sale, at the linked wallet, no
 * other flow holding it, out of the holding period.
 */

interface Receiver {
  id: number;
  accountId: string;
  nickname: string;
  avatar: string;
  wallet: string | null;
  verified: boolean;
  adult: boolean;
}

async function findReceiver(ctx: AppContext, by: { mobile?: string | null; accountId?: string | null }): Promise<Receiver | null> {
  if (!by.mobile === !by.accountId) throw new ApiError(Status.INVALID, 'giftNeedReceiver');
  const r = await ctx.db.kysely
    .selectFrom('users')
    .leftJoin('realname', 'realname.user_id', 'users.id')
    .leftJoin('profpics', 'profpics.id', 'users.profpic_id')
    .select(['users.id', 'users.account_id', 'users.nickname', 'users.wallet_address', 'users.is_realname', 'users.cancelled_at', 'realname.adult', 'realname.user_id as rn', 'profpics.url as avatar'])
    .$if(Boolean(by.mobile), (q) => q.where('users.mobile', '=', by.mobile!))
    .$if(Boolean(by.accountId), (q) => q.where('users.account_id', '=', by.accountId!))
    .executeTakeFirst();
  if (!r || r.cancelled_at !== null) return null;
  return {
    id: Number(r.id),
    accountId: r.account_id,
    nickname: r.nickname,
    avatar: r.avatar ?? '',
    wallet: r.wallet_address,
    verified: Boolean(r.is_realname) && r.rn !== null,
    adult: Number(r.adult) === 1,
  };
}

/** Why this receiver cannot receive a gift from `senderId`, or null. */
function receiverBlock(r: Receiver, senderId: number) {
  if (r.id === senderId) return 'giftSelf' as const;
  if (!r.verified) return 'giftReceiverNotVerified' as const;
  if (!r.adult) return 'giftReceiverUnderage' as const;
  if (!r.wallet) return 'giftReceiverNoWallet' as const;
  return null;
}

const mask = (s: string) => (s ? `${[...s][0]}***` : '***');

/** gift/receiver {mobile | accountId}: who it is (masked) and whether they can receive. */
export async function giftReceiver(ctx: AppContext, userId: number, by: { mobile?: string | null; accountId?: string | null }, lang: Lang) {
  const r = await findReceiver(ctx, by);
  if (!r) throw new ApiError(Status.TRANSFER_REFUSED, 'giftNoReceiver');
  const block = receiverBlock(r, userId);
  return { accountId: r.accountId, nickname: mask(r.nickname), avatar: r.avatar, eligible: block === null, reason: block ? formatMessage(block, lang) : null };
}

/** A `cfx:` user address on this network (base32 or hex), or null. */
function parseUserAddress(input: string, networkId: number): string | null {
  const s = input.trim();
  try {
    if (/^0x1[0-9a-fA-F]{39}$/.test(s)) return toBase32Address(s, networkId);
    if (!/^cfx(test)?:/i.test(s)) return null;
    const hex = toHexAddress(s);
    if (!/^0x1/.test(hex)) return null; // user accounts only (not contracts, not the zero address)
    const b = toBase32Address(hex, networkId);
    return sameAddress(b, s) && b.split(':')[0] === s.split(':')[0]!.toLowerCase() ? b : null;
  } catch {
    return null;
  }
}

export async function startShift(ctx: AppContext, userId: number, input: { goodsId: number; toAddress: string }): Promise<TransferIntent> {
  const { walletAddress } = await requireTrader(ctx, userId);
  const chain = requireSettlement(ctx);
  const to = parseUserAddress(input.toAddress, chain.networkId);
  if (!to) throw new ApiError(Status.TRANSFER_REFUSED, 'shiftBadAddress');
  if (sameAddress(to, walletAddress)) throw new ApiError(Status.TRANSFER_REFUSED, 'shiftSameAddress');
  const other = await ctx.db.kysely.selectFrom('users').select('id').where('wallet_address', '=', to).executeTakeFirst();
  if (other) throw new ApiError(Status.TRANSFER_REFUSED, 'shiftForeignAddress');
  return start(ctx, userId, walletAddress, { kind: 'shift', goodsId: input.goodsId, toUserId: userId, toAddress: to });
}

export async function startGift(ctx: AppContext, userId: number, input: { goodsId: number; mobile?: string | null; accountId?: string | null }): Promise<TransferIntent> {
  const { walletAddress } = await requireTrader(ctx, userId);
  requireSettlement(ctx);
  const r = await findReceiver(ctx, input);
  if (!r) throw new ApiError(Status.TRANSFER_REFUSED, 'giftNoReceiver');
  const block = receiverBlock(r, userId);
  if (block) throw new ApiError(Status.TRANSFER_REFUSED, block);
  return start(ctx, userId, walletAddress, { kind: 'gift', goodsId: input.goodsId, toUserId: r.id, toAddress: r.wallet! });
}

async function start(ctx: AppContext, userId: number, from: string, t: { kind: 'shift' | 'gift'; goodsId: number; toUserId: number; toAddress: string }): Promise<TransferIntent> {
  requireSettlement(ctx);
  const now = ctx.now();
  let g = await loadMovable(ctx.db.kysely, t.goodsId, now);
  if (g.owner_user_id !== userId) throw new ApiError(Status.FORBIDDEN, 'goodsNotYours');
  // The same move asked again (the wallet was closed, the page reloaded): the same intent.
  const pending = await ctx.db.kysely
    .selectFrom('goods_transfers')
    .selectAll()
    .where('goods_id', '=', t.goodsId)
    .where('from_user_id', '=', userId)
    .where('status', '=', 'pending')
    .where('expires_at', '>', now)
    .orderBy('id', 'desc')
    .executeTakeFirst();
  if (pending && pending.kind === t.kind && sameAddress(pending.to_address, t.toAddress)) return intentOf(ctx, pending, userId);
  const transferNo = newId(t.kind === 'gift' ? 'GF' : 'SH', now);
  const expiresAt = now + ctx.config.goodsFlows.holdMs;
  try {
    await inTx(ctx, async (trx) => {
      // Another destination replaces my own waiting transfer of it.
      if (pending) {
        await trx.updateTable('goods_transfers').set({ status: 'expired' }).where('id', '=', Number(pending.id)).where('status', '=', 'pending').execute();
        await releaseHolds(trx, pending.transfer_no);
      }
      g = await loadMovable(trx, t.goodsId, now);
      requireMovable(g, from, now);
      if (t.kind === 'gift') {
        await lockKey(ctx, trx, `gifts:${userId}`);
        const n = await giftsToday(trx, userId, now);
        const cap = ctx.config.goodsFlows.giftsPerDay;
        if (n >= cap) throw new ApiError(Status.TRANSFER_REFUSED, 'giftDailyCap', { n: cap });
      }
      await takeGoods(trx, { userId, goodsIds: [t.goodsId], kind: 'transfer', ref: transferNo, expiresAt, now });
      await trx
        .insertInto('goods_transfers')
        .values({
          transfer_no: transferNo, kind: t.kind, goods_id: t.goodsId, token_id: String(g.token_id), from_user_id: userId, to_user_id: t.toUserId, from_address: from,
          to_address: t.toAddress, status: 'pending', tx_hash: null, created_at: now, expires_at: expiresAt, done_at: null,
        })
        .execute();
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw new ApiError(Status.GOODS_STATE, 'goodsLocked');
    throw err;
  }
  const row = await ctx.db.kysely.selectFrom('goods_transfers').selectAll().where('transfer_no', '=', transferNo).executeTakeFirstOrThrow();
  return intentOf(ctx, row, userId);
}

async function intentOf(ctx: AppContext, row: Parameters<typeof transferView>[1], userId: number): Promise<TransferIntent> {
  const chain = requireSettlement(ctx);
  return { ...(await transferView(ctx, row, userId)), collectible: chain.collectible, collectibleHex: chain.collectibleHex, fromHex: toHexAddress(row.from_address), toHex: toHexAddress(row.to_address) };
}
