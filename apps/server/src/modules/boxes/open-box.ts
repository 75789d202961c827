import { Status } from '@cfx/contract/envelope.ts';
import type { Opening } from '@cfx/contract/goods-flows.ts';
import { formatMessage, type Lang } from '@cfx/contract/messages.ts';
import { sameAddress } from '@cfx/protocol/address.ts';
import { consumeTypedData } from '@cfx/protocol/consume.ts';
import { verifyConsume } from '@cfx/contracts/src/consume-signature.ts';
import type { AppContext } from '../../context.ts';
import { enqueueJob } from '../../jobs/runner.ts';
import { jobOf } from '../../jobs/define-job.ts';
import type { JobResult } from '../../jobs/runner.ts';
import { inTx, isUniqueViolation } from '../../db/tx.ts';
import { ApiError } from '../../http/envelope.ts';
import { invalidateGoodsLists } from '../catalog/index.ts';
import { requireTrader } from '../kyc/index.ts';
import { notFound } from '../market/index.ts';
import { consumeChainOf, consumeOf, type ConsumeChain } from '../compose/index.ts';
import { consumeJob, driveConsume } from '../compose/index.ts';
import { holdUntilDone, releaseHolds, takeGoods } from '../compose/index.ts';
import { kindOfSerial, kindView, loadBoxRelease } from './box-release.ts';

/**
 * Opening a blind box (docs/drops.md "Blind boxes"):
 *
 *   GET  openBox/?goodsId=      (a failed opening is answered as it is; `retry=1` starts a new attempt)
 *                               checks (mine, minted, held at the linked wallet, not on sale, the
 *                               release revealed), holds the box for FLOW_HOLD_SECONDS and answers
 *                               the Consume typed data: burnIds [box token], mintIds [the item
 *                               token of this serial], flowId `box:<goodsId>`
 *   POST openBox/confirm        the holder's signature (checked like the contract would) →
 *                               submitted + the durable job `consume` (same transaction)
 *   job                         consumeAndMint on the operator queue, key `box:<goodsId>`; confirmed →
 *                               ONE transaction: the box burned ('open'), the item created minted
 *                               for the holder ('mint'), the opening completed
 *
 * Exactly once: one opening row per box (unique), conditional moves signing → submitted →
 * completed | failed, the item's (release, serial) unique, the queue idempotent by key and the
 * contract single-use per (holder, flowId). A box on sale or held by another flow cannot be opened
 * (takeGoods), and a box being opened cannot be listed (the hold) — nor can an opened one (burned).
 */

type OpeningRow = NonNullable<Awaited<ReturnType<typeof loadOpening>>>;

async function loadOpening(ctx: AppContext, goodsId: number) {
  return ctx.db.kysely.selectFrom('box_openings').selectAll().where('goods_id', '=', goodsId).executeTakeFirst();
}

const refOf = (goodsId: number) => `box:${goodsId}`;

function requireConsumeChain(ctx: AppContext): ConsumeChain {
  const c = consumeChainOf(ctx);
  if (!c) throw new ApiError(Status.CHAIN_UNAVAILABLE, 'chainUnavailable');
  return c;
}

export async function openBox(ctx: AppContext, userId: number, goodsId: number, lang: Lang, opts: { retry?: boolean } = {}): Promise<Opening> {
  const { walletAddress } = await requireTrader(ctx, userId);
  requireConsumeChain(ctx);
  const now = ctx.now();
  const g = await ctx.db.kysely
    .selectFrom('goods')
    .select(['id', 'project_id', 'serial', 'owner_user_id', 'status', 'chain_status', 'token_id', 'holder_address'])
    .where('id', '=', goodsId)
    .executeTakeFirst();
  if (!g) throw notFound('goodsNotFound');
  const box = await loadBoxRelease(ctx.db.kysely, Number(g.project_id));
  if (!box) throw new ApiError(Status.BOX_STATE, 'boxNotBox');
  const existing = await loadOpening(ctx, goodsId);
  if (existing && Number(existing.user_id) === userId && (existing.status === 'completed' || existing.status === 'submitted' || (existing.status === 'failed' && !opts.retry))) {
    return openingView(ctx, existing, lang);
  }
  if (Number(g.owner_user_id) !== userId) throw new ApiError(Status.FORBIDDEN, 'goodsNotYours');
  if (existing && existing.status === 'signing' && Number(existing.user_id) === userId && Number(existing.expires_at) > now + 30_000 && sameAddress(existing.owner_address, walletAddress)) {
    return openingView(ctx, existing, lang);
  }
  if (g.status === 'burned') throw new ApiError(Status.BOX_STATE, 'boxOpened');
  if (box.status !== 'revealed') throw new ApiError(Status.BOX_STATE, 'boxNotRevealed');
  if (g.chain_status !== 'minted' || g.token_id === null) throw new ApiError(Status.GOODS_STATE, 'goodsNotMinted');
  if (g.status === 'on_sale') throw new ApiError(Status.GOODS_STATE, 'goodsAlreadyOnSale');
  if (g.holder_address) throw new ApiError(Status.GOODS_STATE, 'goodsNotAtWallet');

  const serial = Number(g.serial);
  const kind = kindOfSerial(box, serial);
  const items = await ctx.db.kysely.selectFrom('projects').select('token_start').where('id', '=', box.item_project_id).executeTakeFirstOrThrow();
  const mintTokenId = String(Number(items.token_start) + serial - 1);
  const expiresAt = now + ctx.config.goodsFlows.holdMs;
  const ref = refOf(goodsId);
  try {
    await inTx(ctx, async (trx) => {
      // A previous unsigned or failed attempt of this very opening lets go first.
      if (existing) await releaseHolds(trx, ref);
      await takeGoods(trx, { userId, goodsIds: [goodsId], kind: 'box', ref, expiresAt, now });
      const base = { user_id: userId, owner_address: walletAddress, burn_token_id: String(g.token_id), mint_token_id: mintTokenId, serial, kind_index: kind, status: 'signing' as const, signature: null, chain_tx_id: null, tx_hash: null, fail_reason: null, expires_at: expiresAt, updated_at: now };
      if (existing) {
        const res = await trx
          .updateTable('box_openings')
          .set({ ...base, attempt: Number(existing.attempt) + (existing.status === 'failed' ? 1 : 0) })
          .where('id', '=', Number(existing.id))
          .where('status', 'in', ['signing', 'failed'])
          .executeTakeFirst();
        if (Number(res.numUpdatedRows) !== 1) throw new ApiError(Status.BOX_STATE, 'boxOpening');
      } else {
        await trx.insertInto('box_openings').values({ ...base, goods_id: goodsId, project_id: Number(g.project_id), flow_id: ref, attempt: 0, item_goods_id: null, created_at: now }).execute();
      }
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw new ApiError(Status.GOODS_STATE, 'goodsLocked');
    throw err;
  }
  return openingView(ctx, (await loadOpening(ctx, goodsId))!, lang);
}

/** POST openBox/confirm {goodsId, signature}: the holder's consent; replaying it answers the same state. */
export async function confirmOpenBox(ctx: AppContext, userId: number, input: { goodsId: number; signature: string }, lang: Lang): Promise<Opening> {
  const chain = requireConsumeChain(ctx);
  const now = ctx.now();
  const o = await loadOpening(ctx, input.goodsId);
  if (!o || Number(o.user_id) !== userId) throw new ApiError(Status.BOX_STATE, 'boxSignExpired');
  if (o.status === 'submitted' || o.status === 'completed') return openingView(ctx, o, lang);
  if (o.status !== 'signing' || Number(o.expires_at) <= now) throw new ApiError(Status.BOX_STATE, 'boxSignExpired');
  const consume = consumeOf(o.owner_address, [o.burn_token_id], [o.mint_token_id], o.flow_id);
  if (!verifyConsume(input.signature, consume, chain.domain())) throw new ApiError(Status.BAD_SIGNATURE, 'boxBadSignature');
  const moved = await inTx(ctx, async (trx) => {
    const res = await trx
      .updateTable('box_openings')
      .set({ status: 'submitted', signature: input.signature, expires_at: null, updated_at: now })
      .where('id', '=', Number(o.id))
      .where('status', '=', 'signing')
      .where('expires_at', '>', now)
      .executeTakeFirst();
    if (Number(res.numUpdatedRows) !== 1) return false;
    const held = await trx.selectFrom('goods_holds').select('goods_id').where('ref', '=', o.flow_id).where('goods_id', '=', input.goodsId).executeTakeFirst();
    if (!held) throw new ApiError(Status.BOX_STATE, 'boxSignExpired');
    await holdUntilDone(trx, o.flow_id);
    await enqueueJob(trx, jobOf(consumeJob, { flow: 'box', goodsId: input.goodsId, attempt: o.attempt }));
    return true;
  });
  const after = (await loadOpening(ctx, input.goodsId))!;
  if (!moved && after.status !== 'submitted' && after.status !== 'completed') throw new ApiError(Status.BOX_STATE, 'boxSignExpired');
  ctx.jobs.wake();
  return openingView(ctx, after, lang);
}

/** The durable job of a submitted opening. */
export async function runBoxJob(ctx: AppContext, goodsId: number): Promise<JobResult> {
  const o = await loadOpening(ctx, goodsId);
  if (!o || o.status !== 'submitted' || !o.signature) return { done: true };
  const id = Number(o.id);
  const attempt = Number(o.attempt);
  return driveConsume(ctx, {
    key: o.flow_id,
    attempt,
    chainTxId: o.chain_tx_id === null ? null : Number(o.chain_tx_id),
    consume: consumeOf(o.owner_address, [o.burn_token_id], [o.mint_token_id], o.flow_id),
    signature: o.signature,
    onSubmitted: async (txId) => {
      await ctx.db.kysely.updateTable('box_openings').set({ chain_tx_id: txId }).where('id', '=', id).where('status', '=', 'submitted').where('attempt', '=', attempt).execute();
    },
    complete: (txHash) => completeOpening(ctx, id, txHash),
    fail: (reason) => failOpening(ctx, id, reason),
    retry: async (next) => {
      await ctx.db.kysely.updateTable('box_openings').set({ attempt: next, chain_tx_id: null, updated_at: ctx.now() }).where('id', '=', id).where('status', '=', 'submitted').where('attempt', '=', attempt).execute();
    },
  });
}

/** Confirmed on chain: the box is burned and the item is the holder's, in one transaction (exactly once). */
async function completeOpening(ctx: AppContext, openingId: number, txHash: string | null) {
  const now = ctx.now();
  const done = await inTx(ctx, async (trx) => {
    const res = await trx.updateTable('box_openings').set({ status: 'completed', tx_hash: txHash, updated_at: now }).where('id', '=', openingId).where('status', '=', 'submitted').executeTakeFirst();
    if (Number(res.numUpdatedRows) !== 1) return false;
    const o = await trx.selectFrom('box_openings').selectAll().where('id', '=', openingId).executeTakeFirstOrThrow();
    const goodsId = Number(o.goods_id);
    const userId = Number(o.user_id);
    const box = (await loadBoxRelease(trx, Number(o.project_id)))!;
    const kind = box.kindList[Number(o.kind_index)]!;
    const boxGoods = await trx.selectFrom('goods').select(['acquired_at', 'last_price_fen']).where('id', '=', goodsId).executeTakeFirstOrThrow();
    await trx.updateTable('goods').set({ status: 'burned', sale_price_fen: null, listed_at: null }).where('id', '=', goodsId).execute();
    await releaseHolds(trx, o.flow_id);
    const items = await trx.selectFrom('projects').select(['supply']).where('id', '=', box.item_project_id).executeTakeFirstOrThrow();
    const serial = Number(o.serial);
    const item = await trx
      .insertInto('goods')
      .values({
        project_id: box.item_project_id,
        serial,
        token_id: Number(o.mint_token_id),
        contract: consumeChainOf(ctx)?.collectible ?? null,
        chain_status: 'minted',
        mint_tx_hash: txHash,
        minted_at: now,
        owner_user_id: userId,
        name: `${kind.name} #${String(serial).padStart(Math.max(4, String(items.supply).length), '0')}`,
        image: kind.image,
        attributes: JSON.stringify([...kind.attributes, { trait: '盲盒编号', value: `#${serial}` }]),
        status: 'held',
        sale_price_fen: null,
        listed_at: null,
        last_price_fen: boxGoods.last_price_fen,
        // The item inherits the box's holding period: opening does not restart it.
        acquired_at: Number(boxGoods.acquired_at),
        created_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const itemId = Number(item.id);
    await trx.updateTable('box_openings').set({ item_goods_id: itemId }).where('id', '=', openingId).execute();
    await trx
      .insertInto('goods_history_actions')
      .values([
        { goods_id: goodsId, action: 'open', from_user_id: userId, to_user_id: null, price_fen: null, tx_hash: txHash, at: now },
        { goods_id: itemId, action: 'mint', from_user_id: null, to_user_id: userId, price_fen: null, tx_hash: txHash, at: now },
      ])
      .execute();
    return true;
  });
  if (done) invalidateGoodsLists(ctx);
}

/** The chain refused the consent for good: the box is released (the user may open it again). */
async function failOpening(ctx: AppContext, openingId: number, reason: string) {
  await inTx(ctx, async (trx) => {
    const res = await trx
      .updateTable('box_openings')
      .set({ status: 'failed', fail_reason: reason.slice(0, 200), updated_at: ctx.now() })
      .where('id', '=', openingId)
      .where('status', '=', 'submitted')
      .executeTakeFirst();
    if (Number(res.numUpdatedRows) !== 1) return;
    const o = await trx.selectFrom('box_openings').select('flow_id').where('id', '=', openingId).executeTakeFirstOrThrow();
    await releaseHolds(trx, o.flow_id);
  });
}

/** The opening as the API shows it (typed data while signing, the item once completed). */
export async function openingView(ctx: AppContext, o: OpeningRow, lang: Lang): Promise<Opening> {
  const chain = consumeChainOf(ctx);
  const box = (await loadBoxRelease(ctx.db.kysely, Number(o.project_id)))!;
  const consume = consumeOf(o.owner_address, [o.burn_token_id], [o.mint_token_id], o.flow_id);
  const signing = o.status === 'signing' && chain;
  let item: Opening['item'] = null;
  if (o.status === 'completed' && o.item_goods_id !== null) {
    const g = await ctx.db.kysely.selectFrom('goods').select(['id', 'name', 'image', 'token_id']).where('id', '=', Number(o.item_goods_id)).executeTakeFirst();
    const p = await ctx.db.kysely.selectFrom('projects').select('supply').where('id', '=', Number(o.project_id)).executeTakeFirstOrThrow();
    if (g) item = { goodsId: Number(g.id), tokenId: String(g.token_id), name: g.name, image: g.image, kind: kindView(box.kindList[Number(o.kind_index)]!, Number(o.kind_index)), supply: Number(p.supply) };
  }
  const typed = signing ? consumeTypedData(consume, chain.domain()) : null;
  return {
    goodsId: Number(o.goods_id),
    projectId: Number(o.project_id),
    serial: Number(o.serial),
    status: o.status,
    flowId: o.flow_id,
    owner: o.owner_address,
    collectible: chain?.collectible ?? '',
    collectibleHex: chain?.collectibleHex ?? '',
    typedData: typed ? { ...typed, primaryType: 'Consume' as const, types: Object.fromEntries(Object.entries(typed.types).map(([k, v]) => [k, v.map((f) => ({ ...f }))])) } : null,
    burnTokenId: o.burn_token_id,
    mintTokenId: o.mint_token_id,
    expiresAt: o.status === 'signing' ? Number(o.expires_at) : null,
    txHash: o.tx_hash,
    explorerUrl: o.tx_hash && chain ? `${chain.explorerUrl}/transaction/${o.tx_hash}` : null,
    failReason: o.status === 'failed' ? formatMessage('chainRefused', lang, { reason: o.fail_reason ?? '' }) : null,
    item,
    serverTime: ctx.now(),
  };
}

