import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import * as I from '@cfx/contract/invites.ts';
import { InvitePaths } from '@cfx/contract/routes.ts';
import type { AppContext } from '../../context.ts';
import { requireUserId } from '../accounts/index.ts';
import { ok } from '../../http/envelope.ts';
import { listInviteRecords } from './list-invite-records.ts';

/** Invite records (issue #11): the users I invited, masked, with the totals. */
export function inviteRoutes(app: FastifyInstance, ctx: AppContext) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.post(InvitePaths.records, { schema: { tags: ['user'], body: I.inviteRecordsBody, response: { 200: I.inviteRecordsResponse } } }, async (req, reply) => {
    const userId = await requireUserId(ctx, req);
    reply.header('cache-control', 'private, no-store');
    return ok(req, await listInviteRecords(ctx, userId, req.body));
  });
}
