import { z } from 'zod';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import * as A from '@cfx/contract/account-security.ts';
import { envelope, Status } from '@cfx/contract/envelope.ts';
import { formatMessage } from '@cfx/contract/messages.ts';
import { SecurityPaths, UserPaths } from '@cfx/contract/routes.ts';
import { privacySetting } from '@cfx/contract/user.ts';
import type { AppContext } from '../../context.ts';
import { requireUserId } from '../accounts/index.ts';
import { body, langOf, ok } from '../../http/envelope.ts';
import { clientMeta } from '../accounts/index.ts';
import { applyCancellation, blockersText, CancelBlockedError, getCancelStatus, revokeCancellation } from './cancel-account.ts';
import { downloadExport, requestExport } from './export-data.ts';
import { getPrivacySettings, setPrivacySettings } from './privacy-settings.ts';
import { listUserCollection } from './user-collection.ts';

const DAY_MS = 24 * 3600_000;

/**
 * Privacy rights of the personal center (issue #11): the privacy switches, the public collection
 * they govern, account cancellation with its cooling-off period, and the personal-data export.
 */
export function privacyRoutes(app: FastifyInstance, ctx: AppContext) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['privacy'];
  const settingsResponse = { 200: envelope(privacySetting.nullable()) };

  r.post(UserPaths.privacySetting, { schema: { tags, response: settingsResponse } }, async (req) => {
    return ok(req, await getPrivacySettings(ctx, await requireUserId(ctx, req)));
  });
  r.post(SecurityPaths.privacySet, { schema: { tags, body: A.privacySetBody, response: settingsResponse } }, async (req) => {
    const userId = await requireUserId(ctx, req);
    return ok(req, await setPrivacySettings(ctx, userId, req.body, clientMeta(req)), 'privacySaved');
  });
  r.post(SecurityPaths.userCollection, { schema: { tags, body: A.userCollectionBody, response: { 200: A.userCollectionResponse } } }, async (req) => {
    return ok(req, await listUserCollection(ctx, req.body));
  });

  r.post(SecurityPaths.cancelStatus, { schema: { tags, response: { 200: A.cancelStatusResponse } } }, async (req, reply) => {
    const userId = await requireUserId(ctx, req);
    reply.header('cache-control', 'private, no-store');
    return ok(req, await getCancelStatus(ctx, userId));
  });
  r.post(SecurityPaths.cancelApply, { schema: { tags, body: A.cancelApplyBody, response: { 200: A.cancelApplyResponse } } }, async (req) => {
    const userId = await requireUserId(ctx, req);
    const lang = langOf(req);
    try {
      const request = await applyCancellation(ctx, userId, req.body, clientMeta(req));
      return body(Status.OK, request, formatMessage('cancelRequested', lang, { d: Math.round(ctx.config.privacy.cancelCoolingMs / DAY_MS) }));
    } catch (err) {
      if (err instanceof CancelBlockedError) return body(Status.ACCOUNT_HAS_ASSETS, { blockers: err.blockers }, blockersText(err.blockers, lang));
      throw err;
    }
  });
  r.post(SecurityPaths.cancelRevoke, { schema: { tags, response: { 200: envelope(z.null()) } } }, async (req) => {
    await revokeCancellation(ctx, await requireUserId(ctx, req), clientMeta(req));
    return ok(req, null, 'cancelRevoked');
  });

  r.post(SecurityPaths.exportApply, { schema: { tags, body: A.exportApplyBody, response: { 200: A.exportTicketResponse } } }, async (req, reply) => {
    const userId = await requireUserId(ctx, req);
    const { minutes, ...ticket } = await requestExport(ctx, userId, req.body, clientMeta(req));
    reply.header('cache-control', 'private, no-store');
    return body(Status.OK, ticket, formatMessage('exportReady', langOf(req), { m: minutes }));
  });
  r.get(
    SecurityPaths.exportDownload,
    { schema: { tags, querystring: z.object({ t: z.string().max(200).optional() }) } },
    async (req, reply) => {
      const file = await downloadExport(ctx, req.query.t, clientMeta(req));
      return reply
        .header('content-type', 'application/json; charset=utf-8')
        .header('content-disposition', `attachment; filename="${file.fileName}"`)
        .header('cache-control', 'private, no-store')
        .header('x-content-type-options', 'nosniff')
        .send(file.json);
    },
  );
}
