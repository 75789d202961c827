import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import * as M from '@cfx/contract/market.ts';
import { OrderPaths } from '@cfx/contract/routes.ts';
import type { AppContext } from '../../context.ts';
import { requireUserId } from '../accounts/index.ts';
import { ok } from '../../http/envelope.ts';
import { getBalance } from './get-balance.ts';

export function ledgerRoutes(app: FastifyInstance, ctx: AppContext) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get(OrderPaths.balance, { schema: { tags: ['payments'], response: { 200: M.balanceResponse } } }, async (req) => {
    return ok(req, await getBalance(ctx, await requireUserId(ctx, req)));
  });
}
