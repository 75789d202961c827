import type { FastifyInstance, FastifyReply } from 'fastify';
import { PaymentNotifyPaths } from '@cfx/contract/routes.ts';
import type { AppContext } from '../../context.ts';
import { wechatNotifyParams } from '../../providers/payment/wechat.ts';
import { applyRefundOutcome } from '../payout/index.ts';
import { applyProviderPayment } from './apply-payment.ts';

/**
 * POST /mvapi/notify/wechat: WeChat Pay APIv3 notifies (the production adapter's and the sandbox's).
 * The raw JSON body is kept as received — the platform signature covers its bytes — and handed with
 * the Wechatpay-* headers to the provider, which checks the serial, the timestamp (5 minutes), the
 * RSA signature and then decrypts the AES-256-GCM resource. Answers as WeChat Pay expects: 204 without
 * a body once applied (or already applied: a replay inserts nothing), 4xx / 5xx with
 * `{"code":"FAIL","message":…}` otherwise, so WeChat Pay sends it again.
 *
 * TRANSACTION.* events pay the order through applyProviderPayment (exactly once per transaction_id);
 * REFUND.* events finish a refund of a stray payment (applyRefundOutcome, exactly once per refund number).
 */
export async function wechatNotifyRoute(app: FastifyInstance, ctx: AppContext) {
  // Only inside this plugin: JSON arrives as the raw string.
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string', bodyLimit: 64 * 1024 }, (_req, text, done) => done(null, String(text)));
  const fail = (reply: FastifyReply, http: number, message: string) => reply.code(http).type('application/json; charset=utf-8').send({ code: 'FAIL', message });
  app.post(PaymentNotifyPaths.wechat, { schema: { hide: true } }, async (req, reply) => {
    const provider = ctx.market?.providers.wechat;
    if (!provider) return fail(reply, 404, '微信支付未开通 (WeChat Pay is not configured)');
    const body = typeof req.body === 'string' ? req.body : '';
    const notice = provider.openNotify(wechatNotifyParams(req.headers, body));
    if (!notice) {
      req.log.warn({ provider: 'wechat', serial: req.headers['wechatpay-serial'] }, 'payment notify that does not verify (signature, serial, timestamp or resource)');
      return fail(reply, 401, '签名验证失败 (signature verification failed)');
    }
    try {
      if (notice.kind === 'trade') {
        const outcome = await applyProviderPayment(ctx, 'wechat', notice.trade);
        req.log.info({ provider: 'wechat', orderNo: notice.trade.orderNo, tradeNo: notice.trade.tradeNo, outcome }, 'payment notify');
      } else if (notice.kind === 'refund') {
        const outcome = await applyRefundOutcome(ctx, notice.refund.refundNo, notice.refund);
        req.log.info({ provider: 'wechat', refundNo: notice.refund.refundNo, status: notice.refund.status, outcome }, 'refund notify');
      } else {
        req.log.info({ provider: 'wechat', eventType: notice.eventType }, 'notify of an event not acted on');
      }
      return reply.code(204).send();
    } catch (err) {
      req.log.error({ err, provider: 'wechat' }, 'payment notify could not be applied');
      return fail(reply, 500, '处理失败，请重试 (could not be recorded, please retry)');
    }
  });
}
