import { Status } from '@cfx/contract/envelope.ts';
import type { ComposeConsent, ComposeRecord } from '@cfx/contract/goods-flows.ts';
import { formatMessage, type Lang } from '@cfx/contract/messages.ts';
import { consumeTypedData } from '@cfx/protocol/consume.ts';
import { verifyConsume } from '@cfx/contracts/src/consume-signature.ts';
import { sql, type Selectable } from 'kysely';
import type { AppContext } from '../../context.ts';
import type { ComposeRecordsTable } from '../../db/schema.ts';
import { inTx, isUniqueViolation, type Q } from '../../db/tx.ts';
import { ApiError } from '../../http/envelope.ts';
import { enqueueJob, type JobResult } from '../../jobs/runner.ts';
import { jobOf } from '../../jobs/define-job.ts';
import { invalidateGoodsLists } from '../catalog/index.ts';
import { projectInfos } from '../catalog/index.ts';
import { requireTrader } from '../kyc/index.ts';
import { newId } from '../market/index.ts';
import { consumeChainOf, consumeOf, type ConsumeChain } from './consume-chain.ts';
import { consumeJob, driveConsume } from './consume-flow.ts';
import { extendHolds, holdUntilDone, releaseHolds, takeGoods } from './holds.ts';
import { loadRule, requireActive, requireRule, type Rule } from './rules.ts';

/**
 * A compose (docs/drops.md "Compose"): burn a recipe's fragments and mint its result in ONE
 * `consumeAndMint` transaction, exactly once.
 *
 *   selectfragment {ruleId, goodsIds}   the selection fits the recipe exactly and every fragment is
 *                                       usable → the fragments are held (cannot be listed, opened,
 *                                       given, used by another compose) for FLOW_HOLD_SECONDS;
 *                                       record `selected`. A new selection replaces my earlier
 *                                       unsigned one of the same rule.
 *   confirmcompose {composeNo}          a result is reserved atomically (`used_times + 1 WHERE
 *                                       used_times < max_times`, the smallest free serial, a partial
 *                                       unique index per live serial) → `confirmed`, the Consume
 *                                       typed data (burnIds = the fragments' tokens, mintIds = [the
 *                                       result token], flowId `compose:<composeNo>`)
 *   submitcompose {composeNo, sig}      the holder's signature checked like the contract → `submitted`
 *                                       + the durable job `consume` (same transaction)
 *   job                                 consumeAndMint on the operator queue (key `compose:<no>`);
 *                                       confirmed → ONE transaction: fragments burned ('burn'),
 *                                       result created ('compose'), record `completed`; refused for
 *                                       good (a fragment moved: NotTokenOwner) → `failed`, the
 *                                       fragments and the result released
 *   sweep (2 s)                         selected / confirmed past their time → `expired`, released
 */

type RecordRow = Selectable<ComposeRecordsTable>;

const flowIdOf = (composeNo: string) => `compose:${composeNo}`;
const LIVE_SERIAL = ['confirmed', 'submitted', 'completed'] as const;

function requireConsumeChain(ctx: AppContext): ConsumeChain {
  const c = consumeChainOf(ctx);
  if (!c) throw new ApiError(Status.CHAIN_UNAVAILABLE, 'chainUnavailable');
  return c;
}

async function loadRecord(q: Q, composeNo: string) {
  return q.selectFrom('compose_records').selectAll().where('compose_no', '=', composeNo).executeTakeFirst();
}

async function requireMine(ctx: AppContext, userId: number, composeNo: string): Promise<RecordRow> {
  const r = await loadRecord(ctx.db.kysely, composeNo);
  if (!r || Number(r.user_id) !== userId) throw new ApiError(Status.NOT_FOUND_ITEM, 'composeNotFound', {}, 404);
  return r;
}

/** Releases a selected / confirmed record (cancelled or expired) inside `trx`; false if it was no longer open. */
async function closeOpen(trx: Q, r: RecordRow, to: 'cancelled' | 'expired', now: number, expiredOnly: boolean): Promise<boolean> {
  let q = trx.updateTable('compose_records').set({ status: to, updated_at: now }).where('id', '=', Number(r.id)).where('status', '=', r.status);
  if (expiredOnly) q = q.where('expires_at', '<=', now);
  const res = await q.executeTakeFirst();
  if (Number(res.numUpdatedRows) !== 1) return false;
  await releaseHolds(trx, r.compose_no);
  if (r.status === 'confirmed') await trx.updateTable('compose_rules').set({ used_times: sql`used_times - 1` }).where('id', '=', Number(r.rule_id)).where('used_times', '>', 0).execute();
  return true;
}

/** What the recipe needs, for the message of a selection that does not fit ("3×星辰碎片, 1×月影碎片"). */
async function recipeText(ctx: AppContext, rule: Rule): Promise<string> {
  const infos = await projectInfos(ctx, rule.ingredients.map((i) => i.projectId));
  return rule.ingredients.map((i) => `${i.count}×${infos.get(i.projectId)?.name ?? i.projectId}`).join(', ');
}

export async function selectFragments(ctx: AppContext, userId: number, input: { ruleId: number; goodsIds: number[] }, lang: Lang): Promise<ComposeRecord> {
  await requireTrader(ctx, userId);
  const now = ctx.now();
  const rule = await requireRule(ctx.db.kysely, input.ruleId);
  requireActive(rule, now);
  const ids = [...new Set(input.goodsIds)].sort((a, b) => a - b);
  const goods = await ctx.db.kysely.selectFrom('goods').select(['id', 'project_id', 'owner_user_id', 'token_id']).where('id', 'in', ids).execute();
  if (goods.length !== ids.length) throw new ApiError(Status.NOT_FOUND_ITEM, 'goodsNotFound', {}, 404);
  if (goods.some((g) => Number(g.owner_user_id) !== userId)) throw new ApiError(Status.FORBIDDEN, 'goodsNotYours');
  const per = new Map<number, number>();
  for (const g of goods) per.set(Number(g.project_id), (per.get(Number(g.project_id)) ?? 0) + 1);
  const fits = ids.length === input.goodsIds.length && per.size === rule.ingredients.length && rule.ingredients.every((i) => per.get(i.projectId) === i.count);
  if (!fits) throw new ApiError(Status.COMPOSE_STATE, 'composeBadSelection', { need: await recipeText(ctx, rule) });
  const composeNo = newId('CP', now);
  const expiresAt = now + ctx.config.goodsFlows.holdMs;
  const tokenOf = new Map(goods.map((g) => [Number(g.id), g.token_id === null ? '' : String(g.token_id)]));
  try {
    await inTx(ctx, async (trx) => {
      // My earlier unsigned compose of this rule lets go of its fragments (and of its result).
      const mine = await trx.selectFrom('compose_records').selectAll().where('user_id', '=', userId).where('rule_id', '=', rule.id).where('status', 'in', ['selected', 'confirmed']).execute();
      for (const r of mine) await closeOpen(trx, r, 'cancelled', now, false);
      await takeGoods(trx, { userId, goodsIds: ids, kind: 'compose', ref: composeNo, expiresAt, now }, 'composeFragmentUnavailable');
      await trx
        .insertInto('compose_records')
        .values({
          compose_no: composeNo, rule_id: rule.id, user_id: userId, owner_address: null, goods_ids: JSON.stringify(ids), burn_token_ids: JSON.stringify(ids.map((id) => tokenOf.get(id)!)),
          result_serial: null, result_token_id: null, status: 'selected', attempt: 0, signature: null, chain_tx_id: null, tx_hash: null, result_goods_id: null, fail_reason: null,
          expires_at: expiresAt, created_at: now, updated_at: now,
        })
        .execute();
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw new ApiError(Status.GOODS_STATE, 'composeFragmentUnavailable');
    throw err;
  }
  return recordView(ctx, (await loadRecord(ctx.db.kysely, composeNo))!, lang);
}

/** confirmcompose: {composeNo}, or {ruleId, goodsIds} (my matching selection, made now when there is none). */
export async function confirmCompose(ctx: AppContext, userId: number, input: { composeNo?: string | null; ruleId?: number; goodsIds?: number[] | null }, lang: Lang): Promise<ComposeConsent> {
  const { walletAddress } = await requireTrader(ctx, userId);
  const chain = requireConsumeChain(ctx);
  let composeNo = input.composeNo ?? undefined;
  if (!composeNo) {
    if (input.ruleId === undefined || !input.goodsIds?.length) throw new ApiError(Status.INVALID, 'badParams', {}, 400);
    const want = JSON.stringify([...new Set(input.goodsIds)].sort((a, b) => a - b));
    const open = await ctx.db.kysely
      .selectFrom('compose_records')
      .select(['compose_no', 'goods_ids'])
      .where('user_id', '=', userId)
      .where('rule_id', '=', input.ruleId)
      .where('status', 'in', ['selected', 'confirmed'])
      .where('expires_at', '>', ctx.now())
      .execute();
    composeNo = open.find((r) => r.goods_ids === want)?.compose_no ?? (await selectFragments(ctx, userId, { ruleId: input.ruleId, goodsIds: input.goodsIds }, lang)).composeNo;
  }
  const r = await requireMine(ctx, userId, composeNo);
  const now = ctx.now();
  if (r.status === 'confirmed' && Number(r.expires_at) > now) return consentOf(ctx, chain, r, lang);
  if ((r.status === 'selected' || r.status === 'confirmed') && Number(r.expires_at) <= now) throw new ApiError(Status.COMPOSE_STATE, 'composeExpired');
  if (r.status !== 'selected') throw new ApiError(Status.COMPOSE_STATE, 'composeState');
  const rule = (await loadRule(ctx.db.kysely, Number(r.rule_id)))!;
  requireActive(rule, now);
  const expiresAt = now + ctx.config.goodsFlows.holdMs;
  await inTx(ctx, async (trx) => {
    // The rule row is the reservation's lock: confirms of one rule run one after another.
    const took = await trx.updateTable('compose_rules').set({ used_times: sql`used_times + 1` }).where('id', '=', rule.id).where(sql<boolean>`used_times < max_times`).executeTakeFirst();
    if (Number(took.numUpdatedRows) !== 1) throw new ApiError(Status.COMPOSE_STATE, 'composeSoldOut');
    const used = new Set(
      (await trx.selectFrom('compose_records').select('result_serial').where('rule_id', '=', rule.id).where('status', 'in', [...LIVE_SERIAL]).where('result_serial', 'is not', null).execute()).map((x) => Number(x.result_serial)),
    );
    let serial = 1;
    while (used.has(serial)) serial++;
    if (serial > rule.maxTimes) throw new ApiError(Status.COMPOSE_STATE, 'composeSoldOut');
    const result = await trx.selectFrom('projects').select('token_start').where('id', '=', rule.resultProjectId).executeTakeFirstOrThrow();
    const res = await trx
      .updateTable('compose_records')
      .set({ status: 'confirmed', owner_address: walletAddress, result_serial: serial, result_token_id: String(Number(result.token_start) + serial - 1), expires_at: expiresAt, updated_at: now })
      .where('id', '=', Number(r.id))
      .where('status', '=', 'selected')
      .where('expires_at', '>', now)
      .executeTakeFirst();
    if (Number(res.numUpdatedRows) !== 1) throw new ApiError(Status.COMPOSE_STATE, 'composeExpired');
    await extendHolds(trx, r.compose_no, expiresAt);
  });
  return consentOf(ctx, chain, (await loadRecord(ctx.db.kysely, composeNo))!, lang);
}

function consumeOfRecord(r: RecordRow) {
  return consumeOf(r.owner_address!, JSON.parse(r.burn_token_ids) as string[], [r.result_token_id!], flowIdOf(r.compose_no));
}

async function consentOf(ctx: AppContext, chain: ConsumeChain, r: RecordRow, lang: Lang): Promise<ComposeConsent> {
  const typed = consumeTypedData(consumeOfRecord(r), chain.domain());
  return {
    record: await recordView(ctx, r, lang),
    owner: r.owner_address!,
    collectible: chain.collectible,
    collectibleHex: chain.collectibleHex,
    typedData: { ...typed, primaryType: 'Consume', types: Object.fromEntries(Object.entries(typed.types).map(([k, v]) => [k, v.map((f) => ({ ...f }))])) },
  };
}

/** submitcompose {composeNo, signature}: replaying it answers the same record. */
export async function submitCompose(ctx: AppContext, userId: number, input: { composeNo: string; signature: string }, lang: Lang): Promise<ComposeRecord> {
  const chain = requireConsumeChain(ctx);
  const r = await requireMine(ctx, userId, input.composeNo);
  const now = ctx.now();
  if (r.status === 'submitted' || r.status === 'completed') return recordView(ctx, r, lang);
  if (r.status === 'confirmed' && Number(r.expires_at) <= now) throw new ApiError(Status.COMPOSE_STATE, 'composeExpired');
  if (r.status !== 'confirmed') throw new ApiError(Status.COMPOSE_STATE, r.status === 'expired' ? 'composeExpired' : 'composeState');
  if (!verifyConsume(input.signature, consumeOfRecord(r), chain.domain())) throw new ApiError(Status.BAD_SIGNATURE, 'composeBadSignature');
  const goodsIds = JSON.parse(r.goods_ids) as number[];
  const moved = await inTx(ctx, async (trx) => {
    const res = await trx
      .updateTable('compose_records')
      .set({ status: 'submitted', signature: input.signature, expires_at: null, updated_at: now })
      .where('id', '=', Number(r.id))
      .where('status', '=', 'confirmed')
      .where('expires_at', '>', now)
      .executeTakeFirst();
    // A concurrent replay of this submit may have moved it first: answered below from the fresh row.
    if (Number(res.numUpdatedRows) !== 1) return false;
    const held = await trx.selectFrom('goods_holds').select('goods_id').where('ref', '=', r.compose_no).execute();
    if (held.length !== goodsIds.length) throw new ApiError(Status.COMPOSE_STATE, 'composeExpired');
    await holdUntilDone(trx, r.compose_no);
    await enqueueJob(trx, jobOf(consumeJob, { flow: 'compose', composeNo: r.compose_no, attempt: r.attempt }));
    return true;
  });
  const after = (await loadRecord(ctx.db.kysely, r.compose_no))!;
  if (!moved && after.status !== 'submitted' && after.status !== 'completed') throw new ApiError(Status.COMPOSE_STATE, after.status === 'expired' ? 'composeExpired' : 'composeState');
  ctx.jobs.wake();
  return recordView(ctx, after, lang);
}

/** The durable job of a submitted compose. */
export async function runComposeJob(ctx: AppContext, composeNo: string): Promise<JobResult> {
  const r = await loadRecord(ctx.db.kysely, composeNo);
  if (!r || r.status !== 'submitted' || !r.signature) return { done: true };
  const id = Number(r.id);
  const attempt = Number(r.attempt);
  return driveConsume(ctx, {
    key: flowIdOf(composeNo),
    attempt,
    chainTxId: r.chain_tx_id === null ? null : Number(r.chain_tx_id),
    consume: consumeOfRecord(r),
    signature: r.signature,
    onSubmitted: async (txId) => {
      await ctx.db.kysely.updateTable('compose_records').set({ chain_tx_id: txId }).where('id', '=', id).where('status', '=', 'submitted').where('attempt', '=', attempt).execute();
    },
    complete: (txHash) => completeCompose(ctx, id, txHash),
    fail: (reason) => failCompose(ctx, id, reason),
    retry: async (next) => {
      await ctx.db.kysely.updateTable('compose_records').set({ attempt: next, chain_tx_id: null, updated_at: ctx.now() }).where('id', '=', id).where('status', '=', 'submitted').where('attempt', '=', attempt).execute();
    },
  });
}

/** Confirmed on chain: fragments burned, result minted to the holder — one transaction, exactly once. */
async function completeCompose(ctx: AppContext, id: number, txHash: string | null) {
  const now = ctx.now();
  const done = await inTx(ctx, async (trx) => {
    const res = await trx.updateTable('compose_records').set({ status: 'completed', tx_hash: txHash, updated_at: now }).where('id', '=', id).where('status', '=', 'submitted').executeTakeFirst();
    if (Number(res.numUpdatedRows) !== 1) return false;
    const r = await trx.selectFrom('compose_records').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    const rule = (await loadRule(trx, Number(r.rule_id)))!;
    const userId = Number(r.user_id);
    const goodsIds = JSON.parse(r.goods_ids) as number[];
    await trx.updateTable('goods').set({ status: 'burned', sale_price_fen: null, listed_at: null }).where('id', 'in', goodsIds).execute();
    await releaseHolds(trx, r.compose_no);
    const result = await trx.selectFrom('projects').select('supply').where('id', '=', rule.resultProjectId).executeTakeFirstOrThrow();
    const serial = Number(r.result_serial);
    const g = await trx
      .insertInto('goods')
      .values({
        project_id: rule.resultProjectId,
        serial,
        token_id: Number(r.result_token_id),
        contract: consumeChainOf(ctx)?.collectible ?? null,
        chain_status: 'minted',
        mint_tx_hash: txHash,
        minted_at: now,
        owner_user_id: userId,
        name: `${rule.resultName} #${String(serial).padStart(Math.max(4, String(result.supply).length), '0')}`,
        image: rule.resultImage,
        attributes: JSON.stringify(rule.resultAttributes),
        status: 'held',
        sale_price_fen: null,
        listed_at: null,
        last_price_fen: null,
        acquired_at: now,
        created_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await trx.updateTable('compose_records').set({ result_goods_id: Number(g.id) }).where('id', '=', id).execute();
    await trx
      .insertInto('goods_history_actions')
      .values([
        ...goodsIds.map((goodsId) => ({ goods_id: goodsId, action: 'burn' as const, from_user_id: userId, to_user_id: null, price_fen: null, tx_hash: txHash, at: now })),
        { goods_id: Number(g.id), action: 'compose' as const, from_user_id: null, to_user_id: userId, price_fen: null, tx_hash: txHash, at: now },
      ])
      .execute();
    return true;
  });
  if (done) invalidateGoodsLists(ctx);
}

/** Refused for good: the fragments and the reserved result are released, the user sees the reason. */
async function failCompose(ctx: AppContext, id: number, reason: string) {
  await inTx(ctx, async (trx) => {
    const res = await trx.updateTable('compose_records').set({ status: 'failed', fail_reason: reason.slice(0, 200), updated_at: ctx.now() }).where('id', '=', id).where('status', '=', 'submitted').executeTakeFirst();
    if (Number(res.numUpdatedRows) !== 1) return;
    const r = await trx.selectFrom('compose_records').select(['compose_no', 'rule_id']).where('id', '=', id).executeTakeFirstOrThrow();
    await releaseHolds(trx, r.compose_no);
    await trx.updateTable('compose_rules').set({ used_times: sql`used_times - 1` }).where('id', '=', Number(r.rule_id)).where('used_times', '>', 0).execute();
  });
}

/** The sweep: unsigned composes past their time let go of their fragments and result. */
export async function expireComposes(ctx: AppContext): Promise<number> {
  const now = ctx.now();
  const due = await ctx.db.kysely.selectFrom('compose_records').selectAll().where('status', 'in', ['selected', 'confirmed']).where('expires_at', '<=', now).limit(500).execute();
  let n = 0;
  for (const r of due) if (await inTx(ctx, (trx) => closeOpen(trx, r, 'expired', now, true))) n++;
  return n;
}

/** composerecord {composeNo?, pageNum, pageSize}: my composes, newest first. */
export async function listComposeRecords(ctx: AppContext, userId: number, f: { composeNo?: string | null; pageNum: number; pageSize: number }, lang: Lang) {
  let q = ctx.db.kysely.selectFrom('compose_records').selectAll().where('user_id', '=', userId);
  let c = ctx.db.kysely.selectFrom('compose_records').select(sql<number>`count(*)`.as('n')).where('user_id', '=', userId);
  if (f.composeNo) {
    q = q.where('compose_no', '=', f.composeNo);
    c = c.where('compose_no', '=', f.composeNo);
  }
  const rows = await q.orderBy('id', 'desc').limit(f.pageSize).offset((f.pageNum - 1) * f.pageSize).execute();
  const total = Number((await c.executeTakeFirstOrThrow()).n);
  const list = [];
  for (const r of rows) list.push(await recordView(ctx, r, lang));
  return { list, total, pageNum: f.pageNum, pageSize: f.pageSize };
}

export async function recordView(ctx: AppContext, r: RecordRow, lang: Lang): Promise<ComposeRecord> {
  const rule = (await loadRule(ctx.db.kysely, Number(r.rule_id)))!;
  const ids = JSON.parse(r.goods_ids) as number[];
  const goods = ids.length ? await ctx.db.kysely.selectFrom('goods').select(['id', 'token_id', 'name', 'image', 'serial', 'project_id']).where('id', 'in', ids).execute() : [];
  const byId = new Map(goods.map((g) => [Number(g.id), g]));
  const chain = consumeChainOf(ctx);
  const open = r.status === 'selected' || r.status === 'confirmed';
  return {
    composeNo: r.compose_no,
    ruleId: rule.id,
    ruleName: rule.name,
    status: r.status,
    goods: ids.flatMap((id) => {
      const g = byId.get(id);
      return g ? [{ goodsId: id, tokenId: String(g.token_id ?? ''), name: g.name, image: g.image, serial: Number(g.serial), projectId: Number(g.project_id) }] : [];
    }),
    result: { serial: r.result_serial === null ? null : Number(r.result_serial), tokenId: r.result_token_id, goodsId: r.result_goods_id === null ? null : Number(r.result_goods_id), name: rule.resultName, image: rule.resultImage },
    txHash: r.tx_hash,
    explorerUrl: r.tx_hash && chain ? `${chain.explorerUrl}/transaction/${r.tx_hash}` : null,
    failReason: r.status === 'failed' ? formatMessage('chainRefused', lang, { reason: r.fail_reason ?? '' }) : null,
    expiresAt: open ? Number(r.expires_at) : null,
    createdAt: Number(r.created_at),
    updatedAt: Number(r.updated_at),
  };
}
