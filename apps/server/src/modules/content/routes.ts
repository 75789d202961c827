import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import * as N from '@cfx/contract/content.ts';
import { ContentPaths } from '@cfx/contract/routes.ts';
import type { AppContext } from '../../context.ts';
import { ok, okOfficial } from '../../http/envelope.ts';
import { getNews } from './get-news.ts';
import { listBanners } from './list-banners.ts';
import { listHotNews, listNews, listPlacedNews } from './list-news.ts';
import { listRecommend } from './list-recommend.ts';
import { serveImage } from './serve-image.ts';

/** News, banners, recommend lists and generated images. `official` / `background` paths answer code 200. */
export function contentRoutes(app: FastifyInstance, ctx: AppContext) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['content'];

  r.get(ContentPaths.indexBanner, { schema: { tags, response: { 200: N.bannersResponse } } }, async (req) => {
    return ok(req, await listBanners(ctx, 'home'));
  });
  r.get(ContentPaths.newsList, { schema: { tags, querystring: N.newsListQuery, response: { 200: N.newsPageResponse } } }, async (req) => {
    return okOfficial(req, await listNews(ctx, req.query));
  });
  r.get(ContentPaths.newsHot, { schema: { tags, response: { 200: N.newsCardsResponse } } }, async (req) => {
    return okOfficial(req, await listHotNews(ctx));
  });
  r.get(ContentPaths.newsBanners, { schema: { tags, response: { 200: N.bannersResponse } } }, async (req) => {
    return okOfficial(req, await listBanners(ctx, 'news'));
  });
  r.get(ContentPaths.newsPlace, { schema: { tags, response: { 200: N.newsCardsResponse } } }, async (req) => {
    return okOfficial(req, await listPlacedNews(ctx));
  });
  // Registered after the static news paths; find-my-way prefers static segments anyway.
  r.get(ContentPaths.newsItem, { schema: { tags, params: N.newsItemParams, response: { 200: N.newsDetailResponse } } }, async (req) => {
    return okOfficial(req, await getNews(ctx, req.params.id));
  });
  r.post(ContentPaths.bannerList, { schema: { tags, body: N.bannerListBody, response: { 200: N.bannersResponse } } }, async (req) => {
    return okOfficial(req, await listBanners(ctx, req.body.position ?? 'home'));
  });
  r.post(ContentPaths.recommendList, { schema: { tags, body: N.recommendListBody, response: { 200: N.recommendListsResponse } } }, async (req) => {
    return okOfficial(req, await listRecommend(ctx, req.body.code));
  });
  r.get(ContentPaths.image, { schema: { tags, querystring: N.imageQuery } }, async (req, reply) => {
    return serveImage(req, reply, req.query);
  });
}
