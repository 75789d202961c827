import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { envelope } from '@cfx/contract/envelope.ts';
import { UserPaths } from '@cfx/contract/routes.ts';
import { emptyResponse, realnameBody, realnameInfo } from '@cfx/contract/user.ts';
import type { AppContext } from '../../context.ts';
import { requireUserId } from '../accounts/index.ts';
import { ok } from '../../http/envelope.ts';
import { getRealnameInfo, submitRealname } from './submit-realname.ts';

export function kycRoutes(app: FastifyInstance, ctx: AppContext) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['realname'];
  r.post(UserPaths.getrealnameinfo, { schema: { tags, response: { 200: envelope(realnameInfo.nullable()) } } }, async (req) => {
    return ok(req, await getRealnameInfo(ctx, await requireUserId(ctx, req)));
  });
  r.post(UserPaths.submitrealname, { schema: { tags, body: realnameBody, response: { 200: emptyResponse } } }, async (req) => {
    await submitRealname(ctx, await requireUserId(ctx, req), req.body);
    return ok(req, null, 'realnameOk');
  });
}
