import { Status } from '@cfx/contract/envelope.ts';
import type { AppContext } from '../../context.ts';
import type { Q } from '../../db/tx.ts';
import { ApiError } from '../../http/envelope.ts';
import { phaseQuotaTaken, takePhaseQuota, type QuotaBucket } from './phase-quota.ts';
import { closedReason, currentPhase, phasePlan, timeline, type TimedPhase } from './phases.ts';
import { quotaTaken, takeQuota } from './quota.ts';
import type { DropRelease } from './release.ts';
import type { DropSettings } from './settings.ts';
import { whitelistQuota } from './whitelist.ts';

/**
 * Who may buy (or claim) what, now, by server time (docs/drops.md "Sale phases"): the terms of a
 * drop order in the current phase — the unit price, the quota bucket and the identity's limit in
 * it. Called by createDropOrder after the sale-window check and before the stock fast path; the
 * quota itself is taken in the reservation transaction (takeTermsQuota), before the stock row.
 *
 *   no phases       public: drop_quota, the release limit, the release price (the core's drop)
 *   whitelist       whitelisted identities only (1025), bucket 'whitelist', their entry quota
 *   claim           nftmint only (createOrder: 1024), bucket 'whitelist', price 0
 *   lottery_signup  nothing is bought (1024)
 *   lottery_rights  winners only (1025), bucket 'lottery', the win quota
 *   public          drop_quota with the release limit, the phase price
 */
export interface PurchaseTerms {
  /** null: the release limit in drop_quota. */
  bucket: QuotaBucket | null;
  limit: number;
  unitPriceFen: number;
  phase: TimedPhase | null;
}

/** The win quota of an identity in a release's lottery (0 unless it won). */
export async function lotteryWinQuota(q: Q, projectId: number, identity: string): Promise<number> {
  const row = await q
    .selectFrom('drop_lottery_entries')
    .innerJoin('drop_lotteries', 'drop_lotteries.project_id', 'drop_lottery_entries.project_id')
    .select(['drop_lottery_entries.won', 'drop_lotteries.win_quota', 'drop_lotteries.status'])
    .where('drop_lottery_entries.project_id', '=', projectId)
    .where('drop_lottery_entries.identity_digest', '=', identity)
    .executeTakeFirst();
  return row && row.status === 'drawn' && Number(row.won) === 1 ? Number(row.win_quota) : 0;
}

export async function purchaseTerms(ctx: AppContext, release: DropRelease, identity: string, settings: DropSettings, now: number, mode: 'buy' | 'claim'): Promise<PurchaseTerms> {
  const plan = await phasePlan(ctx, release.id);
  if (!plan.phases.length) {
    if (mode === 'claim') throw new ApiError(Status.DROP_NOT_ON_SALE, 'mintNotOpen');
    return { bucket: null, limit: settings.perIdentityLimit, unitPriceFen: release.priceFen, phase: null };
  }
  const t = timeline(plan);
  const cur = currentPhase(t, now);
  const q = ctx.db.kysely;
  if (mode === 'claim') {
    if (!cur || cur.kind !== 'claim') throw new ApiError(Status.DROP_NOT_ON_SALE, 'mintNotOpen');
    const limit = await whitelistQuota(q, release.id, identity);
    if (!limit) throw new ApiError(Status.DROP_NOT_ELIGIBLE, 'mintNotWhitelisted');
    return { bucket: 'whitelist', limit, unitPriceFen: 0, phase: cur };
  }
  if (!cur) throw closedReason(t, plan, now);
  switch (cur.kind) {
    case 'claim':
      throw new ApiError(Status.DROP_NOT_ON_SALE, 'dropClaimPhase');
    case 'lottery_signup':
      throw new ApiError(Status.DROP_NOT_ON_SALE, 'dropLotterySignup');
    case 'whitelist': {
      const limit = await whitelistQuota(q, release.id, identity);
      if (!limit) throw new ApiError(Status.DROP_NOT_ELIGIBLE, 'dropWhitelistOnly');
      return { bucket: 'whitelist', limit, unitPriceFen: cur.priceFen, phase: cur };
    }
    case 'lottery_rights': {
      const limit = await lotteryWinQuota(q, release.id, identity);
      if (!limit) throw new ApiError(Status.DROP_NOT_ELIGIBLE, 'dropWinnersOnly');
      return { bucket: 'lottery', limit, unitPriceFen: cur.priceFen, phase: cur };
    }
    case 'public':
      return { bucket: null, limit: settings.perIdentityLimit, unitPriceFen: cur.priceFen, phase: cur };
  }
}

/** Takes `n` units of the terms' quota in the reservation transaction (before the stock row). */
export function takeTermsQuota(trx: Q, projectId: number, terms: PurchaseTerms, identity: string, n: number, now: number): Promise<boolean> {
  return terms.bucket ? takePhaseQuota(trx, projectId, terms.bucket, identity, n, terms.limit, now) : takeQuota(trx, projectId, identity, n, terms.limit, now);
}

/**
 * The refusal when the quota of the terms is used up (1023, with what is left) for `n` units. Refused
 * one unit, the identity has none left (taken + 1 > limit): answered without reading the quota — on
 * PostgreSQL that read was ≈ 18 % of the statements of a drop's sale (bench/RESULTS.md).
 */
export async function quotaRefusal(q: Q, projectId: number, terms: PurchaseTerms, identity: string, n: number): Promise<ApiError> {
  const taken = n === 1 ? terms.limit : terms.bucket ? await phaseQuotaTaken(q, projectId, terms.bucket, identity) : await quotaTaken(q, projectId, identity);
  const left = Math.max(0, terms.limit - taken);
  const keys = {
    release: ['dropLimitReached', 'dropLimitExceeded'],
    whitelist: ['dropWhitelistUsed', 'dropWhitelistLeft'],
    lottery: ['dropWinQuotaUsed', 'dropWinQuotaLeft'],
  } as const;
  const [used, over] = keys[terms.bucket ?? 'release'];
  return left === 0 ? new ApiError(Status.DROP_LIMIT, used, { limit: terms.limit }) : new ApiError(Status.DROP_LIMIT, over, { n: left });
}
