import { z } from 'zod';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { envelope } from '@cfx/contract/envelope.ts';
import { DevPaths } from '@cfx/contract/routes.ts';
import { captchaToken, smsOutboxItem } from '@cfx/contract/user.ts';
import type { AppContext } from '../../context.ts';
import { ok } from '../../http/envelope.ts';
import { issueCaptchaToken } from '../../providers/captcha/local-token.ts';
import { requireUserId } from '../accounts/index.ts';
import { grantCollectible } from './grant-collectible.ts';

/**
 * Development helpers, registered only while the matching sandbox is active: the SMS outbox
 * (sandbox SMS), captcha tokens without a slider (CAPTCHA_PROVIDER=test) and a collectible for
 * the caller (embedded dev chain only).
 */
export function devRoutes(app: FastifyInstance, ctx: AppContext) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  // hide: development helpers never appear in the API docs (/mvapi/docs).
  const tags = ['dev'];
  const hide = true;
  if (ctx.sms.name === 'sandbox') {
    r.get(
      DevPaths.smsOutbox,
      { schema: { hide, tags, querystring: z.object({ mobile: z.string().max(32).regex(/^\d*$/) }), response: { 200: envelope(z.array(smsOutboxItem).nullable()) } } },
      async (req) => {
        const rows = await ctx.db.kysely.selectFrom('sms_outbox').selectAll().where('mobile', '=', req.query.mobile).orderBy('id', 'desc').limit(50).execute();
        return ok(req, rows.map((m) => ({ mobile: m.mobile, type: m.type, code: m.code, createdAt: new Date(Number(m.created_at)).toISOString() })));
      },
    );
  }
  if (ctx.chain?.embedded) {
    r.post(
      DevPaths.grantCollectible,
      {
        schema: {
          hide,
          tags,
          body: z.object({ projectId: z.number().int().positive().optional() }),
          response: { 200: envelope(z.object({ goodsId: z.number().int(), tokenId: z.string() }).nullable()) },
        },
      },
      async (req) => ok(req, await grantCollectible(ctx, await requireUserId(ctx, req), req.body.projectId)),
    );
  }
  if (ctx.captcha.name === 'test') {
    r.post(DevPaths.captchaToken, { schema: { hide, tags, response: { 200: envelope(captchaToken.nullable()) } } }, async (req) => {
      return ok(req, { NECaptchaValidate: await issueCaptchaToken(ctx.db, ctx.now(), ctx.config.limits.captchaTokenTtlMs) });
    });
  }
}
