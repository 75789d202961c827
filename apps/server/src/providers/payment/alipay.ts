import { AlipaySdk } from 'alipay-sdk';
import type { AlipayConfig } from '../../config/market.ts';
import { fenToYuan, yuanToFenStrict, type PaymentProvider, type ProviderTrade } from './types.ts';
import { formatChinaDateTime } from '@cfx/protocol/china-time.ts';

/**
 * Alipay (支付宝) computer-website payment with the official alipay-sdk (v4):
 * `alipay.trade.page.pay` through pageExecute (a signed GET URL to the cashier, expiring with the
 * order), notifies verified with checkNotifySignV2 (RSA2 over the sorted raw parameters without
 * sign / sign_type) plus our app id, and `alipay.trade.query` for reconciliation.
 */
const PAID = new Set(['TRADE_SUCCESS', 'TRADE_FINISHED']);

/** yyyy-MM-dd HH:mm:ss in Beijing time (Alipay's time_expire format). */
export function beijingTime(ms: number): string {
  return formatChinaDateTime(ms);
}

export function alipayPayment(cfg: AlipayConfig): PaymentProvider & { sdk: AlipaySdk } {
  const sdk = new AlipaySdk({
    appId: cfg.appId,
    privateKey: cfg.privateKey,
    alipayPublicKey: cfg.alipayPublicKey,
    gateway: cfg.gateway,
    keyType: cfg.keyType,
    signType: 'RSA2',
  });
  const trade = (p: Record<string, string>): ProviderTrade | null => {
    const amountFen = yuanToFenStrict(p.total_amount);
    if (!p.out_trade_no || !p.trade_no || amountFen === null) return null;
    return { orderNo: p.out_trade_no, tradeNo: p.trade_no, amountFen, paid: PAID.has(p.trade_status ?? ''), raw: p };
  };
  return {
    name: 'alipay',
    sdk,
    async createPayment(req) {
      const payUrl = sdk.pageExecute('alipay.trade.page.pay', 'GET', {
        bizContent: {
          out_trade_no: req.orderNo,
          total_amount: fenToYuan(req.amountFen),
          subject: req.subject.slice(0, 256),
          product_code: 'FAST_INSTANT_TRADE_PAY',
          time_expire: beijingTime(req.expiresAt),
        },
        notifyUrl: req.notifyUrl,
        returnUrl: req.returnUrl,
      });
      return { payUrl };
    },
    verifyNotify(params) {
      if (params.app_id !== cfg.appId) return null;
      let ok: boolean;
      try {
        ok = sdk.checkNotifySignV2(params);
      } catch {
        ok = false;
      }
      return ok ? trade(params) : null;
    },
    // alipay.trade.refund: code 10000 with fund_change Y is a refund done; 10000 without it is not
    // confirmed yet (asked again by alipay.trade.fastpay.refund.query, refund_status REFUND_SUCCESS).
    async refund(req) {
      const res = (await sdk.exec('alipay.trade.refund', {
        bizContent: { trade_no: req.tradeNo, refund_amount: fenToYuan(req.amountFen), out_request_no: req.refundNo, refund_reason: '重复或无法匹配订单的支付，原路退回' },
      })) as Record<string, unknown>;
      if (res.code === '10000') return { status: res.fundChange === 'Y' ? 'succeeded' : 'processing', refundTradeNo: String(res.tradeNo ?? req.tradeNo), reason: null };
      return { status: 'failed', refundTradeNo: null, reason: String(res.subMsg ?? res.msg ?? res.code ?? 'refused').slice(0, 200) };
    },
    async queryRefund(req) {
      const res = (await sdk.exec('alipay.trade.fastpay.refund.query', { bizContent: { trade_no: req.tradeNo, out_request_no: req.refundNo } })) as Record<string, unknown>;
      if (res.code !== '10000' || res.refundStatus !== 'REFUND_SUCCESS') return null;
      return { status: 'succeeded', refundTradeNo: String(res.tradeNo ?? req.tradeNo), reason: null };
    },
    async queryTrade(orderNo) {
      const res = (await sdk.exec('alipay.trade.query', { bizContent: { out_trade_no: orderNo } })) as Record<string, unknown>;
      if (res.code !== '10000') return null;
      const t = trade({
        out_trade_no: String(res.outTradeNo ?? ''),
        trade_no: String(res.tradeNo ?? ''),
        total_amount: String(res.totalAmount ?? ''),
        trade_status: String(res.tradeStatus ?? ''),
      });
      return t && t.paid ? t : null;
    },
  };
}
