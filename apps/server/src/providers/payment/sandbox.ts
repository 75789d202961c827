import crypto from 'node:crypto';
import { API_BASE } from '@cfx/contract/envelope.ts';
import { OrderPaths } from '@cfx/contract/routes.ts';
import type { Db } from '../../db/database.ts';
import { fenToYuan, signContent, yuanToFenStrict, type PaymentProvider, type ProviderTrade, type RefundOutcome } from './types.ts';

/**
 * The sandbox payment provider: a real page flow without real money. `createPayment` returns the
 * URL of the sandbox cashier (served by this server) carrying a signed ticket {orderNo, amount,
 * deadline, return URL}; its 支付 button records a sandbox trade and the sandbox then POSTs an
 * HMAC-SHA256-signed asynchronous notify to the notify URL over HTTP — the same path a real
 * provider takes — retrying until it is answered `success`.
 */
export interface SandboxTicket {
  orderNo: string;
  amountFen: number;
  expiresAt: number;
  returnUrl: string;
  notifyUrl: string;
}

export interface SandboxProvider extends PaymentProvider {
  readonly name: 'sandbox';
  openTicket(t: string, now: number): SandboxTicket | null;
  /** Signs notify parameters as the sandbox does (adds sign_type and sign). */
  signNotify(params: Record<string, string>): Record<string, string>;
  /** Builds the notify of a trade. */
  notifyParams(trade: { tradeNo: string; orderNo: string; amountFen: number }, now: number): Record<string, string>;
  refund: NonNullable<PaymentProvider['refund']>;
  queryRefund: NonNullable<PaymentProvider['queryRefund']>;
  verifyRefundNotify: NonNullable<PaymentProvider['verifyRefundNotify']>;
  /** Builds the signed notify of a refund the sandbox bank finished (modules/payout/sandbox-bank.ts). */
  refundNotifyParams(r: { refundNo: string; refundTradeNo: string; success: boolean; reason: string | null }, now: number): Record<string, string>;
}

const hmac = (secret: string, text: string) => crypto.createHmac('sha256', secret).update(text, 'utf8').digest('hex');

function safeEqualHex(a: string, b: string): boolean {
  const x = Buffer.from(a, 'utf8');
  const y = Buffer.from(b, 'utf8');
  return x.length === y.length && crypto.timingSafeEqual(x, y);
}

function sandboxRefundOutcome(row: { refund_trade_no: string; status: string; fail_reason: string | null }): RefundOutcome {
  if (row.status === 'success') return { status: 'succeeded', refundTradeNo: row.refund_trade_no, reason: null };
  if (row.status === 'fail') return { status: 'failed', refundTradeNo: row.refund_trade_no, reason: row.fail_reason ?? 'refused' };
  return { status: 'processing', refundTradeNo: row.refund_trade_no, reason: null };
}

export function sandboxPayment(secret: string, db: Db): SandboxProvider {
  const provider: SandboxProvider = {
    name: 'sandbox',
    async createPayment(req) {
      const ticket: SandboxTicket = { orderNo: req.orderNo, amountFen: req.amountFen, expiresAt: req.expiresAt, returnUrl: req.returnUrl, notifyUrl: req.notifyUrl };
      const body = Buffer.from(JSON.stringify(ticket), 'utf8').toString('base64url');
      return { payUrl: `${API_BASE}${OrderPaths.sandboxCashier}?t=${body}.${hmac(secret, `ticket:${body}`)}` };
    },
    openTicket(t, now) {
      const dot = t.lastIndexOf('.');
      if (dot <= 0) return null;
      const body = t.slice(0, dot);
      if (!safeEqualHex(t.slice(dot + 1), hmac(secret, `ticket:${body}`))) return null;
      try {
        const v = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as SandboxTicket;
        if (typeof v.orderNo !== 'string' || !Number.isSafeInteger(v.amountFen) || typeof v.expiresAt !== 'number') return null;
        return v.expiresAt > now ? v : null;
      } catch {
        return null;
      }
    },
    signNotify(params) {
      const p = { ...params, sign_type: 'HMAC-SHA256' };
      return { ...p, sign: hmac(secret, signContent(p)) };
    },
    notifyParams(trade, now) {
      return provider.signNotify({
        notify_id: crypto.randomBytes(8).toString('hex'),
        notify_time: new Date(now).toISOString(),
        out_trade_no: trade.orderNo,
        trade_no: trade.tradeNo,
        total_amount: fenToYuan(trade.amountFen),
        trade_status: 'TRADE_SUCCESS',
      });
    },
    verifyNotify(params) {
      if (params.sign_type !== 'HMAC-SHA256' || typeof params.sign !== 'string') return null;
      if (!safeEqualHex(params.sign, hmac(secret, signContent(params)))) return null;
      const amountFen = yuanToFenStrict(params.total_amount);
      if (!params.out_trade_no || !params.trade_no || amountFen === null) return null;
      return {
        orderNo: params.out_trade_no,
        tradeNo: params.trade_no,
        amountFen,
        paid: params.trade_status === 'TRADE_SUCCESS' || params.trade_status === 'TRADE_FINISHED',
        raw: params,
      };
    },
    // Refunds: the sandbox bank records the request and answers PAYOUT_SANDBOX_DELAY_MS later with a
    // signed notify (modules/payout/sandbox-bank.ts). It knows a trade when its cashier recorded it or a
    // notify signed with its secret was accepted for it (payments), and refuses more than the trade's amount.
    async refund(req) {
      const known =
        (await db.kysely.selectFrom('sandbox_trades').select('amount_fen').where('trade_no', '=', req.tradeNo).executeTakeFirst()) ??
        (await db.kysely.selectFrom('payments').select('amount_fen').where('provider', '=', 'sandbox').where('provider_trade_no', '=', req.tradeNo).executeTakeFirst());
      if (!known) return { status: 'failed', refundTradeNo: null, reason: '原交易不存在 (unknown trade)' };
      if (req.amountFen > Number(known.amount_fen)) return { status: 'failed', refundTradeNo: null, reason: '退款金额超过交易金额 (more than the trade)' };
      await db.kysely
        .insertInto('sandbox_refunds')
        .values({ refund_trade_no: `SBR${req.now}${crypto.randomBytes(5).toString('hex')}`, out_request_no: req.refundNo, trade_no: req.tradeNo, amount_fen: req.amountFen, status: 'processing', fail_reason: null, notify_url: req.notifyUrl, received_at: req.now, created_at: req.now })
        .onConflict((oc) => oc.column('out_request_no').doNothing())
        .execute();
      const row = await db.kysely.selectFrom('sandbox_refunds').selectAll().where('out_request_no', '=', req.refundNo).executeTakeFirstOrThrow();
      return sandboxRefundOutcome(row);
    },
    async queryRefund(req) {
      const row = await db.kysely.selectFrom('sandbox_refunds').selectAll().where('out_request_no', '=', req.refundNo).executeTakeFirst();
      return row ? sandboxRefundOutcome(row) : null;
    },
    refundNotifyParams(r, now) {
      return provider.signNotify({
        notify_type: 'refund',
        notify_id: crypto.randomBytes(8).toString('hex'),
        notify_time: new Date(now).toISOString(),
        out_request_no: r.refundNo,
        refund_trade_no: r.refundTradeNo,
        refund_status: r.success ? 'REFUND_SUCCESS' : 'REFUND_FAIL',
        fail_reason: r.reason ?? '',
      });
    },
    verifyRefundNotify(params) {
      if (params.notify_type !== 'refund' || params.sign_type !== 'HMAC-SHA256' || typeof params.sign !== 'string') return null;
      if (!safeEqualHex(params.sign, hmac(secret, signContent(params)))) return null;
      if (!params.out_request_no || !params.refund_trade_no) return null;
      const success = params.refund_status === 'REFUND_SUCCESS';
      if (!success && params.refund_status !== 'REFUND_FAIL') return null;
      return { refundNo: params.out_request_no, refundTradeNo: params.refund_trade_no, status: success ? 'succeeded' : 'failed', reason: success ? null : params.fail_reason || 'refused' };
    },
    async queryTrade(orderNo): Promise<ProviderTrade | null> {
      const t = await db.kysely.selectFrom('sandbox_trades').selectAll().where('out_trade_no', '=', orderNo).executeTakeFirst();
      if (!t || t.status !== 'success') return null;
      return { orderNo, tradeNo: t.trade_no, amountFen: Number(t.amount_fen), paid: true, raw: { source: 'query', trade_no: t.trade_no } };
    },
  };
  return provider;
}
