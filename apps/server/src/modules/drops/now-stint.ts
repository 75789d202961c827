import type { NowStint } from '@cfx/contract/drops.ts';
import type { AppContext } from '../../context.ts';
import { notFound } from '../catalog/index.ts';
import { lotteryWinQuota } from './phase-gate.ts';
import { phaseQuotaTaken } from './phase-quota.ts';
import { currentPhase, phasePlan, timeline } from './phases.ts';
import { quotaTaken } from './quota.ts';
import { whitelistQuota } from './whitelist.ts';
import { dropRelease, saleStatus } from './release.ts';
import { dropSettings } from './settings.ts';
import { stockOf } from './stock.ts';

/**
 * GET /official/stint/nowStint/?projectId=: the caller's purchase limit of a release — counted per
 * real-name identity, so every account verified with the same ID number sees the same `bought` —
 * with the live stock and sale window (server time), for the dropping page's quantity picker.
 */
export async function nowStint(ctx: AppContext, userId: number, projectId: number): Promise<NowStint> {
  const release = await dropRelease(ctx, projectId);
  if (!release) throw notFound('projectNotFound');
  const [settings, stock, id] = await Promise.all([
    dropSettings(ctx, projectId),
    stockOf(ctx, projectId),
    ctx.db.kysely.selectFrom('realname').select('id_digest').where('user_id', '=', userId).executeTakeFirst(),
  ]);
  const s = stock ?? { supply: release.supply, taken: 0, paid: 0 };
  const now = ctx.now();
  // The quota of the phase open now (sale phases, phase-gate.ts); without phases the release limit.
  const plan = await phasePlan(ctx, projectId);
  const phase = plan.phases.length ? currentPhase(timeline(plan), now) : null;
  const q = ctx.db.kysely;
  let limit = settings.perIdentityLimit;
  let bought = 0;
  if (phase?.kind === 'whitelist' || phase?.kind === 'claim') {
    limit = id ? await whitelistQuota(q, projectId, id.id_digest) : 0;
    bought = id ? await phaseQuotaTaken(q, projectId, 'whitelist', id.id_digest) : 0;
  } else if (phase?.kind === 'lottery_rights') {
    limit = id ? await lotteryWinQuota(q, projectId, id.id_digest) : 0;
    bought = id ? await phaseQuotaTaken(q, projectId, 'lottery', id.id_digest) : 0;
  } else if (phase?.kind === 'lottery_signup') {
    limit = 0;
  } else {
    bought = id ? await quotaTaken(q, projectId, id.id_digest) : 0;
  }
  return {
    projectId,
    limit,
    bought,
    remaining: id ? Math.max(0, limit - bought) : 0,
    maxPerOrder: settings.maxPerOrder,
    verified: !!id,
    supply: s.supply,
    sold: Math.min(s.taken, s.supply),
    stockRemaining: Math.max(0, s.supply - s.taken),
    status: saleStatus(release, s, now),
    saleStartAt: release.saleStartAt,
    saleEndAt: release.saleEndAt,
    serverTime: now,
    phaseKind: phase?.kind ?? null,
  };
}
