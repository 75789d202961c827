import crypto from 'node:crypto';
import type { Db } from '../../db/database.ts';
import { fenToYuan, signContent, yuanToFenStrict } from '../payment/types.ts';
import { randomDigits } from '../../util/crypto.ts';
import type { AccountOutcome, PayoutNotice, PayoutProvider, QuickPayRefundOutcome, QuickPayTrade } from './types.ts';

/**
 * The sandbox payout provider: a bank without money that really runs (docs/payouts.md "Sandbox").
 * Our module checks a card's number (Luhn), bank (BIN table), holder (= the sealed real name) and
 * phone before it gets here; the sandbox bank adds its own 4-element verdict and pays withdrawals
 * asynchronously: `submitWithdrawal` records the order in `sandbox_payouts`, the sandbox bank
 * (modules/payout/sandbox-bank.ts) settles it PAYOUT_SANDBOX_DELAY_MS later and POSTs an
 * HMAC-SHA256-signed notify to the notify URL over HTTP, and `queryWithdrawal` answers reconciliation.
 *
 * Test cards (by their last four digits; any Luhn-valid debit card of a supported bank otherwise passes):
 *   …4444  the bank's 4-element check fails (the reserved phone does not match);
 *   …0000  withdrawals to it fail at the bank (the money returns to the balance); quick payments from
 *          it are refused at the code ("余额不足", insufficient funds).
 *
 * Quick payment (快捷支付) from a bound card: `startQuickPay` records the charge in `sandbox_quickpays`
 * and sends its own 6-digit code to the reserved phone through the SMS provider (the dev outbox); codes
 * live 5 minutes, may be sent again 60 s apart (5 sends), and 5 wrong codes close the charge.
 * `confirmQuickPay` with the right code takes the money and POSTs an HMAC-SHA256-signed `quickpay`
 * notify at once (retried until answered); refunds are settled PAYOUT_SANDBOX_DELAY_MS later by the
 * sandbox bank with a signed `quickpay_refund` notify.
 */
export const QUICKPAY_CODE_TTL_MS = 5 * 60_000;
export const QUICKPAY_RESEND_MS = 60_000;
export const QUICKPAY_MAX_SENDS = 5;
export const QUICKPAY_MAX_WRONG = 5;

/** What the sandbox bank uses of the app: the SMS provider for its codes and the notifier for its notifies. */
export interface SandboxBankDeps {
  sendSms?: (mobile: string, code: string) => Promise<void>;
  notify?: (url: string, params: Record<string, string>) => void;
}
export const SANDBOX_MISMATCH_SUFFIX = '4444';
export const SANDBOX_FAILING_SUFFIX = '0000';

export interface SandboxPayout extends PayoutProvider {
  readonly name: 'sandbox';
  /** The signed notify of a settled sandbox payout. */
  notifyParams(p: { withdrawNo: string; tradeNo: string; amountFen: number; success: boolean; reason: string | null }, now: number): Record<string, string>;
  signNotify(params: Record<string, string>): Record<string, string>;
  /** The signed notify of a paid quick payment. */
  quickPayNotifyParams(p: { payNo: string; tradeNo: string; amountFen: number }, now: number): Record<string, string>;
  /** The signed notify of a settled quick-pay refund. */
  quickPayRefundNotifyParams(p: { refundNo: string; refundTradeNo: string; success: boolean; reason: string | null }, now: number): Record<string, string>;
}

const hmac = (secret: string, text: string) => crypto.createHmac('sha256', secret).update(text, 'utf8').digest('hex');

function safeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a, 'utf8');
  const y = Buffer.from(b, 'utf8');
  return x.length === y.length && crypto.timingSafeEqual(x, y);
}

/** The sandbox bank's quick-pay agreement id of a card (stable per card number, reveals nothing of it). */
const quickBindId = (cardNo: string) => `SBQB${crypto.createHash('sha256').update(`quickpay:${cardNo}`).digest('hex').slice(0, 16)}`;

const sandboxMerchantNo = (requestNo: string) => `SBM${BigInt(`0x${crypto.createHash('sha256').update(requestNo).digest('hex').slice(0, 12)}`).toString().padStart(15, '0').slice(-11)}`;

export function sandboxPayout(secret: string, db: Db, deps: SandboxBankDeps = {}): SandboxPayout {
  const notice = (row: { withdraw_no: string; trade_no: string; status: string; fail_reason: string | null }): PayoutNotice => ({
    withdrawNo: row.withdraw_no,
    tradeNo: row.trade_no,
    status: row.status === 'success' ? 'succeeded' : row.status === 'fail' ? 'failed' : 'processing',
    reason: row.status === 'fail' ? row.fail_reason ?? 'refused' : null,
  });
  const codeHash = (tradeNo: string, code: string) => hmac(secret, `quickpay-code:${tradeNo}:${code}`);
  const verified = (params: Record<string, string>) =>
    params.sign_type === 'HMAC-SHA256' && typeof params.sign === 'string' && safeEqual(params.sign, hmac(secret, signContent(params)));
  const provider: SandboxPayout = {
    name: 'sandbox',
    notifyAck: 'success',
    async verifyCard(card) {
      return card.cardNo.endsWith(SANDBOX_MISMATCH_SUFFIX) ? { ok: false, reason: 'mismatch' } : { ok: true };
    },
    async openAccount(req): Promise<AccountOutcome> {
      return { state: 'active', merchantNo: sandboxMerchantNo(req.requestNo) };
    },
    async queryAccount(requestNo) {
      return { state: 'active', merchantNo: sandboxMerchantNo(requestNo) };
    },
    async bindCard() {
      return { bindId: `SBC${crypto.randomBytes(6).toString('hex')}` };
    },
    async unbindCard() {},
    async submitWithdrawal(req) {
      await db.kysely
        .insertInto('sandbox_payouts')
        .values({ trade_no: `SBP${req.now}${crypto.randomBytes(5).toString('hex')}`, withdraw_no: req.withdrawNo, amount_fen: req.netFen, card_last4: req.last4, status: 'processing', fail_reason: null, notify_url: req.notifyUrl, received_at: req.now, created_at: req.now })
        .onConflict((oc) => oc.column('withdraw_no').doNothing())
        .execute();
      const row = await db.kysely.selectFrom('sandbox_payouts').select('trade_no').where('withdraw_no', '=', req.withdrawNo).executeTakeFirstOrThrow();
      return { accepted: true, tradeNo: row.trade_no };
    },
    signNotify(params) {
      const p = { ...params, sign_type: 'HMAC-SHA256' };
      return { ...p, sign: hmac(secret, signContent(p)) };
    },
    notifyParams(p, now) {
      return provider.signNotify({
        notify_type: 'payout',
        notify_id: crypto.randomBytes(8).toString('hex'),
        notify_time: new Date(now).toISOString(),
        withdraw_no: p.withdrawNo,
        trade_no: p.tradeNo,
        amount: fenToYuan(p.amountFen),
        status: p.success ? 'SUCCESS' : 'FAIL',
        fail_reason: p.reason ?? '',
      });
    },
    verifyNotify(params) {
      if (params.notify_type !== 'payout' || params.sign_type !== 'HMAC-SHA256' || typeof params.sign !== 'string') return null;
      if (!safeEqual(params.sign, hmac(secret, signContent(params)))) return null;
      if (!params.withdraw_no || !params.trade_no || (params.status !== 'SUCCESS' && params.status !== 'FAIL')) return null;
      return {
        withdrawNo: params.withdraw_no,
        tradeNo: params.trade_no,
        status: params.status === 'SUCCESS' ? 'succeeded' : 'failed',
        reason: params.status === 'FAIL' ? params.fail_reason || 'refused' : null,
      };
    },
    async queryWithdrawal(withdrawNo) {
      const row = await db.kysely.selectFrom('sandbox_payouts').selectAll().where('withdraw_no', '=', withdrawNo).executeTakeFirst();
      return row ? notice(row) : null;
    },

    async startQuickPay(req) {
      const known = await db.kysely.selectFrom('sandbox_quickpays').select(['trade_no', 'status']).where('request_no', '=', req.payNo).executeTakeFirst();
      if (known) return known.status === 'sms_sent' ? { accepted: true, tradeNo: known.trade_no, ref: known.trade_no } : { accepted: false, reason: '该笔支付已结束' };
      if (req.now >= req.expiresAt) return { accepted: false, reason: '订单已超过支付时间' };
      if (!Number.isSafeInteger(req.amountFen) || req.amountFen < 1) return { accepted: false, reason: '金额有误' };
      const tradeNo = `SBQ${req.now}${crypto.randomBytes(5).toString('hex')}`;
      const code = randomDigits(6);
      await db.kysely
        .insertInto('sandbox_quickpays')
        .values({
          trade_no: tradeNo, request_no: req.payNo, amount_fen: req.amountFen, refunded_fen: 0, card_last4: req.card.last4, status: 'sms_sent', fail_reason: null,
          code_hash: codeHash(tradeNo, code), code_expires_at: req.now + QUICKPAY_CODE_TTL_MS, wrong_tries: 0, sms_sends: 1, last_sms_at: req.now,
          expires_at: req.expiresAt, notify_url: req.notifyUrl, paid_at: null, created_at: req.now,
        })
        .execute();
      await deps.sendSms?.(req.card.mobile, code);
      return { accepted: true, tradeNo, ref: tradeNo };
    },
    async resendQuickPaySms(req) {
      const row = await db.kysely.selectFrom('sandbox_quickpays').selectAll().where('request_no', '=', req.payNo).executeTakeFirst();
      if (!row || row.status !== 'sms_sent' || req.now >= Number(row.expires_at)) return false;
      if (req.now - Number(row.last_sms_at) < QUICKPAY_RESEND_MS || Number(row.sms_sends) >= QUICKPAY_MAX_SENDS) return false;
      const code = randomDigits(6);
      const res = await db.kysely
        .updateTable('sandbox_quickpays')
        .set((e) => ({ code_hash: codeHash(row.trade_no, code), code_expires_at: req.now + QUICKPAY_CODE_TTL_MS, wrong_tries: 0, sms_sends: e('sms_sends', '+', 1), last_sms_at: req.now }))
        .where('trade_no', '=', row.trade_no)
        .where('status', '=', 'sms_sent')
        .where('sms_sends', '=', Number(row.sms_sends))
        .executeTakeFirst();
      if (Number(res.numUpdatedRows) !== 1) return false;
      await deps.sendSms?.(req.card.mobile, code);
      return true;
    },
    async confirmQuickPay(req) {
      const row = await db.kysely.selectFrom('sandbox_quickpays').selectAll().where('request_no', '=', req.payNo).executeTakeFirst();
      if (!row) return { status: 'failed', reason: '支付请求不存在' };
      if (row.status === 'success') return { status: 'succeeded', tradeNo: row.trade_no, quickBindId: quickBindId(req.card.cardNo) };
      if (row.status !== 'sms_sent') return { status: 'failed', reason: row.fail_reason ?? '支付失败' };
      const close = async (reason: string) => {
        await db.kysely.updateTable('sandbox_quickpays').set({ status: 'fail', fail_reason: reason }).where('trade_no', '=', row.trade_no).where('status', '=', 'sms_sent').execute();
        return { status: 'failed' as const, reason };
      };
      if (req.now >= Number(row.expires_at)) return close('订单已超过支付时间');
      // A try is reserved before the code is compared: concurrent guesses never compare more than the allowed tries.
      const reserved = await db.kysely
        .updateTable('sandbox_quickpays')
        .set((e) => ({ wrong_tries: e('wrong_tries', '+', 1) }))
        .where('trade_no', '=', row.trade_no)
        .where('status', '=', 'sms_sent')
        .where('wrong_tries', '<', QUICKPAY_MAX_WRONG)
        .returning('wrong_tries')
        .executeTakeFirst();
      if (!reserved) return close('验证码错误次数过多');
      if (req.now >= Number(row.code_expires_at) || !safeEqual(row.code_hash, codeHash(row.trade_no, req.smsCode.trim()))) {
        // The last allowed wrong code closes the charge: the next answer is a refusal.
        if (Number(reserved.wrong_tries) >= QUICKPAY_MAX_WRONG) await close('验证码错误次数过多');
        return { status: 'bad_code' };
      }
      if (row.card_last4 === SANDBOX_FAILING_SUFFIX) return close('余额不足 (sandbox test card)');
      const paid = await db.kysely
        .updateTable('sandbox_quickpays')
        .set((e) => ({ status: 'success', paid_at: req.now, wrong_tries: e('wrong_tries', '-', 1) }))
        .where('trade_no', '=', row.trade_no)
        .where('status', '=', 'sms_sent')
        .executeTakeFirst();
      if (Number(paid.numUpdatedRows) === 1) deps.notify?.(row.notify_url, provider.quickPayNotifyParams({ payNo: row.request_no, tradeNo: row.trade_no, amountFen: Number(row.amount_fen) }, req.now));
      return { status: 'succeeded', tradeNo: row.trade_no, quickBindId: quickBindId(req.card.cardNo) };
    },
    quickPayNotifyParams(p, now) {
      return provider.signNotify({
        notify_type: 'quickpay',
        notify_id: crypto.randomBytes(8).toString('hex'),
        notify_time: new Date(now).toISOString(),
        pay_no: p.payNo,
        trade_no: p.tradeNo,
        amount: fenToYuan(p.amountFen),
        status: 'SUCCESS',
      });
    },
    verifyQuickPayNotify(params) {
      if (params.notify_type !== 'quickpay' || !verified(params)) return null;
      const amountFen = yuanToFenStrict(params.amount);
      if (!params.pay_no || !params.trade_no || amountFen === null) return null;
      return { payNo: params.pay_no, tradeNo: params.trade_no, amountFen, paid: params.status === 'SUCCESS', raw: params };
    },
    async queryQuickPay(payNo): Promise<QuickPayTrade | null> {
      const row = await db.kysely.selectFrom('sandbox_quickpays').selectAll().where('request_no', '=', payNo).executeTakeFirst();
      if (!row || row.status !== 'success') return null;
      return { payNo, tradeNo: row.trade_no, amountFen: Number(row.amount_fen), paid: true, raw: { trade_no: row.trade_no, status: 'SUCCESS', source: 'query' } };
    },
    async refundQuickPay(req): Promise<QuickPayRefundOutcome> {
      const known = await db.kysely.selectFrom('sandbox_quickpay_refunds').selectAll().where('out_request_no', '=', req.refundNo).executeTakeFirst();
      if (known) return { status: known.status === 'success' ? 'succeeded' : 'processing', refundTradeNo: known.refund_trade_no, reason: null };
      if (!Number.isSafeInteger(req.amountFen) || req.amountFen < 1) return { status: 'failed', refundTradeNo: null, reason: '退款金额有误' };
      const refundTradeNo = `SBQR${req.now}${crypto.randomBytes(4).toString('hex')}`;
      // The charge must exist, be paid, and keep refunds within its amount (one conditional UPDATE).
      const took = await db.kysely
        .updateTable('sandbox_quickpays')
        .set((e) => ({ refunded_fen: e('refunded_fen', '+', req.amountFen) }))
        .where('trade_no', '=', req.tradeNo)
        .where('request_no', '=', req.payNo)
        .where('status', '=', 'success')
        .where((e) => e(e('refunded_fen', '+', req.amountFen), '<=', e.ref('amount_fen')))
        .executeTakeFirst();
      if (Number(took.numUpdatedRows) !== 1) return { status: 'failed', refundTradeNo: null, reason: '交易不存在或退款超过交易金额' };
      await db.kysely
        .insertInto('sandbox_quickpay_refunds')
        .values({ refund_trade_no: refundTradeNo, out_request_no: req.refundNo, trade_no: req.tradeNo, amount_fen: req.amountFen, status: 'processing', notify_url: req.notifyUrl, received_at: req.now, created_at: req.now })
        .execute();
      return { status: 'processing', refundTradeNo, reason: null };
    },
    async queryQuickPayRefund(req) {
      const row = await db.kysely.selectFrom('sandbox_quickpay_refunds').selectAll().where('out_request_no', '=', req.refundNo).executeTakeFirst();
      if (!row) return null;
      return { status: row.status === 'success' ? 'succeeded' : 'processing', refundTradeNo: row.refund_trade_no, reason: null };
    },
    quickPayRefundNotifyParams(p, now) {
      return provider.signNotify({
        notify_type: 'quickpay_refund',
        notify_id: crypto.randomBytes(8).toString('hex'),
        notify_time: new Date(now).toISOString(),
        refund_no: p.refundNo,
        refund_trade_no: p.refundTradeNo,
        status: p.success ? 'SUCCESS' : 'FAIL',
        fail_reason: p.reason ?? '',
      });
    },
    verifyQuickPayRefundNotify(params) {
      if (params.notify_type !== 'quickpay_refund' || !verified(params)) return null;
      if (!params.refund_no || (params.status !== 'SUCCESS' && params.status !== 'FAIL')) return null;
      return { refundNo: params.refund_no, refundTradeNo: params.refund_trade_no || null, status: params.status === 'SUCCESS' ? 'succeeded' : 'failed', reason: params.status === 'FAIL' ? params.fail_reason || 'refused' : null };
    },
  };
  return provider;
}
