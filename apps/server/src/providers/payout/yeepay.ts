import crypto from 'node:crypto';
import type { YeepayConfig } from '../../config/payout.ts';
import { fenToYuan, yuanToFenStrict } from '../payment/types.ts';
import type { AccountOutcome, PayoutNotice, PayoutProvider } from './types.ts';
import { openYopEnvelope, signYopRequest, verifyYopResponse } from './yop-sign.ts';
import { formatChinaDateTime } from '@cfx/protocol/china-time.ts';

/**
 * YeePay (易宝支付) adapter over the YOP open API — the production payout provider.
 *
 * VERIFIED from YeePay's published material: the request signature (yop-sign.ts, reproduced byte for
 * byte against the documentation's example), the answer signature (`x-yop-sign` over `result`) and the
 * notify envelope (RSA + AES-128-ECB + signature), and the paths and request parameters of the account
 * calls as YeePay's official SDK documentation lists them: `/rest/v1.0/account/withdraw/card/bind`
 * (merchantNo, bankCardType, accountNo, bankCode), `/rest/v1.0/account/withdraw/card/modify` (merchantNo,
 * accountNo, bindId, bankCardOperateType, bankCode), `/rest/v1.0/account/withdraw/order` (parentMerchantNo,
 * requestNo, merchantNo, bankCardId, bankAccountNo, receiveType, orderAmount, notifyUrl, remark,
 * terminalType), `/rest/v1.0/account/withdraw/query` (parentMerchantNo, requestNo).
 *
 * NOT VERIFIED (written from integrations seen in public code, not from YeePay's reference, and never run
 * against YeePay's sandbox): the micro-merchant registration `/rest/v2.0/mer/register/contribute/micro`
 * and its query, the card 4-element check (`/rest/v1.0/auth/multiple-auth`, its authType and field
 * names), the answer fields read here (returnCode `UA00000`, status values, merchantNo, bindId) and the
 * JSON inside the withdrawal notify (only the `response` digital-envelope form of notifies is read; YOP's newer
 * callbacks signed in HTTP headers are not). ID photos must first be uploaded to YOP's qualification upload
 * (/yos/v1.0/sys/merchant/qual/upload), which this adapter does not do. Check every one of these against
 * the merchant's YOP documentation before going live; the sandbox provider is what the tests exercise.
 */
type Result = Record<string, unknown>;

/**
 * Quick payment (快捷支付) from the user's bound card — NOT VERIFIED against YeePay's sandbox either: the
 * paths and request fields are those YeePay's official SDK documentation lists for the API cashier
 * (`/rest/v1.0/trade/order` → token; `/rest/v1.0/frontcashier/bindcard/request` + `/bindcard/confirm`
 * for the card's first payment, which signs the quick-pay agreement and answers its bindId;
 * `/rest/v1.0/frontcashier/bindpay/request` + `/bindpay/sendsms` + `/bindpay/confirm` once the card has
 * one; `/rest/v1.0/trade/order/query`, `/rest/v1.0/trade/refund`, `/rest/v1.0/trade/refund/query`);
 * the answer codes (`OPR00000` / `NOP00000` / `CAS00000`) and the fields read (token, uniqueOrderNo,
 * bindId, status, orderAmount, uniqueRefundNo) are taken from public integrations. Notifies of payments
 * and refunds are read from the same `response` digital envelope as the withdrawal notify. The test
 * (`card-pay-providers.test.ts`) runs the adapter against a local server speaking this protocol with
 * real keys: signatures both ways, envelope notifies; the field names remain to be checked against the
 * merchant's YOP documentation.
 */
const TRADE_OK = new Set(['OPR00000', 'NOP00000', 'CAS00000', 'UA00000', '00000', 'SUCCESS']);

/** `yyyy-MM-dd HH:mm:ss` in China time (YOP's expiredTime). */
function chinaTime(ms: number): string {
  return formatChinaDateTime(ms);
}

interface QuickRef {
  /** sign: the card's first payment (agreement SMS); pay: a card with an agreement (payment SMS). */
  mode: 'sign' | 'pay';
  token: string;
  uniqueOrderNo: string;
}

const SUCCESS_CODES = new Set(['UA00000', '00000', 'SUCCESS']);

const flat = (r: Result): Record<string, string> => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v)]));

export function yeepayPayout(cfg: YeepayConfig, fetchImpl: typeof fetch = fetch): PayoutProvider {
  async function call(method: 'GET' | 'POST', path: string, params: Record<string, string>): Promise<Result> {
    const signed = signYopRequest({ appKey: cfg.appKey, privateKey: cfg.privateKey, method, path, params, requestId: crypto.randomUUID(), now: Date.now() });
    const body = new URLSearchParams(params).toString();
    const url = `${cfg.gateway}${path}${method === 'GET' && body ? `?${body}` : ''}`;
    const res = await fetchImpl(url, { method, headers: signed.headers, body: method === 'POST' ? body : undefined, signal: AbortSignal.timeout(15_000) });
    const text = await res.text();
    if (!verifyYopResponse(text, res.headers.get('x-yop-sign') ?? undefined, cfg.platformPublicKey)) {
      throw new Error(`yeepay ${path}: answer signature does not verify (HTTP ${res.status})`);
    }
    return ((JSON.parse(text) as { result?: Result }).result ?? {}) as Result;
  }
  const ok = (r: Result) => SUCCESS_CODES.has(String(r.returnCode ?? r.code ?? ''));
  const account = (r: Result): AccountOutcome => {
    const status = String(r.applicationStatus ?? '');
    if (status === 'COMPLETED' && r.merchantNo) return { state: 'active', merchantNo: String(r.merchantNo) };
    if (status === 'REVIEW_BACK') return { state: 'rejected', reason: String(r.auditOpinion ?? r.returnMsg ?? 'rejected').slice(0, 300) };
    return { state: 'opening', merchantNo: r.merchantNo ? String(r.merchantNo) : null };
  };
  const notice = (withdrawNo: string, r: Result): PayoutNotice => {
    const status = String(r.status ?? '');
    return {
      withdrawNo,
      tradeNo: String(r.orderNo ?? ''),
      status: status === 'SUCCESS' ? 'succeeded' : status === 'FAIL' || status === 'FAILED' || status === 'CANCELED' ? 'failed' : 'processing',
      reason: status === 'SUCCESS' ? null : r.failReason ? String(r.failReason).slice(0, 300) : status === 'REQUEST_RECEIVE' || !status ? null : status,
    };
  };
  const provider: PayoutProvider = {
    name: 'yeepay',
    notifyAck: 'SUCCESS',
    async verifyCard(card) {
      const r = await call('POST', '/rest/v1.0/auth/multiple-auth', {
        merchantNo: cfg.parentMerchantNo,
        requestNo: `AUTH${Date.now()}${crypto.randomBytes(4).toString('hex')}`,
        authType: 'NAME_VERIFY',
        username: card.name,
        idCardNo: card.idNumber,
        idCardType: 'ID',
        bankCardNo: card.cardNo,
        mobilePhone: card.mobile,
      });
      if (!ok(r) && !r.status) throw new Error(`yeepay auth failed: ${String(r.returnMsg ?? r.message ?? '')}`);
      return String(r.status ?? '') === 'SUCCESS' ? { ok: true } : { ok: false, reason: 'mismatch' };
    },
    async openAccount(req) {
      const r = await call('POST', '/rest/v2.0/mer/register/contribute/micro', {
        requestNo: req.requestNo,
        parentMerchantNo: cfg.parentMerchantNo,
        businessRole: 'SHARE_MERCHANT',
        merchantSubjectInfo: JSON.stringify({ signName: req.name, shortName: req.name }),
        merchantCorporationInfo: JSON.stringify({ legalLicenceType: 'ID_CARD', legalLicenceNo: req.idNumber, legalLicenceFrontUrl: req.identityFront, legalLicenceBackUrl: req.identityBack, mobile: req.mobile }),
        businessAddressInfo: JSON.stringify({ province: req.provinceCode, city: req.cityCode, district: req.cityCode, address: req.address }),
        accountInfo: JSON.stringify({ settlementDirection: 'BANKCARD', bankAccountType: 'DEBIT_CARD', bankCardNo: req.cardNo, bankCode: req.bankCode }),
        notifyUrl: req.notifyUrl,
      });
      if (!ok(r) && !r.applicationStatus) return { state: 'rejected', reason: String(r.returnMsg ?? 'refused').slice(0, 300) };
      return account(r);
    },
    async queryAccount(requestNo) {
      const r = await call('GET', '/rest/v2.0/mer/register/query', { requestNo });
      return r.applicationStatus ? account(r) : null;
    },
    async bindCard(req) {
      const r = await call('POST', '/rest/v1.0/account/withdraw/card/bind', { merchantNo: req.merchantNo, bankCardType: 'DEBIT_CARD', accountNo: req.cardNo, bankCode: req.bankCode });
      if (!ok(r)) throw new Error(`yeepay card bind refused: ${String(r.returnMsg ?? '')}`);
      return { bindId: r.bindId === undefined ? null : String(r.bindId) };
    },
    async unbindCard(req) {
      if (!req.bindId) return;
      await call('POST', '/rest/v1.0/account/withdraw/card/modify', { merchantNo: req.merchantNo, accountNo: req.cardNo, bindId: req.bindId, bankCardOperateType: 'CANCELLED', bankCode: req.bankCode });
    },
    async submitWithdrawal(req) {
      const r = await call('POST', '/rest/v1.0/account/withdraw/order', {
        parentMerchantNo: cfg.parentMerchantNo,
        requestNo: req.withdrawNo,
        merchantNo: req.merchantNo,
        ...(req.bindId ? { bankCardId: req.bindId } : {}),
        bankAccountNo: req.cardNo,
        receiveType: 'REAL_TIME',
        orderAmount: fenToYuan(req.netFen),
        notifyUrl: req.notifyUrl,
        remark: '平台余额提现',
        terminalType: 'PC',
      });
      if (!ok(r)) return { accepted: false, reason: String(r.returnMsg ?? r.returnCode ?? 'refused').slice(0, 300) };
      return { accepted: true, tradeNo: String(r.orderNo ?? req.withdrawNo) };
    },
    verifyNotify(params) {
      const json = params.response ? openYopEnvelope(params.response, cfg.privateKey, cfg.platformPublicKey) : null;
      if (!json) return null;
      try {
        const r = JSON.parse(json) as Result;
        if (!r.requestNo) return null;
        return notice(String(r.requestNo), r);
      } catch {
        return null;
      }
    },
    async queryWithdrawal(withdrawNo) {
      const r = await call('GET', '/rest/v1.0/account/withdraw/query', { parentMerchantNo: cfg.parentMerchantNo, requestNo: withdrawNo });
      return ok(r) && r.orderNo ? notice(withdrawNo, r) : null;
    },

    async startQuickPay(req) {
      const order = await call('POST', '/rest/v1.0/trade/order', {
        parentMerchantNo: cfg.parentMerchantNo,
        merchantNo: cfg.parentMerchantNo,
        orderId: req.payNo,
        orderAmount: fenToYuan(req.amountFen),
        goodsName: req.subject.slice(0, 60),
        notifyUrl: req.notifyUrl,
        expiredTime: chinaTime(req.expiresAt),
        memo: req.orderNo,
      });
      if (!tradeOk(order) || !order.token) return { accepted: false, reason: msg(order) };
      const ref: QuickRef = { mode: req.card.quickBindId ? 'pay' : 'sign', token: String(order.token), uniqueOrderNo: String(order.uniqueOrderNo ?? '') };
      if (ref.mode === 'pay') {
        const pay = await call('POST', '/rest/v1.0/frontcashier/bindpay/request', { token: ref.token, bindId: req.card.quickBindId!, userNo: req.card.userNo, userType: 'USER_ID', userIp: req.userIp, version: '1.0' });
        if (!tradeOk(pay)) return { accepted: false, reason: msg(pay) };
        const sms = await call('POST', '/rest/v1.0/frontcashier/bindpay/sendsms', { token: ref.token, version: '1.0' });
        if (!tradeOk(sms)) return { accepted: false, reason: msg(sms) };
      } else {
        const sign = await call('POST', '/rest/v1.0/frontcashier/bindcard/request', {
          parentMerchantNo: cfg.parentMerchantNo,
          merchantNo: cfg.parentMerchantNo,
          merchantFlowId: req.payNo,
          userNo: req.card.userNo,
          userType: 'USER_ID',
          bankCardNo: req.card.cardNo,
          userName: req.card.name,
          idCardNo: req.card.idNumber,
          phone: req.card.mobile,
          authType: 'COMMON_FOUR',
          cardType: 'DEBIT',
          isSMS: 'true',
          orderValidate: String(Math.max(1, Math.ceil((req.expiresAt - req.now) / 60_000))),
        });
        if (!tradeOk(sign)) return { accepted: false, reason: msg(sign) };
      }
      return { accepted: true, tradeNo: ref.uniqueOrderNo || null, ref: JSON.stringify(ref) };
    },
    async resendQuickPaySms(req) {
      const ref = parseRef(req.ref);
      // The agreement SMS of a card's first payment has no resend call of its own: the buyer starts again.
      if (!ref || ref.mode !== 'pay') return false;
      return tradeOk(await call('POST', '/rest/v1.0/frontcashier/bindpay/sendsms', { token: ref.token, version: '1.0' }));
    },
    async confirmQuickPay(req) {
      const ref = parseRef(req.ref);
      if (!ref) return { status: 'failed', reason: 'unknown payment' };
      let quickBindId = req.card.quickBindId;
      if (ref.mode === 'sign') {
        const signed = await call('POST', '/rest/v1.0/frontcashier/bindcard/confirm', { parentMerchantNo: cfg.parentMerchantNo, merchantNo: cfg.parentMerchantNo, merchantFlowId: req.payNo, smsCode: req.smsCode });
        if (!tradeOk(signed) || !signed.bindId) return codeOrFailure(signed);
        quickBindId = String(signed.bindId);
        const pay = await call('POST', '/rest/v1.0/frontcashier/bindpay/request', { token: ref.token, bindId: quickBindId, userNo: req.card.userNo, userType: 'USER_ID', userIp: req.userIp, version: '1.0' });
        if (!tradeOk(pay)) return { status: 'failed', reason: msg(pay) };
      } else {
        const paid = await call('POST', '/rest/v1.0/frontcashier/bindpay/confirm', { token: ref.token, version: '1.0', verifyCode: req.smsCode });
        if (!tradeOk(paid)) return codeOrFailure(paid);
      }
      return { status: 'processing', tradeNo: ref.uniqueOrderNo || null, quickBindId };
    },
    verifyQuickPayNotify(params) {
      const r = envelopeJson(params);
      if (!r || !r.orderId || !r.uniqueOrderNo) return null;
      const amountFen = yuanToFenStrict(String(r.payAmount ?? r.orderAmount ?? ''));
      if (amountFen === null) return null;
      return { payNo: String(r.orderId), tradeNo: String(r.uniqueOrderNo), amountFen, paid: String(r.status ?? '') === 'SUCCESS', raw: flat(r) };
    },
    async queryQuickPay(payNo) {
      const r = await call('GET', '/rest/v1.0/trade/order/query', { parentMerchantNo: cfg.parentMerchantNo, merchantNo: cfg.parentMerchantNo, orderId: payNo });
      if (!tradeOk(r) || String(r.status ?? '') !== 'SUCCESS' || !r.uniqueOrderNo) return null;
      const amountFen = yuanToFenStrict(String(r.payAmount ?? r.orderAmount ?? ''));
      if (amountFen === null) return null;
      return { payNo, tradeNo: String(r.uniqueOrderNo), amountFen, paid: true, raw: flat(r) };
    },
    async refundQuickPay(req) {
      const r = await call('POST', '/rest/v1.0/trade/refund', {
        parentMerchantNo: cfg.parentMerchantNo,
        merchantNo: cfg.parentMerchantNo,
        orderId: req.payNo,
        uniqueOrderNo: req.tradeNo,
        refundRequestId: req.refundNo,
        refundAmount: fenToYuan(req.amountFen),
        notifyUrl: req.notifyUrl,
      });
      if (!tradeOk(r)) return { status: 'failed', refundTradeNo: null, reason: msg(r) };
      return refundOutcome(r);
    },
    async queryQuickPayRefund(req) {
      const r = await call('GET', '/rest/v1.0/trade/refund/query', { parentMerchantNo: cfg.parentMerchantNo, merchantNo: cfg.parentMerchantNo, orderId: req.payNo, uniqueOrderNo: req.tradeNo, refundRequestId: req.refundNo });
      return tradeOk(r) && r.status ? refundOutcome(r) : null;
    },
    verifyQuickPayRefundNotify(params) {
      const r = envelopeJson(params);
      if (!r || !r.refundRequestId || !r.status) return null;
      return { refundNo: String(r.refundRequestId), ...refundOutcome(r) };
    },
  };
  function tradeOk(r: Result) {
    return TRADE_OK.has(String(r.code ?? r.returnCode ?? ''));
  }
  function msg(r: Result) {
    return String(r.message ?? r.returnMsg ?? r.code ?? 'refused').slice(0, 300);
  }
  /** A wrong code leaves the charge open; anything else closes it. */
  function codeOrFailure(r: Result) {
    const text = `${String(r.code ?? '')} ${msg(r)}`;
    return /验证码|verify ?code|sms ?code/i.test(text) && !/次数|times/i.test(text) ? ({ status: 'bad_code' } as const) : ({ status: 'failed', reason: msg(r) } as const);
  }
  function refundOutcome(r: Result) {
    const status = String(r.status ?? '');
    return {
      status: status === 'SUCCESS' ? ('succeeded' as const) : status === 'FAILED' || status === 'CANCEL' ? ('failed' as const) : ('processing' as const),
      refundTradeNo: r.uniqueRefundNo ? String(r.uniqueRefundNo) : null,
      reason: status === 'FAILED' || status === 'CANCEL' ? String(r.errorMessage ?? r.message ?? status).slice(0, 300) : null,
    };
  }
  function envelopeJson(params: Record<string, string>): Result | null {
    const json = params.response ? openYopEnvelope(params.response, cfg.privateKey, cfg.platformPublicKey) : null;
    if (!json) return null;
    try {
      const r = JSON.parse(json) as unknown;
      return r && typeof r === 'object' ? (r as Result) : null;
    } catch {
      return null;
    }
  }
  function parseRef(ref: string): QuickRef | null {
    try {
      const r = JSON.parse(ref) as QuickRef;
      return (r.mode === 'sign' || r.mode === 'pay') && typeof r.token === 'string' ? r : null;
    } catch {
      return null;
    }
  }
  return provider;
}
