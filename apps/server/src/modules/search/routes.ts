import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { Status } from '@cfx/contract/envelope.ts';
import { SearchPaths } from '@cfx/contract/routes.ts';
import * as S from '@cfx/contract/search.ts';
import type { AppContext } from '../../context.ts';
import { requireUserId, tokenOf } from '../accounts/index.ts';
import { ApiError, ok } from '../../http/envelope.ts';
import { findSessionUser } from '../accounts/index.ts';
import { queryFinal } from './query-final.ts';
import { querySuggestions } from './query-suggestions.ts';
import { deleteSearchHistory, listSearchHistory } from './search-history.ts';

/** Search: suggestions, the results page, and the signed-in user's history. */
export function searchRoutes(app: FastifyInstance, ctx: AppContext) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['search'];

  r.post(SearchPaths.query, { schema: { tags, body: S.queryBody, response: { 200: S.suggestionsResponse } } }, async (req) => {
    return ok(req, await querySuggestions(ctx, req.body.text));
  });
  r.post(SearchPaths.queryFinal, { schema: { tags, body: S.queryFinalBody, response: { 200: S.searchResultsResponse } } }, async (req) => {
    // Anyone may search; only a valid session records history (a stale token does not fail the search).
    const token = tokenOf(req);
    const userId = token ? await findSessionUser(ctx, token) : undefined;
    return ok(req, await queryFinal(ctx, userId, req.body));
  });
  r.get(SearchPaths.history, { schema: { tags, response: { 200: S.historyResponse } } }, async (req) => {
    // A visitor without a token has an empty history; a token that is no longer valid is 1100.
    if (!tokenOf(req)) return ok(req, []);
    return ok(req, await listSearchHistory(ctx, await requireUserId(ctx, req)));
  });
  r.post(SearchPaths.delHistory, { schema: { tags, body: S.delHistoryBody, response: { 200: S.emptyResponse } } }, async (req) => {
    const userId = await requireUserId(ctx, req);
    if (!req.body.all && !req.body.kw?.trim()) throw new ApiError(Status.INVALID, 'badParams');
    await deleteSearchHistory(ctx, userId, req.body.kw, Boolean(req.body.all));
    return ok(req, null);
  });
}
