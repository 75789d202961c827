import type { z } from 'zod';
import type { recommendItem } from '@cfx/contract/content.ts';
import type { AppContext } from '../../context.ts';
import { goodsCardsByIds, projectCardsByIds } from '../catalog/index.ts';
import { creatorCardsByIds } from '../catalog/index.ts';
import { newsCardsByIds } from './list-news.ts';

type ItemType = 'project' | 'goods' | 'creator' | 'news';
type RecommendItem = z.infer<typeof recommendItem>;

/** Recommend lists (home modules) with their items resolved to cards; items that no longer exist are left out. */
export async function listRecommend(ctx: AppContext, code?: string | null) {
  let lq = ctx.db.kysely.selectFrom('recommend_lists').selectAll().orderBy('sort', 'asc').orderBy('id', 'asc');
  if (code) lq = lq.where('code', '=', code);
  const lists = await lq.limit(50).execute();
  if (!lists.length) return [];
  const items = await ctx.db.kysely
    .selectFrom('recommend_items')
    .selectAll()
    .where('list_id', 'in', lists.map((l) => Number(l.id)))
    .orderBy('sort', 'asc')
    .orderBy('id', 'asc')
    .execute();
  const ids = (t: ItemType) => [...new Set(items.filter((i) => i.item_type === t).map((i) => Number(i.item_id)))];
  const [projects, goods, creators, news] = await Promise.all([
    projectCardsByIds(ctx, ids('project')),
    goodsCardsByIds(ctx, ids('goods')),
    creatorCardsByIds(ctx, ids('creator')),
    newsCardsByIds(ctx, ids('news')),
  ]);
  return lists.map((l) => ({
    code: l.code,
    title: l.title,
    items: items
      .filter((i) => Number(i.list_id) === Number(l.id))
      .flatMap((i): RecommendItem[] => {
        const id = Number(i.item_id);
        switch (i.item_type as ItemType) {
          case 'project': { const project = projects.get(id); return project ? [{ type: 'project', id, project }] : []; }
          case 'goods': { const g = goods.get(id); return g ? [{ type: 'goods', id, goods: g }] : []; }
          case 'creator': { const creator = creators.get(id); return creator ? [{ type: 'creator', id, creator }] : []; }
          case 'news': { const n = news.get(id); return n ? [{ type: 'news', id, news: n }] : []; }
          default: return [];
        }
      }),
  }));
}
