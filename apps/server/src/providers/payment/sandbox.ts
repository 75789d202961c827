import crypto from 'node:crypto';
import { API_BASE } from '@cfx/contract/envelope.ts';
import { OrderPaths } from '@cfx/contract/routes.ts';
import type { Db } from '../../db/database.ts';
import { fenToYuan, signContent, yuanToFenStrict, type PaymentProvider, type ProviderTrade } from './types.ts';

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
}

const hmac = (secret: string, text: string) => crypto.createHmac('sha256', secret).update(text, 'utf8').digest('hex');

function safeEqualHex(a: string, b: string): boolean {
  const x = Buffer.from(a, 'utf8');
  const y = Buffer.from(b, 'utf8');
  return x.length === y.length && crypto.timingSafeEqual(x, y);
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
    async queryTrade(orderNo): Promise<ProviderTrade | null> {
      const t = await db.kysely.selectFrom('sandbox_trades').selectAll().where('out_trade_no', '=', orderNo).executeTakeFirst();
      if (!t || t.status !== 'success') return null;
      return { orderNo, tradeNo: t.trade_no, amountFen: Number(t.amount_fen), paid: true, raw: { source: 'query', trade_no: t.trade_no } };
    },
  };
  return provider;
}
