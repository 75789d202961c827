import type { MintInfo, MintRelease, OfficialMint } from '@cfx/contract/drop-phases.ts';
import type { OrderDetail } from '@cfx/contract/market.ts';
import type { AppContext } from '../../context.ts';
import { notFound } from '../catalog/index.ts';
import { createDropOrder } from './create-drop-order.ts';
import { lotteryWinQuota } from './phase-gate.ts';
import { phaseQuotaTaken } from './phase-quota.ts';
import { currentPhase, phasePlan, phaseViews, timeline } from './phases.ts';
import { lotteryView, myLottery } from './lottery.ts';
import { quotaTaken } from './quota.ts';
import { dropRelease, saleStatus } from './release.ts';
import { dropSettings } from './settings.ts';
import { stockOf } from './stock.ts';
import { myWhitelist } from './whitelist.ts';

/**
 * The mint pages' calls (docs/drops.md "Sale phases"):
 * GET /official/mint/ (public), mintinfo and nftmint (login). Times are server time.
 */

/** A release as the mint pages show it: phases with their effective windows, live stock, the lottery's public facts. */
export async function mintRelease(ctx: AppContext, projectId: number, now = ctx.now()): Promise<MintRelease | null> {
  const release = await dropRelease(ctx, projectId);
  if (!release) return null;
  const [plan, stock, creator] = await Promise.all([
    phasePlan(ctx, projectId),
    stockOf(ctx, projectId),
    ctx.db.kysely.selectFrom('projects').innerJoin('creators', 'creators.id', 'projects.creator_id').select('creators.name').where('projects.id', '=', projectId).executeTakeFirst(),
  ]);
  const s = stock ?? { supply: release.supply, taken: 0, paid: 0 };
  const t = timeline(plan);
  const cur = currentPhase(t, now);
  return {
    projectId,
    name: release.name,
    cover: release.cover,
    creatorName: creator?.name ?? '',
    priceFen: release.priceFen,
    supply: s.supply,
    minted: Math.min(s.taken, s.supply),
    remaining: Math.max(0, s.supply - s.taken),
    status: saleStatus(release, s, now),
    phases: phaseViews(t, now),
    current: cur ? t.indexOf(cur) : null,
    lottery: await lotteryView(ctx, plan, t),
  };
}

/** GET /official/mint/?projectId=: one release, or (no id) the releases with phases that are not over, soonest first (at most 50). */
export async function officialMint(ctx: AppContext, projectId?: number): Promise<OfficialMint> {
  const now = ctx.now();
  if (projectId !== undefined) {
    const r = await mintRelease(ctx, projectId, now);
    if (!r) throw notFound('projectNotFound');
    return { serverTime: now, list: [r] };
  }
  const ids = await ctx.db.kysely
    .selectFrom('drop_phases')
    .innerJoin('projects', 'projects.id', 'drop_phases.project_id')
    .select('drop_phases.project_id')
    .where((eb) => eb.or([eb('projects.sale_end_at', 'is', null), eb('projects.sale_end_at', '>', now)]))
    .groupBy('drop_phases.project_id')
    .orderBy((eb) => eb.fn.min('drop_phases.start_at'))
    .limit(50)
    .execute();
  const list = (await Promise.all(ids.map((r) => mintRelease(ctx, Number(r.project_id), now)))).filter((r): r is MintRelease => r !== null && r.phases.some((p) => p.state !== 'ended'));
  return { serverTime: now, list };
}

/** POST /api/user/mint/v1/mintinfo {projectId}: the release, the current phase and the caller's standing in it. */
export async function mintInfo(ctx: AppContext, userId: number, projectId: number): Promise<MintInfo> {
  const now = ctx.now();
  const base = await mintRelease(ctx, projectId, now);
  if (!base) throw notFound('projectNotFound');
  const q = ctx.db.kysely;
  const [plan, settings, wl, u] = await Promise.all([
    phasePlan(ctx, projectId),
    dropSettings(ctx, projectId),
    myWhitelist(ctx, userId, projectId),
    q.selectFrom('users').leftJoin('realname', 'realname.user_id', 'users.id').select(['users.wallet_address', 'realname.id_digest', 'realname.adult']).where('users.id', '=', userId).executeTakeFirst(),
  ]);
  const identity = u?.id_digest ?? null;
  const cur = base.current === null ? null : base.phases[base.current]!;
  const lotteryMine = await myLottery(ctx, identity, projectId, plan);
  let quota = 0;
  let used = 0;
  let eligible = false;
  const kind = plan.phases.length === 0 ? (base.status === 'on_sale' ? 'public' : null) : (cur?.kind ?? null);
  switch (kind) {
    case 'public':
      quota = settings.perIdentityLimit;
      used = identity ? await quotaTaken(q, projectId, identity) : 0;
      eligible = !!identity;
      break;
    case 'whitelist':
    case 'claim':
      quota = wl.quota;
      used = wl.used;
      eligible = !!identity && quota > 0;
      break;
    case 'lottery_rights':
      quota = identity ? await lotteryWinQuota(q, projectId, identity) : 0;
      used = identity ? await phaseQuotaTaken(q, projectId, 'lottery', identity) : 0;
      eligible = quota > 0;
      break;
    case 'lottery_signup':
      eligible = !!identity && !lotteryMine?.entered && plan.lottery?.status === 'open';
      break;
  }
  const remaining = Math.max(0, quota - used);
  if (kind !== 'lottery_signup') eligible = eligible && remaining > 0 && base.remaining > 0;
  return {
    ...base,
    serverTime: now,
    my: { verified: !!identity, eligible, whitelisted: wl.quota > 0, whitelistQuota: wl.quota, whitelistUsed: wl.used, quota, used, remaining, maxPerOrder: settings.maxPerOrder },
    lotteryMine,
  };
}

/** POST /api/user/mint/v1/nftmint {projectId, count}: the free claim of a whitelisted identity in a claim phase. */
export function nftmint(ctx: AppContext, userId: number, input: { projectId: number; count?: number | null }): Promise<OrderDetail> {
  return createDropOrder(ctx, userId, { projectId: input.projectId, count: input.count ?? 1 }, 'claim');
}
