import type { CreatorCard, GoodsCard, ProjectCard } from '@cfx/contract/catalog.ts';
import type { Page } from '@cfx/contract/paging.ts';
import type { AppContext } from '../../context.ts';
import { goodsCardsByIds, projectCardsByIds } from '../catalog/index.ts';
import { creatorCardsByIds } from '../catalog/index.ts';
import { getSearchIndex, type KindIndex } from './search-index.ts';
import { checkSearchText, ranked } from './search-text.ts';
import { recordSearch } from './search-history.ts';

/** Ranked id lists of recent terms, so paging through a popular term does not rescan (per index version). */
const CACHE_MAX = 200;
const cache = new Map<string, number[]>();
function matchIds(index: KindIndex, version: number, kind: string, term: string, newestFirst: boolean): number[] {
  const key = `${version}|${kind}|${term}`;
  let ids = cache.get(key);
  if (!ids) {
    ids = ranked(index, term, Infinity, newestFirst).map((h) => index.ids[h.idx]!);
    if (cache.size >= CACHE_MAX) cache.delete(cache.keys().next().value!);
    cache.set(key, ids);
  }
  return ids;
}

async function pageOf<T>(ids: number[], pageNum: number, pageSize: number, wanted: boolean, load: (ids: number[]) => Promise<Map<number, T>>): Promise<Page<T>> {
  if (!wanted) return { list: [], total: ids.length, pageNum, pageSize };
  const slice = ids.slice((pageNum - 1) * pageSize, pageNum * pageSize);
  const cards = await load(slice);
  return { list: slice.flatMap((id) => (cards.has(id) ? [cards.get(id)!] : [])), total: ids.length, pageNum, pageSize };
}

/**
 * The search results page: ranked releases, collectibles and creators as cards, paged. `type`
 * selects which lists get the page ('all': each); the others come back empty with their totals.
 * A signed-in user's search is recorded in their history.
 */
export async function queryFinal(
  ctx: AppContext,
  userId: number | undefined,
  body: { text?: string | null; pageNum: number; pageSize: number; type?: 'all' | '0' | '1' | '2' | null },
) {
  const { raw, term } = checkSearchText(body.text);
  const empty = <T>(): Page<T> => ({ list: [], total: 0, pageNum: body.pageNum, pageSize: body.pageSize });
  if (!term) return { text: raw, projects: empty<ProjectCard>(), goods: empty<GoodsCard>(), creators: empty<CreatorCard>() };
  if (userId !== undefined) await recordSearch(ctx, userId, raw);
  const index = await getSearchIndex(ctx);
  const type = body.type ?? 'all';
  const [projects, goods, creators] = await Promise.all([
    pageOf(matchIds(index.projects, index.version, 'p', term, true), body.pageNum, body.pageSize, type === 'all' || type === '0', (ids) => projectCardsByIds(ctx, ids)),
    pageOf(matchIds(index.goods, index.version, 'g', term, false), body.pageNum, body.pageSize, type === 'all' || type === '1', (ids) => goodsCardsByIds(ctx, ids)),
    pageOf(matchIds(index.creators, index.version, 'c', term, true), body.pageNum, body.pageSize, type === 'all' || type === '2', (ids) => creatorCardsByIds(ctx, ids)),
  ]);
  return { text: raw, projects, goods, creators };
}
