import type { AppContext } from '../../context.ts';
import { safeLinkUrl } from './edit-banners.ts';

type Position = 'home' | 'projects' | 'market' | 'news';
type LinkType = 'project' | 'goods' | 'news' | 'creator' | 'url';
const LINK_TYPES = new Set<LinkType>(['project', 'goods', 'news', 'creator', 'url']);

/**
 * Active banners of a position in their order, each with the site path (or external URL) a click
 * opens. Active = switched on in the console and inside its window (start_at / end_at, null =
 * unbounded) by server time; read afresh on every call, so an edit shows at once.
 */
export async function listBanners(ctx: AppContext, position: Position) {
  const now = ctx.now();
  const rows = await ctx.db.kysely
    .selectFrom('banners')
    .selectAll()
    .where('position', '=', position)
    .where('active', '=', 1)
    .where((e) => e.or([e('start_at', 'is', null), e('start_at', '<=', now)]))
    .where((e) => e.or([e('end_at', 'is', null), e('end_at', '>', now)]))
    .orderBy('sort', 'asc')
    .orderBy('id', 'asc')
    .limit(20)
    .execute();
  // Creator pages are addressed by the creator's user account id.
  const creatorIds = rows.filter((b) => b.link_type === 'creator').map((b) => Number(b.link_target)).filter(Number.isSafeInteger);
  const accounts = new Map<number, string>();
  if (creatorIds.length) {
    const cs = await ctx.db.kysely.selectFrom('creators').innerJoin('users', 'users.id', 'creators.user_id').select(['creators.id', 'users.account_id']).where('creators.id', 'in', creatorIds).execute();
    for (const c of cs) accounts.set(Number(c.id), c.account_id);
  }
  const out = [];
  for (const b of rows) {
    const linkType = b.link_type as LinkType;
    if (!LINK_TYPES.has(linkType)) continue;
    let url: string;
    let linkId: number | null = null;
    if (linkType === 'url') {
      // A site path or an http(s) URL; never `//host` (another site) or a script URL.
      if (!safeLinkUrl(b.link_target)) continue;
      url = b.link_target;
    } else {
      linkId = Number(b.link_target);
      if (!Number.isSafeInteger(linkId)) continue;
      if (linkType === 'project') url = `/projects/detail/${linkId}`;
      else if (linkType === 'goods') url = `/assets/${linkId}`;
      else if (linkType === 'news') url = `/news/${linkId}`;
      else {
        const acc = accounts.get(linkId);
        if (!acc) continue;
        url = `/creator/${acc}`;
      }
    }
    out.push({ id: Number(b.id), position, title: b.title, subtitle: b.subtitle, image: b.image, linkType, linkId, url });
  }
  return out;
}
