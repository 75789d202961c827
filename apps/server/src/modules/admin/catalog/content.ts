import { sql } from 'kysely';
import type { AdminBanner, AdminNewsDetail, AdminNewsRow, AdminRecommendList, ContentTarget } from '@cfx/contract/admin-catalog.ts';
import type { BannerLinkTypeValue, BannerPositionValue, NewsState, RecommendItemTypeValue } from '@cfx/contract/admin-catalog-rules.ts';
import type { Page } from '@cfx/contract/admin.ts';
import type { AppContext } from '../../../context.ts';
import type { Q } from '../../../db/tx.ts';
import { newsNotFound, newsState } from '../../content/index.ts';
import { likeEscape } from '../users.ts';

/**
 * Reads of the news, banner and recommend-list editors (docs/admin.md "Catalogue and content"):
 * every item whatever its state (the public calls show only what is live), with labels for the
 * things banners and lists point at.
 */
type NewsRowDb = {
  id: number; title: string; category: string; cover: string; summary: string; author: string; is_hot: number; is_place: number; place_sort: number;
  views: number; published_at: number; draft: number; updated_at: number | null;
};
function newsRow(r: NewsRowDb, now: number): AdminNewsRow {
  return {
    id: Number(r.id),
    title: r.title,
    category: r.category,
    cover: r.cover,
    summary: r.summary,
    author: r.author,
    isHot: Number(r.is_hot) === 1,
    isPlace: Number(r.is_place) === 1,
    placeSort: Number(r.place_sort),
    views: Number(r.views),
    state: newsState(r, now),
    publishedAt: Number(r.published_at),
    updatedAt: r.updated_at === null ? null : Number(r.updated_at),
  };
}
const NEWS_COLUMNS = ['id', 'title', 'category', 'cover', 'summary', 'author', 'is_hot', 'is_place', 'place_sort', 'views', 'published_at', 'draft', 'updated_at'] as const;

export async function listNewsForStaff(ctx: AppContext, f: { q: string; category: string; state?: NewsState | null; pageNum: number; pageSize: number }): Promise<Page<AdminNewsRow> & { categories: string[] }> {
  const now = ctx.now();
  let q = ctx.db.kysely.selectFrom('news');
  if (f.q) q = /^\d{1,15}$/.test(f.q) ? q.where((e) => e.or([e('id', '=', Number(f.q)), e('title', 'like', `%${f.q}%`)])) : q.where(sql<boolean>`title like ${`%${likeEscape(f.q)}%`} escape '\\'`);
  if (f.category) q = q.where('category', '=', f.category);
  if (f.state === 'draft') q = q.where('draft', '=', 1);
  else if (f.state === 'published') q = q.where('draft', '=', 0).where('published_at', '<=', now);
  else if (f.state === 'scheduled') q = q.where('draft', '=', 0).where('published_at', '>', now);
  const total = Number((await q.select((e) => e.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
  const rows = await q.select(NEWS_COLUMNS).orderBy('published_at', 'desc').orderBy('id', 'desc').limit(f.pageSize).offset((f.pageNum - 1) * f.pageSize).execute();
  const cats = await ctx.db.kysely.selectFrom('news').select('category').distinct().orderBy('category').limit(100).execute();
  return { list: rows.map((r) => newsRow(r, now)), total, pageNum: f.pageNum, pageSize: f.pageSize, categories: cats.map((c) => c.category) };
}

export async function newsForStaff(ctx: AppContext, id: number): Promise<AdminNewsDetail> {
  const r = await ctx.db.kysely.selectFrom('news').select([...NEWS_COLUMNS, 'content_html']).where('id', '=', id).executeTakeFirst();
  if (!r) throw newsNotFound();
  return { ...newsRow(r, ctx.now()), contentHtml: r.content_html };
}

/** Names of the things links and list items point at ('' when gone). */
export async function targetLabels(q: Q, items: { type: RecommendItemTypeValue; id: number }[]): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  const ids = (t: RecommendItemTypeValue) => [...new Set(items.filter((i) => i.type === t).map((i) => i.id))];
  const put = (t: string, rows: { id: number; name: string }[]) => rows.forEach((r) => out.set(`${t}:${Number(r.id)}`, r.name));
  const p = ids('project');
  if (p.length) put('project', await q.selectFrom('projects').select(['id', 'name']).where('id', 'in', p).execute());
  const g = ids('goods');
  if (g.length) put('goods', await q.selectFrom('goods').select(['id', 'name']).where('id', 'in', g).where('status', '!=', 'burned').execute());
  const n = ids('news');
  if (n.length) put('news', await q.selectFrom('news').select(['id', 'title as name']).where('id', 'in', n).execute());
  const c = ids('creator');
  if (c.length) put('creator', await q.selectFrom('creators').select(['id', 'name']).where('id', 'in', c).execute());
  return out;
}

export async function listBannersForStaff(ctx: AppContext, position?: BannerPositionValue | null): Promise<AdminBanner[]> {
  const now = ctx.now();
  let q = ctx.db.kysely.selectFrom('banners').selectAll();
  if (position) q = q.where('position', '=', position);
  const rows = await q.orderBy('position').orderBy('sort').orderBy('id').limit(500).execute();
  const labels = await targetLabels(
    ctx.db.kysely,
    rows.filter((b) => b.link_type !== 'url' && /^\d{1,15}$/.test(b.link_target)).map((b) => ({ type: b.link_type as RecommendItemTypeValue, id: Number(b.link_target) })),
  );
  return rows.map((b) => {
    const startAt = b.start_at === null ? null : Number(b.start_at);
    const endAt = b.end_at === null ? null : Number(b.end_at);
    const active = Number(b.active) === 1;
    return {
      id: Number(b.id),
      position: b.position,
      title: b.title,
      subtitle: b.subtitle,
      image: b.image,
      linkType: b.link_type as BannerLinkTypeValue,
      linkTarget: b.link_target,
      linkLabel: b.link_type === 'url' ? '' : (labels.get(`${b.link_type}:${b.link_target}`) ?? ''),
      sort: Number(b.sort),
      active,
      startAt,
      endAt,
      live: active && (startAt === null || startAt <= now) && (endAt === null || endAt > now),
    };
  });
}

export async function listRecommendForStaff(ctx: AppContext): Promise<AdminRecommendList[]> {
  const lists = await ctx.db.kysely.selectFrom('recommend_lists').selectAll().orderBy('sort').orderBy('id').limit(200).execute();
  if (!lists.length) return [];
  const items = await ctx.db.kysely
    .selectFrom('recommend_items')
    .selectAll()
    .where('list_id', 'in', lists.map((l) => Number(l.id)))
    .orderBy('sort')
    .orderBy('id')
    .execute();
  const labels = await targetLabels(ctx.db.kysely, items.map((i) => ({ type: i.item_type, id: Number(i.item_id) })));
  return lists.map((l) => ({
    id: Number(l.id),
    code: l.code,
    title: l.title,
    sort: Number(l.sort),
    items: items
      .filter((i) => Number(i.list_id) === Number(l.id))
      .map((i) => {
        const label = labels.get(`${i.item_type}:${Number(i.item_id)}`);
        return { type: i.item_type, id: Number(i.item_id), label: label ?? '', missing: label === undefined };
      }),
  }));
}

/** Things a banner or a list can point at, by id or by part of the name (20 at most). */
export async function searchTargets(ctx: AppContext, type: RecommendItemTypeValue, text: string): Promise<ContentTarget[]> {
  const k = ctx.db.kysely;
  const t = text.trim();
  const like = sql<boolean>`${sql.ref(type === 'news' ? 'title' : 'name')} like ${`%${likeEscape(t)}%`} escape '\\'`;
  const byId = /^\d{1,15}$/.test(t) ? Number(t) : null;
  switch (type) {
    case 'project': {
      let q = k.selectFrom('projects').select(['id', 'name', 'category']);
      if (t) q = byId !== null ? q.where((e) => e.or([e('id', '=', byId), like])) : q.where(like);
      return (await q.orderBy('id', 'desc').limit(20).execute()).map((r) => ({ type, id: Number(r.id), label: r.name, sub: r.category }));
    }
    case 'goods': {
      let q = k.selectFrom('goods').select(['id', 'name', 'serial']).where('status', '!=', 'burned');
      if (t) q = byId !== null ? q.where((e) => e.or([e('id', '=', byId), like])) : q.where(like);
      return (await q.orderBy('id', 'desc').limit(20).execute()).map((r) => ({ type, id: Number(r.id), label: r.name, sub: `#${Number(r.serial)}` }));
    }
    case 'news': {
      let q = k.selectFrom('news').select(['id', 'title', 'category']);
      if (t) q = byId !== null ? q.where((e) => e.or([e('id', '=', byId), like])) : q.where(like);
      return (await q.orderBy('id', 'desc').limit(20).execute()).map((r) => ({ type, id: Number(r.id), label: r.title, sub: r.category }));
    }
    case 'creator': {
      let q = k.selectFrom('creators').innerJoin('users', 'users.id', 'creators.user_id').select(['creators.id', 'creators.name', 'users.account_id']);
      const cl = sql<boolean>`creators.name like ${`%${likeEscape(t)}%`} escape '\\'`;
      if (t) q = byId !== null ? q.where((e) => e.or([e('creators.id', '=', byId), cl])) : q.where(cl);
      return (await q.orderBy('creators.id', 'desc').limit(20).execute()).map((r) => ({ type, id: Number(r.id), label: r.name, sub: r.account_id }));
    }
  }
}
