import type { CreatorCard } from '@cfx/contract/catalog.ts';
import type { Page } from '@cfx/contract/paging.ts';
import type { AppContext } from '../../context.ts';
import { jsonArray, notFound } from './repo.ts';

function creatorQuery(ctx: AppContext) {
  return ctx.db.kysely
    .selectFrom('creators')
    .innerJoin('users', 'users.id', 'creators.user_id')
    .select((e) => [
      'creators.id',
      'creators.name',
      'creators.avatar',
      'creators.banner',
      'creators.intro',
      'creators.media_links',
      'creators.created_at',
      'creators.verified_at',
      'creators.disabled_at',
      'users.account_id',
      e.selectFrom('projects').select((p) => p.fn.countAll<number>().as('n')).whereRef('projects.creator_id', '=', 'creators.id').as('project_count'),
    ]);
}
type CreatorRow = Awaited<ReturnType<ReturnType<typeof creatorQuery>['executeTakeFirstOrThrow']>>;

const INTRO_CARD_MAX = 80;
function toCard(r: CreatorRow): CreatorCard {
  const intro = [...r.intro];
  return {
    id: Number(r.id),
    accountId: r.account_id,
    name: r.name,
    avatar: r.avatar,
    banner: r.banner,
    intro: intro.length > INTRO_CARD_MAX ? `${intro.slice(0, INTRO_CARD_MAX).join('')}…` : r.intro,
    projectCount: Number(r.project_count ?? 0),
    verified: r.verified_at !== null && r.verified_at !== undefined,
  };
}

/**
 * A creator's page: profile, media links and counts. By user account id (the /creator/{accountId}
 * route) or creator id. Followers come from creator_stats (kept by modules/creators/follow-creator.ts);
 * `following` is whether `viewerId` (the caller, when signed in) follows them. A creator disabled by
 * staff is not found (1404), except by themself (their own page and profile edit keep working).
 */
export async function queryCreator(ctx: AppContext, by: { accountId?: string | null; id?: number }, viewerId?: number) {
  let q = creatorQuery(ctx);
  if (by.accountId) q = q.where('users.account_id', '=', by.accountId.trim());
  else if (by.id !== undefined) q = q.where('creators.id', '=', by.id);
  else throw notFound('creatorNotFound');
  const r = await q.executeTakeFirst();
  if (!r) throw notFound('creatorNotFound');
  if (r.disabled_at !== null && r.disabled_at !== undefined) {
    const own = viewerId !== undefined && (await ctx.db.kysely.selectFrom('creators').select('id').where('id', '=', Number(r.id)).where('user_id', '=', viewerId).executeTakeFirst());
    if (!own) throw notFound('creatorNotFound');
  }
  const stats = await ctx.db.kysely
    .selectFrom('goods')
    .innerJoin('projects', 'projects.id', 'goods.project_id')
    .select((e) => [e.fn.countAll<number>().as('goods'), e.fn.count<number>('goods.owner_user_id').distinct().as('holders')])
    .where('projects.creator_id', '=', Number(r.id))
    // Burned collectibles (opened boxes, composed fragments) no longer exist: not counted, nor their last holders.
    .where('goods.status', '!=', 'burned')
    .executeTakeFirst();
  const creatorId = Number(r.id);
  const [followers, moments, follow] = await Promise.all([
    ctx.db.kysely.selectFrom('creator_stats').select('followers').where('creator_id', '=', creatorId).executeTakeFirst(),
    ctx.db.kysely
      .selectFrom('creator_moments')
      .select((e) => e.fn.countAll<number>().as('n'))
      .where('creator_id', '=', creatorId)
      .where('deleted_at', 'is', null)
      .executeTakeFirst(),
    viewerId === undefined
      ? undefined
      : ctx.db.kysely.selectFrom('follows').select('creator_id').where('user_id', '=', viewerId).where('creator_id', '=', creatorId).executeTakeFirst(),
  ]);
  return {
    ...toCard(r),
    intro: r.intro,
    mediaLinks: jsonArray<{ type?: unknown; label?: unknown; url?: unknown }>(r.media_links)
      .filter((m) => typeof m?.url === 'string' && /^https?:\/\//.test(m.url))
      .map((m) => ({ type: String(m.type ?? 'link'), label: String(m.label ?? ''), url: String(m.url) })),
    goodsCount: Number(stats?.goods ?? 0),
    holderCount: Number(stats?.holders ?? 0),
    createdAt: Number(r.created_at),
    followerCount: Number(followers?.followers ?? 0),
    momentCount: Number(moments?.n ?? 0),
    following: follow !== undefined,
  };
}

/** The creators directory, in the platform's order (creators disabled by staff left out). */
export async function listCreators(ctx: AppContext, pageNum: number, pageSize: number): Promise<Page<CreatorCard>> {
  const count = await ctx.db.kysely.selectFrom('creators').select((e) => e.fn.countAll<number>().as('n')).where('disabled_at', 'is', null).executeTakeFirst();
  const rows = await creatorQuery(ctx).where('creators.disabled_at', 'is', null).orderBy('creators.sort', 'desc').orderBy('creators.id', 'asc').limit(pageSize).offset((pageNum - 1) * pageSize).execute();
  return { list: rows.map(toCard), total: Number(count?.n ?? 0), pageNum, pageSize };
}

/** Cards of enabled creators by id (search results, recommend lists); disabled ones are left out. */
export async function creatorCardsByIds(ctx: AppContext, ids: number[]): Promise<Map<number, CreatorCard>> {
  const out = new Map<number, CreatorCard>();
  if (!ids.length) return out;
  for (const r of await creatorQuery(ctx).where('creators.id', 'in', ids).where('creators.disabled_at', 'is', null).execute()) out.set(Number(r.id), toCard(r));
  return out;
}
