import { Status } from '@cfx/contract/envelope.ts';
import { NEWS_LIMITS, type NewsState } from '@cfx/contract/admin-catalog-rules.ts';
import type { Q } from '../../db/tx.ts';
import { ApiError } from '../../http/envelope.ts';
import { richTextToPlain, sanitizeRichText } from '../../util/rich-text.ts';

/**
 * Writing news (the console's news editor, docs/admin.md "Catalogue and content"). Every function
 * runs inside the caller's transaction (the console writes its audit row in the same one). The
 * public calls (list, hot, placed, detail) read the table afresh on every request and show an item
 * when `draft = 0` and `published_at <= now` — so a publish, an edit or a deletion is visible on the
 * next request, in every server process; nothing is cached.
 *
 * The body is sanitised here with the site's allow-list (util/rich-text.ts) whatever the client
 * sent; a summary left empty is the body's first plain-text characters.
 */
export interface NewsInput {
  title: string;
  category: string;
  /** An image URL the caller has checked (an upload or a generated image). */
  cover: string;
  summary?: string | null;
  contentHtml: string;
  author?: string | null;
  isHot?: boolean | null;
  isPlace?: boolean | null;
  placeSort?: number | null;
  /** null / omitted: now (when published); a future time schedules the item. */
  publishedAt?: number | null;
  draft?: boolean | null;
}

const bad = (key: 'newsBadTitle' | 'newsBadCategory' | 'newsBadSummary' | 'newsBadContent' | 'newsBadAuthor', vars: Record<string, number> = {}) => new ApiError(Status.INVALID, key, vars);
const oneLine = (s: string) => !/[\r\n\u0000]/.test(s);

/** The row values of a news item from the editor's input (checked, body sanitised). */
export function newsValues(input: NewsInput, now: number) {
  const title = input.title.trim();
  if (!title || [...title].length > NEWS_LIMITS.titleMax || !oneLine(title)) throw bad('newsBadTitle', { n: NEWS_LIMITS.titleMax });
  const category = input.category.trim();
  if (!category || [...category].length > NEWS_LIMITS.categoryMax || !oneLine(category)) throw bad('newsBadCategory', { n: NEWS_LIMITS.categoryMax });
  const html = sanitizeRichText(input.contentHtml);
  const plain = richTextToPlain(html);
  if ((!plain && !/<img\s/i.test(html)) || html.length > NEWS_LIMITS.contentMax) throw bad('newsBadContent', { n: NEWS_LIMITS.contentMax });
  let summary = (input.summary ?? '').replace(/\s+/g, ' ').trim();
  if ([...summary].length > NEWS_LIMITS.summaryMax) throw bad('newsBadSummary', { n: NEWS_LIMITS.summaryMax });
  if (!summary) summary = [...plain].slice(0, 120).join('');
  const author = (input.author ?? '').trim();
  if ([...author].length > NEWS_LIMITS.authorMax || !oneLine(author)) throw bad('newsBadAuthor', { n: NEWS_LIMITS.authorMax });
  return {
    title,
    category,
    cover: input.cover,
    summary,
    content_html: html,
    author,
    is_hot: input.isHot ? 1 : 0,
    is_place: input.isPlace ? 1 : 0,
    place_sort: input.placeSort ?? 0,
    published_at: input.publishedAt ?? now,
    draft: input.draft ? 1 : 0,
    updated_at: now,
  };
}

export function newsState(r: { draft: number; published_at: number }, now: number): NewsState {
  if (Number(r.draft) === 1) return 'draft';
  return Number(r.published_at) > now ? 'scheduled' : 'published';
}

export const newsNotFound = () => new ApiError(Status.NOT_FOUND_ITEM, 'newsNotFound', {}, 404);

async function current(trx: Q, id: number) {
  const r = await trx.selectFrom('news').select(['id', 'title', 'draft', 'published_at', 'is_hot', 'is_place', 'category']).where('id', '=', id).executeTakeFirst();
  if (!r) throw newsNotFound();
  return r;
}

/** Creates (no id) or replaces a news item. Answers its id with a before/after summary. */
export async function saveNews(trx: Q, id: number | null, input: NewsInput, now: number) {
  const v = newsValues(input, now);
  if (id === null) {
    const row = await trx
      .insertInto('news')
      .values({ ...v, views: 0, created_at: now })
      .returning('id')
      .executeTakeFirstOrThrow();
    return { id: Number(row.id), before: null, after: { title: v.title, state: newsState(v, now), isHot: !!v.is_hot, isPlace: !!v.is_place } };
  }
  const before = await current(trx, id);
  await trx.updateTable('news').set(v).where('id', '=', id).execute();
  return {
    id,
    before: { title: before.title, state: newsState(before, now), isHot: Number(before.is_hot) === 1, isPlace: Number(before.is_place) === 1 },
    after: { title: v.title, state: newsState(v, now), isHot: !!v.is_hot, isPlace: !!v.is_place },
  };
}

/**
 * Publishes (draft → shown from now, or from its own later time when it has one) or unpublishes
 * (→ draft) an item. Answers the state before and after.
 */
export async function setNewsPublished(trx: Q, id: number, publish: boolean, now: number) {
  const before = await current(trx, id);
  const at = Number(before.published_at);
  const set = publish ? { draft: 0, published_at: Number(before.draft) === 1 && at < now ? now : at, updated_at: now } : { draft: 1, updated_at: now };
  await trx.updateTable('news').set(set).where('id', '=', id).execute();
  const after = { draft: set.draft, published_at: set.published_at ?? at };
  return { id, title: before.title, before: newsState(before, now), after: newsState(after, now) };
}

/**
 * Deletes an item. Recommend-list entries pointing at it are removed and banners linking to it
 * switched off in the same transaction (they would lead to a missing page).
 */
export async function deleteNews(trx: Q, id: number, now: number) {
  const before = await current(trx, id);
  const items = await trx.deleteFrom('recommend_items').where('item_type', '=', 'news').where('item_id', '=', id).executeTakeFirst();
  const banners = await trx.updateTable('banners').set({ active: 0 }).where('link_type', '=', 'news').where('link_target', '=', String(id)).where('active', '=', 1).executeTakeFirst();
  await trx.deleteFrom('news').where('id', '=', id).execute();
  return {
    id,
    title: before.title,
    state: newsState(before, now),
    recommendItemsRemoved: Number(items.numDeletedRows ?? 0),
    bannersSwitchedOff: Number(banners.numUpdatedRows ?? 0),
  };
}
