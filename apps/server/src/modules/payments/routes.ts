import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { envelope } from '@cfx/contract/envelope.ts';
import * as M from '@cfx/contract/market.ts';
import { OrderPaths, PaymentNotifyPaths } from '@cfx/contract/routes.ts';
import type { AppContext } from '../../context.ts';
import { requireUserId } from '../accounts/index.ts';
import { ok } from '../../http/envelope.ts';
import type { PaymentProvider } from '../../providers/payment/types.ts';
import { applyProviderPayment } from './apply-payment.ts';
import type { Notifier } from '../payout/index.ts';
import { payOrder } from './pay-order.ts';
import { confirmCashier, renderCashier, sandboxTopup } from './sandbox-cashier.ts';
import { sandboxWechatRoutes } from './sandbox-wechat.ts';
import { wechatNotifyRoute } from './wechat-notify.ts';

/** pay, and the sandbox provider's cashier (HTML), its buttons and the sandbox top-up. */
export function paymentRoutes(app: FastifyInstance, ctx: AppContext, notifier: () => Notifier) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['payments'];
  r.post(OrderPaths.pay, { schema: { tags, body: M.payBody, response: { 200: M.payResponse } } }, async (req) => {
    const res = await payOrder(ctx, await requireUserId(ctx, req), req.body);
    return ok(req, res, res.status === 'paid' ? 'paySucceeded' : 'ok');
  });
  // The sandbox cashier and top-up exist only while the sandbox provider is on (DEV_MODE=1).
  if (!ctx.config.market.payment.sandbox) return;
  r.get(OrderPaths.sandboxCashier, { schema: { hide: true, tags, querystring: M.sandboxCashierQuery } }, async (req, reply) => {
    const html = await renderCashier(ctx, req.query.t, reply.scriptNonce);
    return reply.type('text/html; charset=utf-8').header('cache-control', 'no-store').send(html);
  });
  r.post(OrderPaths.sandboxConfirm, { schema: { hide: true, tags, body: M.sandboxConfirmBody, response: { 200: M.sandboxConfirmResponse } } }, async (req) => {
    return ok(req, await confirmCashier(ctx, notifier(), req.body.t, req.body.action), req.body.action === 'pay' ? 'paySucceeded' : 'ok');
  });
  r.post(OrderPaths.sandboxTopup, { schema: { hide: true, tags, body: M.sandboxTopupBody, response: { 200: envelope(z.null()) } } }, async (req) => {
    await sandboxTopup(ctx, await requireUserId(ctx, req), req.body.amount);
    return ok(req, null, 'topupOk');
  });
  // The WeChat Pay sandbox's scan-and-pay page (sandbox-wechat.ts).
  sandboxWechatRoutes(app, ctx);
}

/**
 * The providers' asynchronous notifies, outside the gateway (they are not client calls and do
 * not use the envelope): form-encoded POSTs answered with the text `success` once applied — or
 * already applied — and `failure` otherwise (HTTP 400 for a bad signature, 500 when we could not
 * record it, so the provider retries).
 */
export async function paymentNotifyRoutes(app: FastifyInstance, ctx: AppContext) {
  // WeChat Pay APIv3 posts signed JSON instead (wechat-notify.ts), in its own plugin for its raw-body parser.
  await app.register(async (p) => wechatNotifyRoute(p, ctx));
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: 64 * 1024 }, (_req, text, done) => {
    done(null, Object.fromEntries(new URLSearchParams(String(text))));
  });
  for (const name of ['sandbox', 'alipay'] as const) {
    app.post(PaymentNotifyPaths[name], { schema: { hide: true } }, async (req, reply) => {
      reply.type('text/plain; charset=utf-8');
      const provider: PaymentProvider | undefined = ctx.market?.providers[name];
      if (!provider) return reply.code(404).send('failure');
      const params: Record<string, string> = {};
      if (req.body && typeof req.body === 'object') {
        for (const [k, v] of Object.entries(req.body as Record<string, unknown>)) if (typeof v === 'string') params[k] = v;
      }
      const trade = provider.verifyNotify(params);
      if (!trade) {
        req.log.warn({ provider: name }, 'payment notify with a bad signature');
        return reply.code(400).send('failure');
      }
      try {
        const outcome = await applyProviderPayment(ctx, name, trade);
        req.log.info({ provider: name, orderNo: trade.orderNo, tradeNo: trade.tradeNo, outcome }, 'payment notify');
        return reply.send('success');
      } catch (err) {
        req.log.error({ err, provider: name }, 'payment notify could not be applied');
        return reply.code(500).send('failure');
      }
    });
  }
}
