import crypto from 'node:crypto';
import type { Db } from '../../db/database.ts';
import { fenToYuan, signContent } from '../payment/types.ts';
import type { AccountOutcome, PayoutNotice, PayoutProvider } from './types.ts';

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
 *   …0000  withdrawals to it fail at the bank (the money returns to the balance).
 */
export const SANDBOX_MISMATCH_SUFFIX = '4444';
export const SANDBOX_FAILING_SUFFIX = '0000';

export interface SandboxPayout extends PayoutProvider {
  readonly name: 'sandbox';
  /** The signed notify of a settled sandbox payout. */
  notifyParams(p: { withdrawNo: string; tradeNo: string; amountFen: number; success: boolean; reason: string | null }, now: number): Record<string, string>;
  signNotify(params: Record<string, string>): Record<string, string>;
}

const hmac = (secret: string, text: string) => crypto.createHmac('sha256', secret).update(text, 'utf8').digest('hex');

function safeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a, 'utf8');
  const y = Buffer.from(b, 'utf8');
  return x.length === y.length && crypto.timingSafeEqual(x, y);
}

const sandboxMerchantNo = (requestNo: string) => `SBM${BigInt(`0x${crypto.createHash('sha256').update(requestNo).digest('hex').slice(0, 12)}`).toString().padStart(15, '0').slice(-11)}`;

export function sandboxPayout(secret: string, db: Db): SandboxPayout {
  const notice = (row: { withdraw_no: string; trade_no: string; status: string; fail_reason: string | null }): PayoutNotice => ({
    withdrawNo: row.withdraw_no,
    tradeNo: row.trade_no,
    status: row.status === 'success' ? 'succeeded' : row.status === 'fail' ? 'failed' : 'processing',
    reason: row.status === 'fail' ? row.fail_reason ?? 'refused' : null,
  });
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
  };
  return provider;
}
