import { Status } from '@cfx/contract/envelope.ts';
import type { DropPhaseKind, LotteryInput, PhaseInput, PhaseView, QuotaSource } from '@cfx/contract/drop-phases.ts';
import { LOTTERY_DRAW_ALGORITHM } from '@cfx/protocol/lottery-draw.ts';
import type { AppContext } from '../../context.ts';
import { inTx, type Q } from '../../db/tx.ts';
import { ApiError } from '../../http/envelope.ts';
import { TimedCache } from '../../util/timed-cache.ts';
import { invalidateProjectInfo } from '../catalog/index.ts';
import { latestEpoch } from './lottery-beacon.ts';
import { forgetDropReleases } from './release.ts';

/**
 * Sale phases of a release (docs/drops.md "Sale phases"): an ordered list of windows, each of one
 * kind —
 *
 *   whitelist       priority purchase; only whitelisted identities, up to their entry quota
 *   claim           free mint (nftmint) for whitelisted identities, up to their entry quota
 *   lottery_signup  lottery sign-up (nothing is bought); the draw follows (lottery.ts)
 *   lottery_rights  winners buy, up to their win quota; opens at the draw, lasts rights_minutes
 *   public          everyone, up to the release's per-identity limit (the core drop)
 *
 * A release without phases is sold as one public phase in its sale window (the core's behaviour).
 * Which phase is open is decided by SERVER time (ctx.now) only. Phases and lotteries are read
 * through a cache of at most a second, like the release itself.
 */
export interface Phase {
  seq: number;
  kind: DropPhaseKind;
  startAt: number | null;
  endAt: number | null;
  priceFen: number;
  quotaSource: QuotaSource;
}

export interface LotteryRow {
  drawEpoch: number;
  winners: number;
  winQuota: number;
  rightsMinutes: number;
  algorithm: string;
  status: 'open' | 'closed' | 'drawn';
  entryCount: number;
  entriesHash: string | null;
  closedAt: number | null;
  closedEpoch: number | null;
  blockHash: string | null;
  winnersList: string | null;
  winnersHash: string | null;
  drawnAt: number | null;
}

export interface PhasePlan {
  phases: Phase[];
  lottery: LotteryRow | null;
}

/** A phase with its effective window at a moment: start null = not known yet (waiting for the draw). */
export interface TimedPhase extends Phase {
  effStart: number | null;
  effEnd: number | null;
}

/** The quota source each kind uses (stored with the phase so the table says it outright). */
export const QUOTA_SOURCE: Record<DropPhaseKind, QuotaSource> = {
  whitelist: 'whitelist',
  claim: 'whitelist',
  lottery_signup: 'none',
  lottery_rights: 'lottery',
  public: 'release',
};

const MAX_AGE_MS = 1000;
const caches = new WeakMap<object, TimedCache<number, PhasePlan>>();

export function phasePlan(ctx: AppContext, projectId: number): Promise<PhasePlan> {
  let c = caches.get(ctx.db);
  if (!c) caches.set(ctx.db, (c = new TimedCache(MAX_AGE_MS, () => ctx.monotonicNow())));
  return c.get(projectId, () => loadPlan(ctx.db.kysely, projectId));
}

/** Forget cached phases / lotteries (after a change: configuration, the draw). */
export function forgetPhasePlans(ctx: AppContext, projectId?: number) {
  caches.get(ctx.db)?.forget(projectId);
}

export async function loadPlan(q: Q, projectId: number): Promise<PhasePlan> {
  const [rows, l] = await Promise.all([
    q.selectFrom('drop_phases').selectAll().where('project_id', '=', projectId).orderBy('seq').execute(),
    q.selectFrom('drop_lotteries').selectAll().where('project_id', '=', projectId).executeTakeFirst(),
  ]);
  return {
    phases: rows.map((r) => ({
      seq: Number(r.seq),
      kind: r.kind,
      startAt: r.start_at === null ? null : Number(r.start_at),
      endAt: r.end_at === null ? null : Number(r.end_at),
      priceFen: Number(r.price_fen),
      quotaSource: r.quota_source,
    })),
    lottery: l
      ? {
          drawEpoch: Number(l.draw_epoch),
          winners: Number(l.winners),
          winQuota: Number(l.win_quota),
          rightsMinutes: Number(l.rights_minutes),
          algorithm: l.algorithm,
          status: l.status,
          entryCount: Number(l.entry_count),
          entriesHash: l.entries_hash,
          closedAt: l.closed_at === null ? null : Number(l.closed_at),
          closedEpoch: l.closed_epoch === null ? null : Number(l.closed_epoch),
          blockHash: l.block_hash,
          winnersList: l.winners_list,
          winnersHash: l.winners_hash,
          drawnAt: l.drawn_at === null ? null : Number(l.drawn_at),
        }
      : null,
  };
}

/**
 * Effective windows: a lottery_rights phase runs [drawn_at, drawn_at + rights minutes); a phase
 * after it starts no earlier than its end (unknown before the draw: pending).
 */
export function timeline(plan: PhasePlan): TimedPhase[] {
  const out: TimedPhase[] = [];
  let floor: number | null = 0; // the earliest a later phase may start; null = unknown (before the draw)
  for (const p of plan.phases) {
    if (p.kind === 'lottery_rights') {
      const start = plan.lottery?.drawnAt ?? null;
      const s: number | null = start === null || floor === null ? null : Math.max(start, floor);
      const e: number | null = s === null ? null : s + (plan.lottery?.rightsMinutes ?? 0) * 60_000;
      out.push({ ...p, effStart: s, effEnd: e });
      floor = e;
      continue;
    }
    const s = floor === null ? null : Math.max(p.startAt ?? 0, floor);
    let e = p.endAt;
    // Sign-up closes early when the draw epoch was reached before its end (the seed became known).
    const closedAt = plan.lottery?.closedAt ?? null;
    if (p.kind === 'lottery_signup' && closedAt !== null && (e === null || closedAt < e)) e = Math.max(closedAt, s ?? closedAt);
    out.push({ ...p, effStart: s, effEnd: e });
    if (e !== null && floor !== null) floor = Math.max(floor, e);
  }
  return out;
}

/** The phase open at `now` (a phase emptied by a late draw — end ≤ start — never opens). */
export function currentPhase(t: TimedPhase[], now: number): TimedPhase | null {
  for (const p of t) if (p.effStart !== null && p.effStart <= now && (p.effEnd === null || now < p.effEnd) && (p.effEnd === null || p.effStart < p.effEnd)) return p;
  return null;
}

export function phaseState(p: TimedPhase, now: number): PhaseView['state'] {
  if (p.effStart === null) return 'pending';
  if (p.effEnd !== null && (now >= p.effEnd || p.effEnd <= p.effStart)) return 'ended';
  return now < p.effStart ? 'upcoming' : 'active';
}

export function phaseViews(t: TimedPhase[], now: number): PhaseView[] {
  return t.map((p) => ({ seq: p.seq, kind: p.kind, startAt: p.effStart, endAt: p.effEnd, priceFen: p.priceFen, quotaSource: p.quotaSource, state: phaseState(p, now) }));
}

/** Why nothing can be bought now in a phased release (the answer of createOrder). */
export function closedReason(t: TimedPhase[], plan: PhasePlan, now: number): ApiError {
  const first = t[0];
  if (first && first.effStart !== null && now < first.effStart) return new ApiError(Status.DROP_NOT_ON_SALE, 'dropNotStarted');
  const signup = t.find((p) => p.kind === 'lottery_signup');
  if (signup && plan.lottery && plan.lottery.status !== 'drawn' && signup.effEnd !== null && now >= signup.effEnd) return new ApiError(Status.DROP_NOT_ON_SALE, 'dropAwaitingDraw');
  const later = t.some((p) => p.effStart === null || now < p.effStart || p.effEnd === null || now < p.effEnd);
  return new ApiError(Status.DROP_NOT_ON_SALE, later ? 'dropPhaseClosed' : 'dropEnded');
}

const invalid = (reason: string) => new ApiError(Status.INVALID, 'phasesInvalid', { reason });

/** The sum of a release's whitelist quotas: at most what its whitelist and free-claim phases can hand out. */
export async function whitelistTotal(q: Q, projectId: number): Promise<number> {
  const r = await q.selectFrom('drop_whitelist').select((e) => e.fn.sum<number>('quota').as('s')).where('project_id', '=', projectId).executeTakeFirst();
  return Number(r?.s ?? 0);
}

/**
 * Why a lottery's winners might find no units when its rights open, or undefined when they cannot:
 * the phases before its sign-up sell first, so a public phase there (bounded only by the supply) is
 * refused, and the units whitelist / free-claim phases there can hand out (the whitelist's quotas,
 * `whitelistUnits`) plus winners × quota must fit the supply. Checked when the phases are set
 * (setDropPhases) and when a whitelist is imported (importWhitelist); the phases cannot change once
 * the sale started.
 */
export function lotteryFitProblem(phases: Pick<Phase, 'kind' | 'quotaSource'>[], lottery: Pick<LotteryInput, 'winners' | 'winQuota'>, supply: number, whitelistUnits: number): string | undefined {
  const signup = phases.findIndex((x) => x.kind === 'lottery_signup');
  if (signup < 0) return undefined;
  const before = phases.slice(0, signup);
  if (before.some((x) => x.kind === 'public')) return 'a public phase before the lottery could sell its units';
  const reserved = before.some((x) => x.quotaSource === 'whitelist') ? whitelistUnits : 0;
  const lotteryUnits = lottery.winners * lottery.winQuota;
  if (!reserved) return lotteryUnits > supply ? 'winners × quota exceeds the supply' : undefined;
  return reserved + lotteryUnits > supply ? `the whitelist's ${reserved} unit(s) before the lottery + winners × quota (${lotteryUnits}) exceed the supply (${supply})` : undefined;
}

/**
 * Sets a release's phases (and its lottery), replacing earlier ones — only before the sale starts.
 * Checks: at least one phase; windows ordered and not overlapping; every phase but a rights phase
 * has a start, every one but the last (and a rights phase) an end; a claim costs 0 and the others
 * at least 1 fen (default: the release price); a lottery is one sign-up phase directly followed by
 * its rights phase, with the lottery's parameters, set before sign-up opens, its draw epoch still in
 * the future on the chain, and its units sure to be there when the rights open (lotteryFitProblem:
 * no public phase before it; the whitelist's quotas, when whitelist / free-claim phases come first,
 * plus winners × quota ≤ supply). The release's sale window becomes the first start → the last end
 * (null when open-ended or ending after the draw).
 */
export async function setDropPhases(ctx: AppContext, projectId: number, input: PhaseInput[], lottery: LotteryInput | null = null): Promise<void> {
  const now = ctx.now();
  const p = await ctx.db.kysely.selectFrom('projects').select(['price_fen', 'supply', 'sale_start_at']).where('id', '=', projectId).executeTakeFirst();
  if (!p) throw new ApiError(Status.NOT_FOUND_ITEM, 'projectNotFound', {}, 404);
  if (!input.length) throw invalid('no phases');
  const phases: Phase[] = input.map((x, seq) => ({
    seq,
    kind: x.kind,
    startAt: x.kind === 'lottery_rights' ? null : (x.startAt ?? null),
    endAt: x.kind === 'lottery_rights' ? null : (x.endAt ?? null),
    priceFen: x.kind === 'claim' ? (x.priceFen ?? 0) : (x.priceFen ?? Number(p.price_fen)),
    quotaSource: QUOTA_SOURCE[x.kind],
  }));
  let prevEnd: number | null = null;
  phases.forEach((ph, i) => {
    const last = i === phases.length - 1;
    if (ph.kind === 'claim' && ph.priceFen !== 0) throw invalid(`phase ${i + 1}: a free claim costs 0`);
    if (ph.kind !== 'claim' && ph.kind !== 'lottery_signup' && ph.priceFen < 1) throw invalid(`phase ${i + 1}: the price must be at least 1 fen`);
    if (ph.kind === 'lottery_rights') {
      if (phases[i - 1]?.kind !== 'lottery_signup') throw invalid(`phase ${i + 1}: lottery_rights must follow lottery_signup`);
      return;
    }
    if (ph.kind === 'lottery_signup' && phases[i + 1]?.kind !== 'lottery_rights') throw invalid(`phase ${i + 1}: lottery_signup must be followed by lottery_rights`);
    if (ph.startAt === null) throw invalid(`phase ${i + 1}: a start time is needed`);
    if (ph.endAt === null && (!last || ph.kind === 'lottery_signup')) throw invalid(`phase ${i + 1}: an end time is needed`);
    if (ph.endAt !== null && ph.endAt <= ph.startAt) throw invalid(`phase ${i + 1}: it must end after it starts`);
    if (prevEnd !== null && ph.startAt < prevEnd) throw invalid(`phase ${i + 1}: it overlaps the phase before`);
    prevEnd = ph.endAt;
  });
  const signups = phases.filter((x) => x.kind === 'lottery_signup');
  if (signups.length > 1) throw invalid('at most one lottery per release');
  if (signups.length && !lottery) throw invalid('a lottery needs its draw epoch, winners, quota and rights minutes');
  if (!signups.length && lottery) throw invalid('lottery parameters without a lottery_signup phase');
  const first = phases.find((x) => x.startAt !== null)!;
  const existing = await loadPlan(ctx.db.kysely, projectId);
  const startedAt = existing.phases.find((x) => x.startAt !== null)?.startAt;
  const taken = await ctx.db.kysely.selectFrom('drop_stock').select('taken').where('project_id', '=', projectId).executeTakeFirst();
  if ((startedAt != null && now >= startedAt) || Number(taken?.taken ?? 0) > 0) throw invalid('the sale has started');
  if (lottery) {
    if (now >= signups[0]!.startAt!) throw invalid('the draw epoch must be published before sign-up opens');
    const problem = lotteryFitProblem(phases, lottery, Number(p.supply), await whitelistTotal(ctx.db.kysely, projectId));
    if (problem) throw invalid(problem);
    const head = await latestEpoch(ctx, 'latest_mined');
    if (head !== null && lottery.drawEpoch <= head) throw invalid(`the draw epoch must be in the future (the chain is at ${head})`);
  }
  const lastPhase = phases[phases.length - 1]!;
  const afterDraw = phases.findIndex((x) => x.kind === 'lottery_rights') >= 0;
  const saleEnd = afterDraw || lastPhase.endAt === null ? null : lastPhase.endAt;

  await inTx(ctx, async (trx) => {
    await trx.deleteFrom('drop_phases').where('project_id', '=', projectId).execute();
    await trx
      .insertInto('drop_phases')
      .values(phases.map((ph) => ({ project_id: projectId, seq: ph.seq, kind: ph.kind, start_at: ph.startAt, end_at: ph.endAt, price_fen: ph.priceFen, quota_source: ph.quotaSource, created_at: now })))
      .execute();
    await trx.deleteFrom('drop_lotteries').where('project_id', '=', projectId).where('entry_count', '=', 0).execute();
    if (lottery) {
      await trx
        .insertInto('drop_lotteries')
        .values({
          project_id: projectId, draw_epoch: lottery.drawEpoch, winners: lottery.winners, win_quota: lottery.winQuota, rights_minutes: lottery.rightsMinutes,
          algorithm: LOTTERY_DRAW_ALGORITHM, status: 'open', entry_count: 0, entries_hash: null, closed_at: null, closed_epoch: null, block_hash: null,
          winners_list: null, winners_hash: null, drawn_at: null, created_at: now,
        })
        .execute();
    }
    await trx.updateTable('projects').set({ sale_start_at: first.startAt!, sale_end_at: saleEnd }).where('id', '=', projectId).execute();
  });
  forgetPhasePlans(ctx, projectId);
  forgetDropReleases(ctx);
  invalidateProjectInfo(ctx);
}

/**
 * Removes a release's phases (and its lottery, which has no entries before the sale): the release
 * is sold again as one public phase in its sale window. Only before the sale starts — refused like
 * setDropPhases once a phase has begun or a unit is taken. The window stays as it is.
 */
export async function clearDropPhases(ctx: AppContext, projectId: number): Promise<void> {
  const now = ctx.now();
  const existing = await loadPlan(ctx.db.kysely, projectId);
  const startedAt = existing.phases.find((x) => x.startAt !== null)?.startAt;
  await inTx(ctx, async (trx) => {
    const taken = await trx.selectFrom('drop_stock').select('taken').where('project_id', '=', projectId).executeTakeFirst();
    if ((startedAt != null && now >= startedAt) || Number(taken?.taken ?? 0) > 0) throw invalid('the sale has started');
    const entries = await trx.selectFrom('drop_lottery_entries').select('entry_no').where('project_id', '=', projectId).limit(1).executeTakeFirst();
    if (entries) throw invalid('the lottery has entries');
    await trx.deleteFrom('drop_phases').where('project_id', '=', projectId).execute();
    await trx.deleteFrom('drop_lotteries').where('project_id', '=', projectId).execute();
  });
  forgetPhasePlans(ctx, projectId);
  forgetDropReleases(ctx);
  invalidateProjectInfo(ctx);
}
