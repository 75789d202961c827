import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import * as C from '@cfx/contract/card-pay.ts';
import { CardPayNotifyPaths, CardPayPaths } from '@cfx/contract/card-pay.ts';
import type { AppContext } from '../../context.ts';
import { requireUserId } from '../accounts/index.ts';
import { Status } from '@cfx/contract/envelope.ts';
import { formatMessage } from '@cfx/contract/messages.ts';
import { body, langOf, ok } from '../../http/envelope.ts';
import { payoutRuntime } from '../payout/index.ts';
import { applyRefundOutcome } from '../payout/index.ts';
import { applyCardTrade } from './apply-card-trade.ts';
import { confirmCardPay } from './confirm-card-pay.ts';
import { listPayCards } from './list-pay-cards.ts';
import { reconcileCardPays } from './reconcile-card-pays.ts';
import { resendCardPaySms } from './resend-card-pay-sms.ts';
import { startCardPay } from './start-card-pay.ts';

/** Card payments' reconciliation on the job worker (ctx.jobs, every 15 s). Called by buildApp after startPayouts. */
export function startCardPayJobs(ctx: AppContext) {
  ctx.jobs.periodic('reconcile-card-pays', 15_000, () => reconcileCardPays(ctx));
}

/** The gateway calls of bank-card quick payment (docs/api.md "Paying with a bank card"). */
export function cardPayRoutes(api: FastifyInstance, ctx: AppContext) {
  const r = api.withTypeProvider<ZodTypeProvider>();
  const tags = ['payments'];
  const user = (req: FastifyRequest) => requireUserId(ctx, req);
  r.post(CardPayPaths.listPayCards, { schema: { tags, response: { 200: C.payCardsResponse } } }, async (req) => ok(req, await listPayCards(ctx, await user(req))));
  r.post(CardPayPaths.startCardPay, { schema: { tags, body: C.startCardPayBody, response: { 200: C.cardPaymentResponse } } }, async (req) => {
    const view = await startCardPay(ctx, await user(req), req.body, req.ip);
    return body(Status.OK, view, formatMessage('cardPaySmsSent', langOf(req), { mobile: view.mobileMasked }));
  });
  r.post(CardPayPaths.resendCardPaySms, { schema: { tags, body: C.resendCardPayBody, response: { 200: C.cardPaymentResponse } } }, async (req) => {
    const view = await resendCardPaySms(ctx, await user(req), req.body.payNo);
    return body(Status.OK, view, formatMessage('cardPaySmsSent', langOf(req), { mobile: view.mobileMasked }));
  });
  r.post(CardPayPaths.confirmCardPay, { schema: { tags, body: C.confirmCardPayBody, response: { 200: C.cardPaymentResponse } } }, async (req) => {
    const view = await confirmCardPay(ctx, await user(req), req.body, req.ip);
    return ok(req, view, view.orderStatus === 'created' || view.orderStatus === 'paying' ? 'cardPayConfirming' : 'paySucceeded');
  });
}

/**
 * The providers' notifies of card payments and card refunds, outside the gateway: form-encoded POSTs
 * answered with the provider's acknowledgement once applied (or already applied), 400 for a bad
 * signature or a trade that is not the attempt's, 500 when it could not be recorded (the provider retries).
 */
export async function cardPayNotifyRoutes(app: FastifyInstance, ctx: AppContext) {
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: 64 * 1024 }, (_req, text, done) => {
    done(null, Object.fromEntries(new URLSearchParams(String(text))));
  });
  const params = (req: FastifyRequest) => {
    const p: Record<string, string> = {};
    if (req.body && typeof req.body === 'object') for (const [k, v] of Object.entries(req.body as Record<string, unknown>)) if (typeof v === 'string') p[k] = v;
    return p;
  };
  for (const name of ['sandbox', 'yeepay'] as const) {
    app.post(CardPayNotifyPaths[name], { schema: { hide: true } }, async (req, reply) => {
      reply.type('text/plain; charset=utf-8');
      const provider = payoutRuntime(ctx)?.provider;
      if (!provider || provider.name !== name) return reply.code(404).send('failure');
      const trade = provider.verifyQuickPayNotify(params(req));
      if (!trade) {
        req.log.warn({ provider: name }, 'card payment notify with a bad signature');
        return reply.code(400).send('failure');
      }
      try {
        const outcome = await applyCardTrade(ctx, name, trade);
        req.log.info({ provider: name, payNo: trade.payNo, tradeNo: trade.tradeNo, outcome }, 'card payment notify');
        if (outcome === 'mismatch') return reply.code(400).send('failure');
        return reply.send(provider.notifyAck);
      } catch (err) {
        req.log.error({ err, provider: name }, 'card payment notify could not be applied');
        return reply.code(500).send('failure');
      }
    });
    const refundPath = name === 'sandbox' ? CardPayNotifyPaths.refundSandbox : CardPayNotifyPaths.refundYeepay;
    app.post(refundPath, { schema: { hide: true } }, async (req, reply) => {
      reply.type('text/plain; charset=utf-8');
      const provider = payoutRuntime(ctx)?.provider;
      if (!provider || provider.name !== name) return reply.code(404).send('failure');
      const outcome = provider.verifyQuickPayRefundNotify(params(req));
      if (!outcome) {
        req.log.warn({ provider: name }, 'card refund notify with a bad signature');
        return reply.code(400).send('failure');
      }
      try {
        // Only refunds of card payments: a refund number of another provider is not this notify's to settle.
        const r = await ctx.db.kysely.selectFrom('stray_refunds').select('provider').where('refund_no', '=', outcome.refundNo).executeTakeFirst();
        if (!r || r.provider !== 'card') return reply.code(400).send('failure');
        const applied = await applyRefundOutcome(ctx, outcome.refundNo, outcome);
        req.log.info({ refundNo: outcome.refundNo, status: outcome.status, applied }, 'card refund notify');
        return applied === 'unknown' ? reply.code(400).send('failure') : reply.send(provider.notifyAck);
      } catch (err) {
        req.log.error({ err }, 'card refund notify could not be applied');
        return reply.code(500).send('failure');
      }
    });
  }
}
