import crypto from 'node:crypto';
import type { YeepayConfig } from '../../modules/payout/payout-config.ts';
import { fenToYuan } from '../payment/types.ts';
import type { AccountOutcome, PayoutNotice, PayoutProvider } from './types.ts';
import { openYopEnvelope, signYopRequest, verifyYopResponse } from './yop-sign.ts';

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

const SUCCESS_CODES = new Set(['UA00000', '00000', 'SUCCESS']);

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
  return {
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
  };
}
