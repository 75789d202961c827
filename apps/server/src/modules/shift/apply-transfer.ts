import { Status } from '@cfx/contract/envelope.ts';
import type { GoodsTransfer } from '@cfx/contract/goods-flows.ts';
import { ZERO_HEX_ADDRESS, sameAddress, toBase32Address } from '@cfx/protocol/address.ts';
import { sql } from 'kysely';
import type { AppContext } from '../../context.ts';
import { keyList } from '../../db/key-list.ts';
import { groupBy } from '../../util/group-by.ts';
import { inTx } from '../../db/tx.ts';
import { ApiError } from '../../http/envelope.ts';
import { invalidateGoodsLists } from '../catalog/index.ts';
import { historyAction, requireSettlement } from '../market/index.ts';
import type { TokenEvent } from '../market/index.ts';
import { releaseHolds } from '../compose/index.ts';
import { transferView, transferViews, type TransferRow } from './transfer-view.ts';

/**
 * Recording moves that happened on chain. A pending shift / gift is applied once the chain shows
 * the token at its destination — seen by the indexer (watch-chain.ts calls onIndexedTransfers for
 * every Transfer) or by shift/notify reading the owner right after the wallet sent the transaction.
 * Applying is one conditional move (pending → done) in one transaction with the goods change and
 * the history action, so whichever path comes first applies it and the other changes nothing.
 *
 * A token a user moves by other means (another wallet app) is followed too: to another user's
 * linked wallet the market's watcher moves the collectible to them ('transfer'); to an address no
 * account has linked the collectible stays the user's with `holder_address` set ('shift'); back to
 * the linked wallet `holder_address` is cleared.
 */

async function applyTransfer(ctx: AppContext, t: TransferRow, txHash: string | null): Promise<boolean> {
  const now = ctx.now();
  const done = await inTx(ctx, async (trx) => {
    const res = await trx
      .updateTable('goods_transfers')
      .set({ status: 'done', done_at: now, tx_hash: txHash ?? t.tx_hash })
      .where('id', '=', Number(t.id))
      .where('status', 'in', ['pending', 'expired'])
      .executeTakeFirst();
    if (Number(res.numUpdatedRows) !== 1) return false;
    const from = Number(t.from_user_id);
    const goodsId = Number(t.goods_id);
    if (t.kind === 'gift') {
      const to = Number(t.to_user_id);
      const moved = await trx
        .updateTable('goods')
        .set({ owner_user_id: to, status: 'held', sale_price_fen: null, listed_at: null, acquired_at: now, holder_address: null })
        .where('id', '=', goodsId)
        .where('owner_user_id', '=', from)
        .executeTakeFirst();
      if (Number(moved.numUpdatedRows) === 1) await historyAction(trx, { goodsId, action: 'gift', from, to, priceFen: null, txHash, at: now });
      else {
        // The market's watcher moved it first (a plain 'transfer'): name it a gift.
        await trx.updateTable('goods_history_actions').set({ action: 'gift', tx_hash: txHash }).where('goods_id', '=', goodsId).where('action', '=', 'transfer').where('from_user_id', '=', from).where('to_user_id', '=', to).execute();
      }
    } else {
      const moved = await trx.updateTable('goods').set({ holder_address: t.to_address }).where('id', '=', goodsId).where('owner_user_id', '=', from).executeTakeFirst();
      if (Number(moved.numUpdatedRows) === 1) await historyAction(trx, { goodsId, action: 'shift', from, to: from, priceFen: null, txHash, at: now });
    }
    await releaseHolds(trx, t.transfer_no);
    return true;
  });
  if (done) invalidateGoodsLists(ctx);
  return done;
}

/** shift/notify {transferNo, txHash?}: the wallet sent the transfer; read the owner now and apply it when it is there. */
export async function notifyTransfer(ctx: AppContext, userId: number, input: { transferNo: string; txHash?: string | null }): Promise<GoodsTransfer> {
  const chain = requireSettlement(ctx);
  let t = await ctx.db.kysely.selectFrom('goods_transfers').selectAll().where('transfer_no', '=', input.transferNo).executeTakeFirst();
  if (!t || (Number(t.from_user_id) !== userId && Number(t.to_user_id) !== userId)) throw new ApiError(Status.NOT_FOUND_ITEM, 'transferNotFound', {}, 404);
  const txHash = input.txHash && /^0x[0-9a-fA-F]{64}$/.test(input.txHash) ? input.txHash.toLowerCase() : null;
  if (t.status !== 'done') {
    let owner: string | null;
    try {
      owner = (await chain.tokenState(t.token_id)).owner;
    } catch {
      throw new ApiError(Status.CHAIN_UNAVAILABLE, 'chainUnavailable');
    }
    if (owner && sameAddress(owner, t.to_address)) await applyTransfer(ctx, t, txHash);
    else if (txHash && t.status === 'pending') await ctx.db.kysely.updateTable('goods_transfers').set({ tx_hash: txHash }).where('id', '=', Number(t.id)).where('status', '=', 'pending').execute();
    t = (await ctx.db.kysely.selectFrom('goods_transfers').selectAll().where('id', '=', Number(t.id)).executeTakeFirstOrThrow());
  }
  return transferView(ctx, t, userId);
}

/**
 * Every indexed Transfer (not a mint or burn): pending shifts and gifts to that destination are
 * applied; otherwise a collectible moved between its owner's linked wallet and an address no account
 * has linked gets `holder_address` set or cleared. Runs before the market's watcher, which moves a
 * collectible that arrives at another user's linked wallet.
 */
export async function onIndexedTransfers(ctx: AppContext, events: TokenEvent[]) {
  const chain = ctx.market?.settlement;
  if (!chain) return;
  const moves = events.filter((e) => e.event === 'Transfer' && e.to && e.from && !sameAddress(e.to, ZERO_HEX_ADDRESS) && !sameAddress(e.from, ZERO_HEX_ADDRESS));
  if (!moves.length) return;
  // The batch's pending transfers and collectibles in one read each (a settlement backlog indexes
  // thousands of Transfers); a token moved again later in the same batch is read afresh.
  const tokens = [...new Set(moves.map((e) => e.tokenId))];
  const waiting: TransferRow[] = [];
  const goodsOf = new Map<string, HolderRow>();
  for (let i = 0; i < tokens.length; i += READ_CHUNK) {
    const part = tokens.slice(i, i + READ_CHUNK);
    waiting.push(...(await pendingTransfers(ctx).where('token_id', 'in', keyList(ctx, part)).execute()));
    for (const g of await holderRows(ctx).where('goods.token_id', 'in', keyList(ctx, part.map(Number))).execute()) goodsOf.set(String(g.token_id), g);
  }
  const pendingOf = groupBy(waiting, (r) => r.token_id);
  const seen = new Set<string>();
  for (const e of moves) {
    const again = seen.has(e.tokenId);
    seen.add(e.tokenId);
    const to = toBase32Address(e.to!, chain.networkId);
    const pending = again
      ? await pendingTransfers(ctx).where('token_id', '=', e.tokenId).where('to_address', '=', to).executeTakeFirst()
      : pendingOf.get(e.tokenId)?.find((r) => r.to_address === to);
    // An expired one still counts when nothing else moved the collectible since (the wallet was late).
    if (pending && (pending.status === 'pending' || (await stillFrom(ctx, pending)))) {
      if (await ownerIs(ctx, e.tokenId, to)) await applyTransfer(ctx, pending, null);
      continue;
    }
    await followHolder(ctx, e.tokenId, to, again ? undefined : (goodsOf.get(e.tokenId) ?? null));
  }
}

/** Tokens per read of onIndexedTransfers. */
const READ_CHUNK = 500;

/** Shifts and gifts still waiting for the chain (an expired one may still be applied), newest first. */
const pendingTransfers = (ctx: AppContext) =>
  ctx.db.kysely.selectFrom('goods_transfers').selectAll().where('status', 'in', ['pending', 'expired']).orderBy('id', 'desc');

/** A minted collectible with its owner's linked wallet (followHolder). */
const holderRows = (ctx: AppContext) =>
  ctx.db.kysely
    .selectFrom('goods')
    .innerJoin('users', 'users.id', 'goods.owner_user_id')
    .select(['goods.id', 'goods.token_id', 'goods.owner_user_id', 'goods.holder_address', 'users.wallet_address'])
    .where('goods.chain_status', '=', 'minted')
    .where('goods.status', '!=', 'burned');
type HolderRow = Awaited<ReturnType<ReturnType<typeof holderRows>['executeTakeFirstOrThrow']>>;

async function stillFrom(ctx: AppContext, t: TransferRow) {
  const g = await ctx.db.kysely.selectFrom('goods').select(['owner_user_id', 'holder_address']).where('id', '=', Number(t.goods_id)).executeTakeFirst();
  return Boolean(g && Number(g.owner_user_id) === Number(t.from_user_id) && g.holder_address === null);
}

async function ownerIs(ctx: AppContext, tokenId: string, address: string) {
  try {
    const owner = (await ctx.market!.settlement!.tokenState(tokenId)).owner;
    return Boolean(owner && sameAddress(owner, address));
  } catch {
    return false;
  }
}

/** A move outside the platform's flows between the owner's linked wallet and an unlinked address (`pre`: the collectible as read with its batch). */
async function followHolder(ctx: AppContext, tokenId: string, to: string, pre?: HolderRow | null) {
  const g = pre !== undefined ? pre : await holderRows(ctx).where('goods.token_id', '=', Number(tokenId)).executeTakeFirst();
  if (!g) return;
  const backHome = Boolean(g.wallet_address && sameAddress(g.wallet_address, to));
  if (backHome && g.holder_address === null) return;
  if (!backHome) {
    // To another user's linked wallet: the market's watcher moves the collectible.
    const linked = await ctx.db.kysely.selectFrom('users').select('id').where('wallet_address', '=', to).executeTakeFirst();
    if (linked || (g.holder_address && sameAddress(g.holder_address, to))) return;
    // A sale in flight moves the goods itself.
    const busy = await ctx.db.kysely.selectFrom('orders').select('id').where('goods_id', '=', Number(g.id)).where('status', 'in', ['paid', 'settling']).executeTakeFirst();
    if (busy) return;
  }
  if (!(await ownerIs(ctx, tokenId, to))) return;
  const now = ctx.now();
  const owner = Number(g.owner_user_id);
  const changedRow = await inTx(ctx, async (trx) => {
    const res = await trx
      .updateTable('goods')
      .set(backHome ? { holder_address: null } : { holder_address: to, status: 'held', sale_price_fen: null, listed_at: null })
      .where('id', '=', Number(g.id))
      .where('owner_user_id', '=', owner)
      .where(sql<boolean>`coalesce(holder_address, '') = ${g.holder_address ?? ''}`)
      .executeTakeFirst();
    if (Number(res.numUpdatedRows) !== 1) return false;
    await historyAction(trx, { goodsId: Number(g.id), action: 'shift', from: owner, to: owner, priceFen: null, at: now });
    return true;
  });
  if (changedRow) invalidateGoodsLists(ctx);
}

/** shift/record {kind?, pageNum, pageSize}: my moves and gifts, sent and received, newest first. */
export async function listTransfers(ctx: AppContext, userId: number, f: { kind?: 'shift' | 'gift' | 'all' | null; pageNum: number; pageSize: number }) {
  const base = () => {
    let q = ctx.db.kysely.selectFrom('goods_transfers').where((eb) => eb.or([eb('from_user_id', '=', userId), eb.and([eb('to_user_id', '=', userId), eb('status', '=', 'done')])]));
    if (f.kind === 'shift' || f.kind === 'gift') q = q.where('kind', '=', f.kind);
    return q;
  };
  const rows = await base().selectAll().orderBy('id', 'desc').limit(f.pageSize).offset((f.pageNum - 1) * f.pageSize).execute();
  const total = Number((await base().select(sql<number>`count(*)`.as('n')).executeTakeFirstOrThrow()).n);
  return { list: await transferViews(ctx, rows, userId), total, pageNum: f.pageNum, pageSize: f.pageSize };
}

/** The sweep: transfers the wallet never sent in time let go of their collectible. */
export async function expireTransfers(ctx: AppContext): Promise<number> {
  const now = ctx.now();
  const due = await ctx.db.kysely.selectFrom('goods_transfers').select(['id', 'transfer_no']).where('status', '=', 'pending').where('expires_at', '<=', now).limit(500).execute();
  let n = 0;
  for (const t of due) {
    const moved = await inTx(ctx, async (trx) => {
      const res = await trx.updateTable('goods_transfers').set({ status: 'expired' }).where('id', '=', Number(t.id)).where('status', '=', 'pending').executeTakeFirst();
      if (Number(res.numUpdatedRows) !== 1) return false;
      await releaseHolds(trx, t.transfer_no);
      return true;
    });
    if (moved) n++;
  }
  return n;
}
