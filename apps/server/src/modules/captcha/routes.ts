import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { envelope } from '@cfx/contract/envelope.ts';
import { CaptchaPaths } from '@cfx/contract/routes.ts';
import { captchaChallenge, captchaCheckBody, captchaToken } from '@cfx/contract/user.ts';
import type { AppContext } from '../../context.ts';
import { ok } from '../../http/envelope.ts';
import { checkChallenge, createChallenge } from './slider.ts';

/** The self-hosted slider captcha (default provider; also available under the test provider). */
export function captchaRoutes(app: FastifyInstance, ctx: AppContext) {
  if (ctx.captcha.name === 'yidun') return;
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['captcha'];
  r.post(CaptchaPaths.get, { schema: { tags, response: { 200: envelope(captchaChallenge.nullable()) } } }, async (req, reply) => {
    reply.header('cache-control', 'no-store');
    return ok(req, await createChallenge(ctx, req.ip));
  });
  r.post(CaptchaPaths.check, { schema: { tags, body: captchaCheckBody, response: { 200: envelope(captchaToken.nullable()) } } }, async (req) => {
    return ok(req, await checkChallenge(ctx, req.body), 'codeVerified');
  });
}
