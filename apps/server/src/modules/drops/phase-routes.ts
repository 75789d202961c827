import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import * as P from '@cfx/contract/drop-phases.ts';
import { orderDetailResponse } from '@cfx/contract/market.ts';
import { Status } from '@cfx/contract/envelope.ts';
import { formatMessage } from '@cfx/contract/messages.ts';
import { DevPaths, LotteryPaths, MintPaths } from '@cfx/contract/routes.ts';
import type { AppContext } from '../../context.ts';
import { requireUserId } from '../accounts/index.ts';
import { body, langOf, ok, okOfficial } from '../../http/envelope.ts';
import { DropBusy } from './admission.ts';
import { createDropRelease } from './create-drop-release.ts';
import { latestEpoch } from './lottery-beacon.ts';
import { enterLottery, lotteryProof } from './lottery.ts';
import { mintInfo, nftmint, officialMint } from './mint.ts';
import { setDropPhases } from './phases.ts';
import { importWhitelist, whitelistStatus } from './whitelist.ts';

/**
 * Sale phases, whitelist, free claim and lottery calls (docs/drops.md "Sale phases", docs/api.md).
 * `official` paths answer code 200 like every official path.
 */
export function phaseRoutes(app: FastifyInstance, ctx: AppContext) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['drops'];
  r.get(MintPaths.official, { schema: { tags, querystring: P.officialMintQuery, response: { 200: P.officialMintResponse } } }, async (req) => {
    return okOfficial(req, await officialMint(ctx, req.query.projectId));
  });
  r.post(MintPaths.whitelist, { schema: { tags, body: P.projectIdBody, response: { 200: P.whitelistResponse } } }, async (req) => {
    return ok(req, await whitelistStatus(ctx, await requireUserId(ctx, req), req.body.projectId));
  });
  r.post(MintPaths.mintinfo, { schema: { tags, body: P.projectIdBody, response: { 200: P.mintInfoResponse } } }, async (req) => {
    return ok(req, await mintInfo(ctx, await requireUserId(ctx, req), req.body.projectId));
  });
  r.post(MintPaths.nftmint, { schema: { tags, body: P.nftmintBody, response: { 200: orderDetailResponse } } }, async (req, reply) => {
    const userId = await requireUserId(ctx, req);
    try {
      return body(Status.OK, await nftmint(ctx, userId, req.body), formatMessage('mintClaimed', langOf(req)));
    } catch (err) {
      if (err instanceof DropBusy) reply.header('retry-after', String(Math.max(1, Math.ceil(err.retryAfterMs / 1000))));
      throw err;
    }
  });
  r.post(LotteryPaths.enter, { schema: { tags, body: P.projectIdBody, response: { 200: P.lotteryEntryResponse } } }, async (req, reply) => {
    const userId = await requireUserId(ctx, req);
    try {
      const e = await enterLottery(ctx, userId, req.body.projectId);
      return body(Status.OK, e, formatMessage('lotteryEntered', langOf(req), { n: e.entryNo }));
    } catch (err) {
      if (err instanceof DropBusy) reply.header('retry-after', String(Math.max(1, Math.ceil(err.retryAfterMs / 1000))));
      throw err;
    }
  });
  r.get(LotteryPaths.proof, { schema: { tags, querystring: P.lotteryProofQuery, response: { 200: P.lotteryProofResponse } } }, async (req) => {
    return okOfficial(req, await lotteryProof(ctx, req.query.projectId));
  });

  if (ctx.config.devMode) {
    // hide: development helpers never appear in the API docs (/mvapi/docs).
    r.post(DevPaths.createPhasedRelease, { schema: { hide: true, tags: ['dev'], body: P.devPhasesBody, response: { 200: P.devPhasesResponse } } }, async (req) => {
      const userId = await requireUserId(ctx, req);
      return ok(req, await createPhasedRelease(ctx, userId, req.body));
    });
  }
}

/**
 * DEV_MODE: a new drop release with phases laid out from now (each phase starts where the previous
 * one ends unless it says otherwise) and, with `lottery`, a draw epoch `drawEpochOffset` epochs
 * after the chain's newest one (without a chain nothing is ever drawn).
 */
export async function createPhasedRelease(ctx: AppContext, userId: number, input: typeof P.devPhasesBody._output) {
  const now = ctx.now();
  const { projectId } = await createDropRelease(ctx, userId, {
    supply: input.supply ?? 100,
    priceFen: input.priceFen ?? 990,
    startInMs: 0,
    perIdentityLimit: input.perIdentityLimit ?? null,
    maxPerOrder: input.maxPerOrder ?? null,
  });
  let cursor = now;
  const phases: P.PhaseInput[] = input.phases.map((p) => {
    if (p.kind === 'lottery_rights') return { kind: p.kind, priceFen: p.priceFen ?? null };
    const startAt = p.startInMs != null ? now + p.startInMs : cursor;
    const endAt = p.durationMs != null ? startAt + p.durationMs : null;
    cursor = endAt ?? startAt;
    return { kind: p.kind, startAt, endAt, priceFen: p.priceFen ?? null };
  });
  let drawEpoch: number | null = null;
  if (input.lottery) {
    drawEpoch = ((await latestEpoch(ctx, 'latest_mined')) ?? 0) + input.lottery.drawEpochOffset;
  }
  await setDropPhases(ctx, projectId, phases, input.lottery && drawEpoch !== null ? { drawEpoch, winners: input.lottery.winners, winQuota: input.lottery.winQuota, rightsMinutes: input.lottery.rightsMinutes } : null);
  if (input.whitelistMe) {
    const u = await ctx.db.kysely.selectFrom('users').select('account_id').where('id', '=', userId).executeTakeFirstOrThrow();
    await importWhitelist(ctx, projectId, `accountId,quota\n${u.account_id},${input.whitelistMe}`, { now });
  }
  return { projectId, drawEpoch };
}
