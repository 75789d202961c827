import { z } from 'zod';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { envelope } from '@cfx/contract/envelope.ts';
import { UserPaths } from '@cfx/contract/routes.ts';
import { walletChallenge, walletChallengeBody, walletLoginBody, walletStatus as walletStatusSchema } from '@cfx/contract/user.ts';
import type { AppContext } from '../../context.ts';
import { requireUserId, tokenOf } from '../accounts/index.ts';
import { ok } from '../../http/envelope.ts';
import { issueWalletChallenge, linkWallet, walletLogout, walletStatus } from './link-wallet.ts';

export function walletRoutes(app: FastifyInstance, ctx: AppContext) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['wallet'];
  r.post(UserPaths.walletchallenge, { schema: { tags, body: walletChallengeBody, response: { 200: envelope(walletChallenge.nullable()) } } }, async (req) => {
    return ok(req, await issueWalletChallenge(ctx, await requireUserId(ctx, req), req.body.walletAddress));
  });
  r.post(UserPaths.walletlogin, { schema: { tags, body: walletLoginBody, response: { 200: envelope(z.object({ walletAddress: z.string() }).nullable()) } } }, async (req) => {
    const userId = await requireUserId(ctx, req);
    return ok(req, await linkWallet(ctx, userId, tokenOf(req)!, req.body), 'walletLinked');
  });
  r.post(UserPaths.walletloginstatus, { schema: { tags, response: { 200: envelope(walletStatusSchema.nullable()) } } }, async (req) => {
    const userId = await requireUserId(ctx, req);
    return ok(req, await walletStatus(ctx, userId, tokenOf(req)!));
  });
  r.post(UserPaths.walletlogout, { schema: { tags, response: { 200: envelope(z.null()) } } }, async (req) => {
    await requireUserId(ctx, req);
    await walletLogout(ctx, tokenOf(req)!);
    return ok(req, null);
  });
}
