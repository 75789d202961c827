import { Status } from '@cfx/contract/envelope.ts';
import type { ShiftStatus } from '@cfx/contract/goods-flows.ts';
import { formatMessage, type Lang, type MessageKey } from '@cfx/contract/messages.ts';
import type { AppContext } from '../../context.ts';
import type { Q } from '../../db/tx.ts';
import { ApiError } from '../../http/envelope.ts';
import { chinaDayStart } from '../orders/index.ts';
import { beijingDate, notFound } from '../market/index.ts';
import { activeAt } from '../compose/index.ts';
import { transferView } from './transfer-view.ts';

const DAY_MS = 86_400_000;

export type TransferBlock = NonNullable<ShiftStatus['blockedBy']>;

/** What a move / gift of a collectible needs to know about it. */
export async function loadMovable(q: Q, goodsId: number, now: number) {
  const g = await q
    .selectFrom('goods')
    .innerJoin('projects', 'projects.id', 'goods.project_id')
    .leftJoin('goods_holds', (j) => j.onRef('goods_holds.goods_id', '=', 'goods.id').on(activeAt(now)))
    .select([
      'goods.id', 'goods.owner_user_id', 'goods.status', 'goods.chain_status', 'goods.token_id', 'goods.holder_address', 'goods.acquired_at', 'goods.name', 'goods.serial',
      'projects.holding_days', 'goods_holds.kind as hold_kind', 'goods_holds.ref as hold_ref',
    ])
    .where('goods.id', '=', goodsId)
    .executeTakeFirst();
  if (!g) throw notFound('goodsNotFound');
  return { ...g, id: Number(g.id), owner_user_id: Number(g.owner_user_id), transferableAt: Number(g.acquired_at) + Number(g.holding_days) * DAY_MS, holding_days: Number(g.holding_days) };
}
export type Movable = Awaited<ReturnType<typeof loadMovable>>;

/**
 * Why it cannot be moved or given now, or null. The same rules for a shift and a gift: minted, not
 * burned, not on sale (nor reserved by an order), at the owner's linked wallet, not held by a box
 * opening / compose / another transfer, and out of the release's holding period (holding_days
 * from acquired_at, as for listing).
 */
export function blockOf(g: Movable, wallet: string | null, now: number): { block: TransferBlock; key: MessageKey; vars?: Record<string, string> } | null {
  if (g.status === 'burned') return { block: 'burned', key: 'goodsBurned' };
  if (g.chain_status !== 'minted' || g.token_id === null) return { block: 'not_minted', key: 'goodsNotMinted' };
  if (g.status === 'on_sale') return { block: 'on_sale', key: 'goodsAlreadyOnSale' };
  if (g.holder_address) return { block: 'elsewhere', key: 'goodsNotAtWallet' };
  if (g.hold_kind) return { block: 'locked', key: g.hold_kind === 'transfer' ? 'shiftPending' : 'goodsLocked' };
  if (now < g.transferableAt) return { block: 'holding', key: 'shiftHolding', vars: { date: beijingDate(g.transferableAt) } };
  if (!wallet) return { block: 'no_wallet', key: 'tradeNeedWallet' };
  return null;
}

/** Throws the block as the API's answer (1013, or 1011 without a wallet). */
export function requireMovable(g: Movable, wallet: string | null, now: number) {
  const b = blockOf(g, wallet, now);
  if (b) throw new ApiError(b.block === 'no_wallet' ? Status.TRADE_NOT_ALLOWED : Status.GOODS_STATE, b.key, b.vars ?? {});
}

/** Gifts the user started today (China time) that count against GIFTS_PER_DAY: pending or done. */
export async function giftsToday(q: Q, userId: number, now: number): Promise<number> {
  const r = await q
    .selectFrom('goods_transfers')
    .select((e) => e.fn.countAll<number>().as('n'))
    .where('from_user_id', '=', userId)
    .where('kind', '=', 'gift')
    .where('status', 'in', ['pending', 'done'])
    .where('created_at', '>=', chinaDayStart(now))
    .executeTakeFirstOrThrow();
  return Number(r.n);
}

/** GET queryShiftStatus/?goodsId=: can it be moved or given now, and until when not. */
export async function queryShiftStatus(ctx: AppContext, userId: number, goodsId: number, lang: Lang): Promise<ShiftStatus> {
  const now = ctx.now();
  const g = await loadMovable(ctx.db.kysely, goodsId, now);
  if (g.owner_user_id !== userId) throw new ApiError(Status.FORBIDDEN, 'goodsNotYours');
  const u = await ctx.db.kysely.selectFrom('users').select('wallet_address').where('id', '=', userId).executeTakeFirstOrThrow();
  const b = blockOf(g, u.wallet_address, now);
  const pending = await ctx.db.kysely
    .selectFrom('goods_transfers')
    .selectAll()
    .where('goods_id', '=', goodsId)
    .where('from_user_id', '=', userId)
    .where('status', '=', 'pending')
    .where('expires_at', '>', now)
    .orderBy('id', 'desc')
    .executeTakeFirst();
  return {
    goodsId,
    tokenId: g.token_id === null ? null : String(g.token_id),
    canShift: b === null,
    blockedBy: b?.block ?? null,
    reason: b ? formatMessage(b.key, lang, b.vars ?? {}) : null,
    holdingDays: g.holding_days,
    transferableAt: g.transferableAt,
    walletAddress: u.wallet_address,
    holderAddress: g.holder_address,
    giftsToday: await giftsToday(ctx.db.kysely, userId, now),
    giftsPerDay: ctx.config.goodsFlows.giftsPerDay,
    pending: pending ? await transferView(ctx, pending, userId) : null,
    serverTime: now,
  };
}
