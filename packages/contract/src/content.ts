import { z } from 'zod';
import { creatorCard, goodsCard, projectCard } from './catalog.ts';
import { envelope } from './envelope.ts';
import { page, paging, safeText } from './paging.ts';

/**
 * News, banners and recommend lists — and the home modules.
 * Paths under `official` and `background` answer `code: 200` on success and keep `status`.
 */

export const newsCard = z.object({
  id: z.number().int(),
  title: z.string(),
  cover: z.string(),
  summary: z.string(),
  category: z.string(),
  isHot: z.boolean(),
  isPlace: z.boolean(),
  views: z.number().int(),
  publishedAt: z.number().int(),
});
export type NewsCard = z.infer<typeof newsCard>;
export const newsLink = z.object({ id: z.number().int(), title: z.string() });
export const newsDetail = newsCard.extend({
  author: z.string(),
  /** Sanitised HTML (allow-listed tags and attributes only). */
  contentHtml: z.string(),
  prev: newsLink.nullable(),
  next: newsLink.nullable(),
});
export const newsItemParams = z.object({ id: safeText(64) });
export const newsListQuery = z.object({ ...paging, category: safeText(32).nullish() });

export const bannerPosition = z.enum(['home', 'projects', 'market', 'news']);
export const bannerLinkType = z.enum(['project', 'goods', 'news', 'creator', 'url']);
export const banner = z.object({
  id: z.number().int(),
  position: bannerPosition,
  title: z.string(),
  subtitle: z.string(),
  image: z.string(),
  linkType: bannerLinkType,
  linkId: z.number().int().nullable(),
  /** Where a click goes: a site path for internal links, the URL for external ones. */
  url: z.string(),
});
export const bannerListBody = z.object({ position: bannerPosition.nullish() });

export const recommendItem = z.object({
  type: z.enum(['project', 'goods', 'creator', 'news']),
  id: z.number().int(),
  project: projectCard.optional(),
  goods: goodsCard.optional(),
  creator: creatorCard.optional(),
  news: newsCard.optional(),
});
export const recommendList = z.object({ code: z.string(), title: z.string(), items: z.array(recommendItem) });
export const recommendListBody = z.object({ code: safeText(32).nullish() });

export const imageQuery = z.object({
  id: safeText(64),
  /** Thumbnail width in pixels (16–2048); the height keeps the aspect ratio. */
  w: z.string().max(8).nullish(),
  /**
   * png: a raster rendition (16–1200 wide, default 1200) for link previews that do not show SVG;
   * webp / avif: a rendition for srcset, only at the server's rendition widths (120, 240, 480, 720, 960, 1200).
   */
  fmt: z.enum(['svg', 'png', 'webp', 'avif']).nullish(),
});

export const newsPageResponse = envelope(page(newsCard).nullable());
export const newsDetailResponse = envelope(newsDetail.nullable());
export const newsCardsResponse = envelope(z.array(newsCard).nullable());
export const bannersResponse = envelope(z.array(banner).nullable());
export const recommendListsResponse = envelope(z.array(recommendList).nullable());
