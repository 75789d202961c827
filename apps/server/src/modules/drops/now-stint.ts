import type { NowStint } from '@cfx/contract/drops.ts';
import type { AppContext } from '../../context.ts';
import { notFound } from '../catalog/repo.ts';
import { quotaTaken } from './quota.ts';
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
  const bought = id ? await quotaTaken(ctx.db.kysely, projectId, id.id_digest) : 0;
  const s = stock ?? { supply: release.supply, taken: 0, paid: 0 };
  const now = ctx.now();
  return {
    projectId,
    limit: settings.perIdentityLimit,
    bought,
    remaining: id ? Math.max(0, settings.perIdentityLimit - bought) : 0,
    maxPerOrder: settings.maxPerOrder,
    verified: !!id,
    supply: s.supply,
    sold: Math.min(s.taken, s.supply),
    stockRemaining: Math.max(0, s.supply - s.taken),
    status: saleStatus(release, s, now),
    saleStartAt: release.saleStartAt,
    saleEndAt: release.saleEndAt,
    serverTime: now,
  };
}
