import { Status } from '@cfx/contract/envelope.ts';
import { BANNER_LIMITS, RECOMMEND_CODE_RE, RECOMMEND_LIMITS, type BannerLinkTypeValue, type BannerPositionValue, type RecommendItemTypeValue } from '@cfx/contract/admin-catalog-rules.ts';
import type { Q } from '../../db/tx.ts';
import { ApiError } from '../../http/envelope.ts';

/**
 * Writing banners and recommend lists (the console's banner editor, docs/admin.md "Catalogue and
 * content"), inside the caller's transaction. The public calls — indexBanner, newsBannerList,
 * POST /background/banner/list, POST /background/getRecommendList — read these tables on every
 * request (no cache), so an edit shows on the next request in every process. A banner shows when
 * `active = 1` and now is inside [start_at, end_at) (null = unbounded); recommend items are
 * resolved to cards at read time (a deleted release or news item just drops out).
 */
export interface BannerInput {
  position: BannerPositionValue;
  title: string;
  subtitle?: string | null;
  /** An image URL the caller has checked (an upload or a generated image). */
  image: string;
  linkType: BannerLinkTypeValue;
  linkTarget: string;
  sort?: number | null;
  active?: boolean | null;
  startAt?: number | null;
  endAt?: number | null;
}

const invalid = (key: 'bannerBadTitle' | 'bannerBadLink' | 'bannerBadWindow' | 'recommendBadCode' | 'recommendBadTitle' | 'recommendBadItem' | 'recommendTooMany', vars: Record<string, number | string> = {}) =>
  new ApiError(Status.INVALID, key, vars);
const oneLine = (s: string) => !/[\r\n\u0000]/.test(s);

/** A site path (not `//host` or `/\host`) or an http(s) URL. */
export function safeLinkUrl(u: string): boolean {
  if (u.length > BANNER_LIMITS.urlMax || /[\s\u0000-\u001f]/.test(u)) return false;
  if (u.startsWith('/')) return !u.startsWith('//') && !u.startsWith('/\\');
  try {
    const x = new URL(u);
    return (x.protocol === 'https:' || x.protocol === 'http:') && !!x.hostname;
  } catch {
    return false;
  }
}

/** Whether the thing a link / a recommend item points at exists (and can be shown). */
export async function targetExists(q: Q, type: RecommendItemTypeValue, id: number): Promise<boolean> {
  if (!Number.isSafeInteger(id) || id < 1) return false;
  switch (type) {
    case 'project':
      return !!(await q.selectFrom('projects').select('id').where('id', '=', id).executeTakeFirst());
    case 'goods':
      return !!(await q.selectFrom('goods').select('id').where('id', '=', id).where('status', '!=', 'burned').executeTakeFirst());
    case 'news':
      return !!(await q.selectFrom('news').select('id').where('id', '=', id).executeTakeFirst());
    case 'creator':
      return !!(await q.selectFrom('creators').select('id').where('id', '=', id).executeTakeFirst());
  }
}

async function bannerValues(trx: Q, b: BannerInput) {
  const title = b.title.trim();
  if (!title || [...title].length > BANNER_LIMITS.titleMax || !oneLine(title)) throw invalid('bannerBadTitle', { n: BANNER_LIMITS.titleMax });
  const subtitle = (b.subtitle ?? '').trim();
  if ([...subtitle].length > BANNER_LIMITS.subtitleMax || !oneLine(subtitle)) throw invalid('bannerBadTitle', { n: BANNER_LIMITS.subtitleMax });
  const target = b.linkTarget.trim();
  if (b.linkType === 'url') {
    if (!safeLinkUrl(target)) throw invalid('bannerBadLink');
  } else if (!/^\d{1,15}$/.test(target) || !(await targetExists(trx, b.linkType, Number(target)))) {
    throw invalid('bannerBadLink');
  }
  const startAt = b.startAt ?? null;
  const endAt = b.endAt ?? null;
  if (startAt !== null && endAt !== null && endAt <= startAt) throw invalid('bannerBadWindow');
  return { position: b.position, title, subtitle, image: b.image, link_type: b.linkType, link_target: target, sort: b.sort ?? 0, active: b.active === false ? 0 : 1, start_at: startAt, end_at: endAt };
}

const bannerNotFound = () => new ApiError(Status.NOT_FOUND_ITEM, 'bannerNotFound', {}, 404);

/** Creates (no id) or replaces a banner. */
export async function saveBanner(trx: Q, id: number | null, input: BannerInput, now: number) {
  const v = await bannerValues(trx, input);
  const summary = (x: { position: string; title: string; link_type: string; link_target: string; active: number; sort: number }) => ({
    position: x.position, title: x.title, link: `${x.link_type}:${x.link_target}`, active: Number(x.active) === 1, sort: Number(x.sort),
  });
  if (id === null) {
    const row = await trx.insertInto('banners').values({ ...v, created_at: now }).returning('id').executeTakeFirstOrThrow();
    return { id: Number(row.id), before: null, after: summary(v) };
  }
  const before = await trx.selectFrom('banners').selectAll().where('id', '=', id).executeTakeFirst();
  if (!before) throw bannerNotFound();
  await trx.updateTable('banners').set(v).where('id', '=', id).execute();
  return { id, before: summary(before), after: summary(v) };
}

export async function deleteBanner(trx: Q, id: number) {
  const before = await trx.selectFrom('banners').select(['id', 'position', 'title']).where('id', '=', id).executeTakeFirst();
  if (!before) throw bannerNotFound();
  await trx.deleteFrom('banners').where('id', '=', id).execute();
  return { id, position: before.position, title: before.title };
}

export interface RecommendInput {
  code: string;
  title: string;
  sort?: number | null;
  items: { type: RecommendItemTypeValue; id: number }[];
}

const recommendNotFound = () => new ApiError(Status.NOT_FOUND_ITEM, 'recommendNotFound', {}, 404);

/**
 * Creates (no id) or replaces a recommend list with its items in the given order (sort 1, 2, …).
 * Codes are unique (the public call selects lists by code); every item must exist.
 */
export async function saveRecommendList(trx: Q, id: number | null, input: RecommendInput) {
  const code = input.code.trim();
  if (!RECOMMEND_CODE_RE.test(code)) throw invalid('recommendBadCode');
  const title = input.title.trim();
  if (!title || [...title].length > RECOMMEND_LIMITS.titleMax || !oneLine(title)) throw invalid('recommendBadTitle', { n: RECOMMEND_LIMITS.titleMax });
  if (input.items.length > RECOMMEND_LIMITS.itemsMax) throw invalid('recommendTooMany', { n: RECOMMEND_LIMITS.itemsMax });
  const seen = new Set<string>();
  for (const [i, it] of input.items.entries()) {
    const k = `${it.type}:${it.id}`;
    if (seen.has(k) || !(await targetExists(trx, it.type, it.id))) throw invalid('recommendBadItem', { i: i + 1 });
    seen.add(k);
  }
  const clash = await trx.selectFrom('recommend_lists').select('id').where('code', '=', code).executeTakeFirst();
  if (clash && Number(clash.id) !== id) throw new ApiError(Status.INVALID, 'recommendCodeTaken', { code });
  let listId: number;
  let before: { code: string; title: string; items: number } | null = null;
  if (id === null) {
    const row = await trx.insertInto('recommend_lists').values({ code, title, sort: input.sort ?? 0 }).returning('id').executeTakeFirstOrThrow();
    listId = Number(row.id);
  } else {
    const old = await trx.selectFrom('recommend_lists').select(['id', 'code', 'title']).where('id', '=', id).executeTakeFirst();
    if (!old) throw recommendNotFound();
    const n = await trx.selectFrom('recommend_items').select((e) => e.fn.countAll<number>().as('n')).where('list_id', '=', id).executeTakeFirstOrThrow();
    before = { code: old.code, title: old.title, items: Number(n.n) };
    await trx.updateTable('recommend_lists').set({ code, title, sort: input.sort ?? 0 }).where('id', '=', id).execute();
    await trx.deleteFrom('recommend_items').where('list_id', '=', id).execute();
    listId = id;
  }
  if (input.items.length) {
    await trx
      .insertInto('recommend_items')
      .values(input.items.map((it, i) => ({ list_id: listId, item_type: it.type, item_id: it.id, sort: i + 1 })))
      .execute();
  }
  return { id: listId, before, after: { code, title, items: input.items.map((it) => `${it.type}:${it.id}`) } };
}

export async function deleteRecommendList(trx: Q, id: number) {
  const old = await trx.selectFrom('recommend_lists').select(['id', 'code', 'title']).where('id', '=', id).executeTakeFirst();
  if (!old) throw recommendNotFound();
  const items = await trx.deleteFrom('recommend_items').where('list_id', '=', id).executeTakeFirst();
  await trx.deleteFrom('recommend_lists').where('id', '=', id).execute();
  return { id, code: old.code, title: old.title, items: Number(items.numDeletedRows ?? 0) };
}
