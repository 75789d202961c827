import { Status } from '@cfx/contract/envelope.ts';
import type { LotteryProof, LotteryView } from '@cfx/contract/drop-phases.ts';
import { drawLotteryWinners, LOTTERY_DRAW_PSEUDOCODE, lotteryEntriesHash, lotteryWinnersHash, maskAccountId } from '@cfx/protocol/lottery-draw.ts';
import type { AppContext } from '../../context.ts';
import { inTx, isUniqueViolation } from '../../db/tx.ts';
import { ApiError } from '../../http/envelope.ts';
import { notFound } from '../catalog/index.ts';
import { requireTrader } from '../kyc/index.ts';
import { countAttempt } from './admission.ts';
import { beaconOf, latestEpoch } from './lottery-beacon.ts';
import { blockExplorerUrl } from '../chain/index.ts';
import { forgetPhasePlans, loadPlan, phasePlan, timeline, type PhasePlan, type TimedPhase } from './phases.ts';
import { dropRelease } from './release.ts';

/**
 * The fair drop (docs/drops.md "Lottery"). A release whose phases contain lottery_signup →
 * lottery_rights has a `drop_lotteries` row published with the phases BEFORE sign-up opens: the
 * draw epoch E, the number of winners W, the quota per winner and the rights minutes.
 *
 *   sign-up   one entry per real-name identity (login, real name 18+, wallet — the trading gate),
 *             numbered 1, 2, 3 … in the order accepted (the lottery row's counter, so numbers
 *             have no gaps); closes at the phase end — or earlier the moment epoch E has a block,
 *             since its hash (the seed) is then public.
 *   freeze    (sweep) open → closed: the entry list's fingerprint is stored with the chain's
 *             newest epoch at that moment (below E: nobody knew the seed while entries came in).
 *   draw      (sweep) closed → drawn once epoch E is confirmed: seed = its pivot block hash,
 *             winners = lottery-sha256-v1 (packages/protocol/src/lottery-draw.ts), winner rows
 *             marked, one 'lottery_result' event per entrant (drop_events) — one transaction.
 *   rights    winners buy up to their quota for rights_minutes from the draw (createOrder, bucket
 *             'lottery'); the phase after it (public) opens when it ends.
 *
 * The sweep (`lottery-draws`, every 2 s on the job worker) keeps no state of its own: everything
 * is in the lottery row, so a crash or restart simply carries on, and each step is a conditional
 * update that happens once.
 */
export const LOTTERY_SWEEP_MS = 2000;

const lotteryError = (key: 'lotteryNone' | 'lotteryNotOpen' | 'lotteryClosed' | 'lotteryOwnRelease' | 'lotteryAlreadyEntered', vars: Record<string, number> = {}) => new ApiError(Status.LOTTERY_STATE, key, vars);

function signupOf(t: TimedPhase[]) {
  return t.find((p) => p.kind === 'lottery_signup') ?? null;
}

/** POST /api/user/mint/v1/lottery/enter {projectId}: one numbered entry per real-name identity. */
export async function enterLottery(ctx: AppContext, userId: number, projectId: number) {
  countAttempt(ctx, userId);
  await requireTrader(ctx, userId);
  const release = await dropRelease(ctx, projectId);
  if (!release) throw notFound('projectNotFound');
  const u = await ctx.db.kysely
    .selectFrom('users')
    .innerJoin('realname', 'realname.user_id', 'users.id')
    .select(['users.account_id', 'realname.id_digest'])
    .where('users.id', '=', userId)
    .executeTakeFirstOrThrow();
  const identity = u.id_digest;
  countAttempt(ctx, identity);
  if (release.creatorUserId === userId) throw lotteryError('lotteryOwnRelease');
  const plan = await phasePlan(ctx, projectId);
  const signup = signupOf(timeline(plan));
  if (!plan.lottery || !signup) throw lotteryError('lotteryNone');
  const now = ctx.now();
  const mine = await ctx.db.kysely.selectFrom('drop_lottery_entries').select('entry_no').where('project_id', '=', projectId).where('identity_digest', '=', identity).executeTakeFirst();
  if (mine) throw lotteryError('lotteryAlreadyEntered', { n: Number(mine.entry_no) });
  if (signup.effStart === null || now < signup.effStart) throw lotteryError('lotteryNotOpen');
  if ((signup.effEnd !== null && now >= signup.effEnd) || plan.lottery.status !== 'open') throw lotteryError('lotteryClosed');
  // The seed must be unknown while entries come in: once epoch E has a block, sign-up is over.
  if (beaconOf(ctx)) {
    const head = await latestEpoch(ctx, 'latest_mined');
    if (head === null) throw new ApiError(Status.CHAIN_UNAVAILABLE, 'chainUnavailable');
    if (head >= plan.lottery.drawEpoch) throw lotteryError('lotteryClosed');
  }
  try {
    const entryNo = await inTx(ctx, async (trx) => {
      // The lottery row first (the counter, and only while open), then the entry.
      const l = await trx
        .updateTable('drop_lotteries')
        .set((eb) => ({ entry_count: eb('entry_count', '+', 1) }))
        .where('project_id', '=', projectId)
        .where('status', '=', 'open')
        .returning('entry_count')
        .executeTakeFirst();
      if (!l) throw lotteryError('lotteryClosed');
      const no = Number(l.entry_count);
      await trx
        .insertInto('drop_lottery_entries')
        .values({ project_id: projectId, entry_no: no, identity_digest: identity, user_id: userId, masked_account: maskAccountId(u.account_id), created_at: now })
        .execute();
      return no;
    });
    forgetPhasePlans(ctx, projectId);
    return { projectId, entryNo, entries: entryNo };
  } catch (err) {
    if (isUniqueViolation(err)) {
      const again = await ctx.db.kysely.selectFrom('drop_lottery_entries').select('entry_no').where('project_id', '=', projectId).where('identity_digest', '=', identity).executeTakeFirst();
      if (again) throw lotteryError('lotteryAlreadyEntered', { n: Number(again.entry_no) });
    }
    throw err;
  }
}

/** The caller's entry and result. */
export async function myLottery(ctx: AppContext, identity: string | null, projectId: number, plan: PhasePlan) {
  if (!plan.lottery) return null;
  const e = identity
    ? await ctx.db.kysely.selectFrom('drop_lottery_entries').select(['entry_no', 'won']).where('project_id', '=', projectId).where('identity_digest', '=', identity).executeTakeFirst()
    : undefined;
  const drawn = plan.lottery.status === 'drawn';
  const won = e ? (drawn ? Number(e.won) === 1 : null) : drawn ? false : null;
  return { entered: !!e, entryNo: e ? Number(e.entry_no) : null, won: e ? won : null, quota: e && won ? plan.lottery.winQuota : 0 };
}

/** The lottery's public facts. */
export async function lotteryView(ctx: AppContext, plan: PhasePlan, t: TimedPhase[]): Promise<LotteryView | null> {
  const l = plan.lottery;
  if (!l) return null;
  const signup = signupOf(t);
  const rights = t.find((p) => p.kind === 'lottery_rights');
  return {
    drawEpoch: l.drawEpoch,
    winners: l.winners,
    winQuota: l.winQuota,
    rightsMinutes: l.rightsMinutes,
    algorithm: l.algorithm,
    status: l.status,
    entries: l.entryCount,
    signupStartAt: signup?.effStart ?? null,
    signupEndAt: signup?.effEnd ?? null,
    drawnAt: l.drawnAt,
    rightsEndAt: rights?.effEnd ?? null,
    blockHash: l.blockHash,
    winnersHash: l.winnersHash,
    chainEpoch: l.status === 'drawn' ? null : await latestEpoch(ctx, 'latest_mined'),
  };
}

/** GET /official/lottery/proof/?projectId=: what anyone needs to recompute the draw. */
export async function lotteryProof(ctx: AppContext, projectId: number): Promise<LotteryProof> {
  const release = await dropRelease(ctx, projectId);
  if (!release) throw notFound('projectNotFound');
  const plan = await loadPlan(ctx.db.kysely, projectId);
  const l = plan.lottery;
  if (!l) throw lotteryError('lotteryNone');
  const t = timeline(plan);
  const signup = signupOf(t);
  const frozen = l.status !== 'open';
  const entries = frozen
    ? (await ctx.db.kysely.selectFrom('drop_lottery_entries').select('masked_account').where('project_id', '=', projectId).orderBy('entry_no').execute()).map((e) => e.masked_account)
    : [];
  return {
    projectId,
    name: release.name,
    algorithm: l.algorithm,
    pseudocode: LOTTERY_DRAW_PSEUDOCODE,
    status: l.status,
    drawEpoch: l.drawEpoch,
    blockHash: l.blockHash,
    // No link on the embedded chain (no explorer knows it): the page shows the block fetched through GET /chain/v1/block.
    blockUrl: l.blockHash ? blockExplorerUrl(ctx, l.blockHash) : null,
    winnersCount: l.winners,
    signupStartAt: signup?.effStart ?? null,
    signupEndAt: signup?.effEnd ?? null,
    closedAt: l.closedAt,
    closedEpoch: l.closedEpoch,
    drawnAt: l.drawnAt,
    entries,
    entriesHash: l.entriesHash,
    winners: l.winnersList ? l.winnersList.split(',').filter(Boolean).map(Number) : [],
    winnersHash: l.winnersHash,
  };
}

/**
 * One pass of the lottery sweep: freezes the entry lists whose sign-up is over, and draws the
 * frozen ones whose epoch is confirmed. Returns how many lotteries changed state.
 */
export async function runLotteryDraws(ctx: AppContext): Promise<number> {
  const due = await ctx.db.kysely.selectFrom('drop_lotteries').select('project_id').where('status', 'in', ['open', 'closed']).orderBy('project_id').limit(100).execute();
  let changed = 0;
  let failure: unknown;
  for (const d of due) {
    const projectId = Number(d.project_id);
    try {
      if (await stepLottery(ctx, projectId)) changed++;
    } catch (err) {
      // The next pass tries again (each step is one transaction: nothing half-done is left); the
      // other lotteries go on, and the job runner logs the failure.
      failure ??= new Error(`lottery ${projectId}: ${String(err)}`);
    }
  }
  if (failure) throw failure;
  return changed;
}

async function stepLottery(ctx: AppContext, projectId: number): Promise<boolean> {
  const plan = await loadPlan(ctx.db.kysely, projectId);
  const l = plan.lottery;
  if (!l || l.status === 'drawn') return false;
  const now = ctx.now();
  const signup = signupOf(timeline(plan));
  const beacon = beaconOf(ctx);
  if (l.status === 'open') {
    const mined = beacon ? await latestEpoch(ctx, 'latest_mined') : null;
    const over = signup?.effEnd != null && now >= signup.effEnd;
    if (!over && !(mined !== null && mined >= l.drawEpoch)) return false;
    await freeze(ctx, projectId, now, mined);
    return true;
  }
  // closed: draw once epoch E is confirmed.
  if (!beacon) return false;
  const confirmed = await latestEpoch(ctx, 'latest_confirmed');
  if (confirmed === null || confirmed < l.drawEpoch) return false;
  const blockHash = await beacon.epochBlockHash(l.drawEpoch);
  if (!blockHash) return false;
  return draw(ctx, projectId, blockHash, now);
}

async function freeze(ctx: AppContext, projectId: number, now: number, minedEpoch: number | null) {
  await inTx(ctx, async (trx) => {
    const res = await trx
      .updateTable('drop_lotteries')
      .set({ status: 'closed', closed_at: now, closed_epoch: minedEpoch })
      .where('project_id', '=', projectId)
      .where('status', '=', 'open')
      .executeTakeFirst();
    if (Number(res.numUpdatedRows) !== 1) return;
    const entries = await trx.selectFrom('drop_lottery_entries').select('masked_account').where('project_id', '=', projectId).orderBy('entry_no').execute();
    await trx.updateTable('drop_lotteries').set({ entries_hash: lotteryEntriesHash(entries.map((e) => e.masked_account)) }).where('project_id', '=', projectId).execute();
  });
  forgetPhasePlans(ctx, projectId);
}

async function draw(ctx: AppContext, projectId: number, blockHash: string, now: number): Promise<boolean> {
  const release = await dropRelease(ctx, projectId);
  const done = await inTx(ctx, async (trx) => {
    const l = await trx.selectFrom('drop_lotteries').selectAll().where('project_id', '=', projectId).executeTakeFirstOrThrow();
    if (l.status !== 'closed') return null;
    const entries = await trx.selectFrom('drop_lottery_entries').select(['entry_no', 'user_id', 'masked_account']).where('project_id', '=', projectId).orderBy('entry_no').execute();
    // The list drawn from is the list frozen (its fingerprint was stored before the seed existed).
    if (lotteryEntriesHash(entries.map((e) => e.masked_account)) !== l.entries_hash) throw new Error(`lottery ${projectId}: the entry list changed after it was frozen`);
    if (entries.some((e, i) => Number(e.entry_no) !== i + 1)) throw new Error(`lottery ${projectId}: entry numbers are not 1…N`);
    const winners = drawLotteryWinners(blockHash, entries.length, Number(l.winners));
    const res = await trx
      .updateTable('drop_lotteries')
      .set({ status: 'drawn', block_hash: blockHash, winners_list: winners.join(','), winners_hash: lotteryWinnersHash(winners), drawn_at: now })
      .where('project_id', '=', projectId)
      .where('status', '=', 'closed')
      .executeTakeFirst();
    if (Number(res.numUpdatedRows) !== 1) return null;
    for (let i = 0; i < winners.length; i += 500) {
      await trx.updateTable('drop_lottery_entries').set({ won: 1 }).where('project_id', '=', projectId).where('entry_no', 'in', winners.slice(i, i + 500)).execute();
    }
    const won = new Set(winners);
    const rightsEndAt = now + Number(l.rights_minutes) * 60_000;
    const events = entries.map((e) => ({
      kind: 'lottery_result' as const,
      project_id: projectId,
      user_id: Number(e.user_id),
      payload: JSON.stringify({
        won: won.has(Number(e.entry_no)),
        entryNo: Number(e.entry_no),
        quota: won.has(Number(e.entry_no)) ? Number(l.win_quota) : 0,
        rightsEndAt,
        name: release?.name ?? '',
        drawEpoch: Number(l.draw_epoch),
        link: `/projects/dropping/${projectId}`,
      }),
      created_at: now,
      delivered_at: null,
    }));
    for (let i = 0; i < events.length; i += 200) {
      await trx.insertInto('drop_events').values(events.slice(i, i + 200)).onConflict((oc) => oc.columns(['kind', 'project_id', 'user_id']).doNothing()).execute();
    }
    return winners.length;
  });
  forgetPhasePlans(ctx, projectId);
  return done !== null;
}
