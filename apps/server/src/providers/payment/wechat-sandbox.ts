import crypto from 'node:crypto';
import { API_BASE } from '@cfx/contract/envelope.ts';
import { OrderPaths } from '@cfx/contract/routes.ts';
import type { Db } from '../../db/database.ts';
import type { SandboxTicket } from './sandbox.ts';
import { encryptWechatResource, openWechatNotify, wechatNonce, wechatSign, wechatResponseMessage, wechatTime, type WechatProvider } from './wechat.ts';

/**
 * The WeChat Pay sandbox (PAYMENT_SANDBOX=1, development only): Native payment without real money.
 * `createPayment` returns as `code_url` the URL of the sandbox "scan and pay" page (served by this
 * server, an HMAC-signed ticket in it), which the web shows as a QR code. Its 确认支付 button records a
 * sandbox trade and the sandbox sends the notify WeChat Pay would send: the transaction encrypted with
 * AES-256-GCM under its APIv3 key, signed SHA256withRSA with its own "platform" key (generated when the
 * server starts), posted as JSON with the Wechatpay-* headers to /mvapi/notify/wechat — where it is
 * verified by the same code as the production adapter's notifies (openWechatNotify).
 */
export interface WechatSandbox extends WechatProvider {
  openTicket(t: string, now: number): SandboxTicket | null;
  /** A notify as WeChat Pay posts it (headers and JSON body), signed and encrypted as the sandbox's platform. */
  signedNotify(eventType: string, originalType: string, resource: Record<string, unknown>, now: number): { headers: Record<string, string>; body: string };
  /** The transaction object of a sandbox trade (what a TRANSACTION.SUCCESS notify carries). */
  transaction(t: { orderNo: string; tradeNo: string; amountFen: number }, now: number): Record<string, unknown>;
}

export const WECHAT_SANDBOX_MCH_ID = '1900000109';
export const WECHAT_SANDBOX_APP_ID = 'wxsandbox00000000';
/** Sandbox trade numbers (sandbox_trades.trade_no) of WeChat payments start with this. */
export const WECHAT_SANDBOX_TRADE_PREFIX = '4200';

const hmac = (secret: string, text: string) => crypto.createHmac('sha256', secret).update(text, 'utf8').digest('hex');

export function wechatSandbox(secret: string, db: Db, opts: { now?: () => number } = {}): WechatSandbox {
  const clock = opts.now ?? Date.now;
  // The sandbox's platform key pair, made on first use (most test servers never pay by WeChat).
  let made: { keys: crypto.KeyPairKeyObjectResult; platform: { serial: string; key: crypto.KeyObject } } | undefined;
  const platformKeys = () => {
    if (!made) {
      const keys = crypto.generateKeyPairSync('rsa', { modulusLength: 2048 });
      made = { keys, platform: { serial: `PUB_KEY_ID_SANDBOX${crypto.randomBytes(8).toString('hex').toUpperCase()}`, key: keys.publicKey } };
    }
    return made;
  };
  const apiV3Key = crypto.randomBytes(16).toString('hex');

  const provider: WechatSandbox = {
    name: 'wechat',
    async createPayment(req) {
      const ticket: SandboxTicket = { orderNo: req.orderNo, amountFen: req.amountFen, expiresAt: req.expiresAt, returnUrl: req.returnUrl, notifyUrl: req.notifyUrl };
      const body = Buffer.from(JSON.stringify(ticket), 'utf8').toString('base64url');
      return { payUrl: `${API_BASE}${OrderPaths.sandboxWechatScan}?t=${body}.${hmac(secret, `wechat-ticket:${body}`)}` };
    },
    openTicket(t, now) {
      const dot = t.lastIndexOf('.');
      if (dot <= 0) return null;
      const body = t.slice(0, dot);
      const sig = Buffer.from(t.slice(dot + 1), 'utf8');
      const want = Buffer.from(hmac(secret, `wechat-ticket:${body}`), 'utf8');
      if (sig.length !== want.length || !crypto.timingSafeEqual(sig, want)) return null;
      try {
        const v = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as SandboxTicket;
        if (typeof v.orderNo !== 'string' || !Number.isSafeInteger(v.amountFen) || typeof v.expiresAt !== 'number') return null;
        return v.expiresAt > now ? v : null;
      } catch {
        return null;
      }
    },
    transaction(t, now) {
      return {
        appid: WECHAT_SANDBOX_APP_ID,
        mchid: WECHAT_SANDBOX_MCH_ID,
        out_trade_no: t.orderNo,
        transaction_id: t.tradeNo,
        trade_type: 'NATIVE',
        trade_state: 'SUCCESS',
        trade_state_desc: '支付成功',
        bank_type: 'OTHERS',
        success_time: wechatTime(now),
        payer: { openid: 'oSandbox0000000000000000000' },
        amount: { total: t.amountFen, payer_total: t.amountFen, currency: 'CNY', payer_currency: 'CNY' },
      };
    },
    signedNotify(eventType, originalType, resource, now) {
      const body = JSON.stringify({
        id: crypto.randomUUID(),
        create_time: wechatTime(now),
        resource_type: 'encrypt-resource',
        event_type: eventType,
        summary: eventType.startsWith('REFUND.') ? '退款结果' : '支付成功',
        resource: encryptWechatResource(apiV3Key, JSON.stringify(resource), originalType),
      });
      // Signed with the wall clock: the receiver checks the timestamp against its own.
      const ts = String(Math.floor(clock() / 1000));
      const nonce = wechatNonce();
      return {
        body,
        headers: {
          'content-type': 'application/json',
          'wechatpay-timestamp': ts,
          'wechatpay-nonce': nonce,
          'wechatpay-serial': platformKeys().platform.serial,
          'wechatpay-signature': wechatSign(platformKeys().keys.privateKey, wechatResponseMessage(ts, nonce, body)),
          'wechatpay-signature-type': 'WECHATPAY2-SHA256-RSA2048',
        },
      };
    },
    openNotify(params) {
      return openWechatNotify({ platform: platformKeys().platform, apiV3Key, mchId: WECHAT_SANDBOX_MCH_ID, appId: WECHAT_SANDBOX_APP_ID }, params, clock());
    },
    verifyNotify(params) {
      const n = provider.openNotify(params);
      return n?.kind === 'trade' ? n.trade : null;
    },
    verifyRefundNotify(params) {
      const n = provider.openNotify(params);
      return n?.kind === 'refund' ? n.refund : null;
    },
    async queryTrade(orderNo) {
      const t = await db.kysely.selectFrom('sandbox_trades').selectAll().where('out_trade_no', '=', orderNo).executeTakeFirst();
      if (!t || t.status !== 'success' || !t.trade_no.startsWith(WECHAT_SANDBOX_TRADE_PREFIX)) return null;
      return { orderNo, tradeNo: t.trade_no, amountFen: Number(t.amount_fen), paid: true, raw: { source: 'query', transaction_id: t.trade_no } };
    },
    // Refunds are answered SUCCESS at once (as WeChat Pay does for balance-funded refunds), once per
    // refund number (sandbox_refunds.out_request_no), for a trade the sandbox knows and at most its amount.
    async refund(req) {
      const known =
        (await db.kysely.selectFrom('sandbox_trades').select('amount_fen').where('trade_no', '=', req.tradeNo).executeTakeFirst()) ??
        (await db.kysely.selectFrom('payments').select('amount_fen').where('provider', '=', 'wechat').where('provider_trade_no', '=', req.tradeNo).executeTakeFirst());
      if (!known) return { status: 'failed', refundTradeNo: null, reason: 'RESOURCE_NOT_EXISTS: 订单不存在 (unknown trade)' };
      if (req.amountFen > Number(known.amount_fen)) return { status: 'failed', refundTradeNo: null, reason: 'PARAM_ERROR: 退款金额超过订单金额 (more than the trade)' };
      await db.kysely
        .insertInto('sandbox_refunds')
        .values({ refund_trade_no: `5030${req.now}${crypto.randomInt(1_000_000).toString().padStart(6, '0')}`, out_request_no: req.refundNo, trade_no: req.tradeNo, amount_fen: req.amountFen, status: 'success', fail_reason: null, notify_url: req.notifyUrl, received_at: req.now, created_at: req.now })
        .onConflict((oc) => oc.column('out_request_no').doNothing())
        .execute();
      const row = await db.kysely.selectFrom('sandbox_refunds').select('refund_trade_no').where('out_request_no', '=', req.refundNo).executeTakeFirstOrThrow();
      return { status: 'succeeded', refundTradeNo: row.refund_trade_no, reason: null };
    },
    async queryRefund(req) {
      const row = await db.kysely.selectFrom('sandbox_refunds').select(['refund_trade_no', 'status']).where('out_request_no', '=', req.refundNo).executeTakeFirst();
      return row ? { status: 'succeeded', refundTradeNo: row.refund_trade_no, reason: null } : null;
    },
  };
  return provider;
}
