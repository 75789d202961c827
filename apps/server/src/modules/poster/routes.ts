import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { posterQuery } from '@cfx/contract/poster.ts';
import { PosterPaths } from '@cfx/contract/routes.ts';
import type { AppContext } from '../../context.ts';
import { servePoster } from './serve-poster.ts';

/** Share posters (issue #11): GET /official/poster/ → PNG (docs/api.md "Invites, tickets and posters"). */
export function posterRoutes(app: FastifyInstance, ctx: AppContext) {
  app.withTypeProvider<ZodTypeProvider>().get(PosterPaths.poster, { schema: { tags: ['content'], querystring: posterQuery } }, async (req, reply) => {
    return servePoster(ctx, req, reply, req.query);
  });
}
