import { expect } from 'vitest';
import { luhnCheckDigit } from '../src/modules/payout/card-number.ts';
import { payoutRuntime } from '../src/modules/payout/runtime.ts';
import { SANDBOX_MISMATCH_SUFFIX } from '../src/providers/payout/sandbox.ts';
import { API, call, captchaToken, latestCode, newMobile, register, type TestApp } from './helpers.ts';
import { png, upload } from './upload-helpers.ts';

/**
 * Helpers of the money-out tests: users who really registered and verified their real name through the
 * API (the sandbox KYC), Luhn-valid card numbers of real BINs, binding a card with the code from the SMS
 * outbox, the security code of the account phone, and running the job worker's tasks.
 */
let idSeq = 100 + (process.pid % 500);
/** A valid GB 11643 number of an adult born on 1990-01-01 (region 110101). */
export function adultId(): string {
  const first17 = `11010119900101${String(++idSeq % 1000).padStart(3, '0')}`;
  const w = [7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2];
  const sum = [...first17].reduce((s, c, i) => s + Number(c) * w[i]!, 0);
  return first17 + '10X98765432'[sum % 11];
}

let cardSeq = Math.floor(Math.random() * 1e6);
/**
 * A Luhn-valid 19-digit ICBC debit card (BIN 622202) ending in `last4` (the sandbox's test suffixes:
 * 4444 = the bank's 4-element check fails, 0000 = withdrawals fail).
 */
export function cardNumber(last4?: string, bin = '622202', length = 19): string {
  for (;;) {
    const middle = String(++cardSeq).padStart(length - bin.length - 5, '0').slice(-(length - bin.length - 5));
    if (last4 === undefined) {
      const body = bin + middle + String(cardSeq % 10000).padStart(4, '0');
      const cardNo = body + luhnCheckDigit(body);
      // Never the sandbox bank's "does not match" card by chance (about one card in 10,000 from the random start).
      if (!cardNo.endsWith(SANDBOX_MISMATCH_SUFFIX)) return cardNo;
      continue;
    }
    // the last digit is the check digit: vary the middle until the wanted last four are valid
    const candidate = bin + String(cardSeq).padStart(length - bin.length - 4, '0').slice(-(length - bin.length - 4)) + last4;
    const body = candidate.slice(0, -1);
    if (luhnCheckDigit(body) === last4.slice(-1)) return candidate;
  }
}

export interface PayoutUser {
  userId: number;
  token: string;
  mobile: string;
  name: string;
  idNumber: string;
  h: Record<string, string>;
}

/** Registers (SMS code), verifies the real name (sandbox KYC) and returns the user. */
export async function verifiedUser(t: TestApp, name = '张三'): Promise<PayoutUser> {
  const u = await register(t);
  const h = { token: u.token, lang: 'en' };
  const idNumber = adultId();
  const r = await call(t, '/api/user/profile/v1/submitrealname', { name, idNumber }, h);
  expect(r.status, r.message).toBe('000000');
  const row = await t.ctx.db.kysely.selectFrom('users').select('id').where('mobile', '=', u.mobile).executeTakeFirstOrThrow();
  return { userId: Number(row.id), token: u.token, mobile: u.mobile, name, idNumber, h };
}

/** addBindCard with a fresh captcha token. */
export async function addCard(t: TestApp, u: PayoutUser, card: { cardNo: string; mobile: string; name?: string; idNumber?: string }, path = '/payment/account/V1/addBindCard') {
  return call(t, path, { name: card.name ?? u.name, idNumber: card.idNumber ?? u.idNumber, cardNo: card.cardNo, mobile: card.mobile, NECaptchaValidate: await captchaToken(t) }, u.h);
}

/** Binds a card end to end (the code from the outbox); returns the card and the reserved phone. */
export async function bindCard(t: TestApp, u: PayoutUser, cardNo = cardNumber(), mobile = newMobile()) {
  const started = await addCard(t, u, { cardNo, mobile });
  expect(started.status, started.message).toBe('000000');
  const code = await latestCode(t, mobile);
  const done = await call(t, '/payment/account/V1/affirmBindCard', { bindId: started.data.bindId, smsCode: code }, u.h);
  expect(done.status, done.message).toBe('000000');
  return { card: done.data, cardNo, mobile };
}

/** Uploads both ID-card photos. */
export async function uploadIdentity(t: TestApp, u: PayoutUser) {
  for (const side of ['front', 'back']) {
    const r = await upload(t, `/payment/account/V1/uploadIdentity?side=${side}`, u.token, { data: png(400, 250), filename: `${side}.png`, contentType: 'image/png' });
    expect(r.status, r.message).toBe('000000');
  }
}

/** Card, ID photos and the opened payout account. */
export async function openAccount(t: TestApp, u: PayoutUser, cardNo = cardNumber()) {
  const bound = await bindCard(t, u, cardNo);
  await uploadIdentity(t, u);
  const r = await call(t, '/payment/account/V1/createSecondAccound', { provinceCode: '11', cityCode: '110105', address: '朝阳区建国路88号' }, u.h);
  expect(r.status, r.message).toBe('000000');
  expect(r.data.state).toBe('active');
  return bound;
}

/** A security code (type 4) sent to the account's own phone, 61 s after the last code to it. */
export async function securityCode(t: TestApp, u: PayoutUser): Promise<string> {
  t.clock.t += 61_000;
  const r = await call(t, '/api/user/v1/mobile/smscode', { NECaptchaValidate: await captchaToken(t) }, u.h);
  expect(r.status, r.message).toBe('000000');
  return latestCode(t, u.mobile);
}

/** Runs due jobs and periodic tasks (sandbox bank, reconciliation) and waits for the notifies they send. */
export async function runWorker(t: TestApp) {
  await t.ctx.jobs.runOnce();
  await payoutRuntime(t.ctx)!.notifier.idle();
}

export async function balanceOf(t: TestApp, h: Record<string, string>): Promise<number> {
  const res = await t.app.inject({ method: 'GET', url: `${API}/payment/account/V1/queryBalance`, headers: { channel: 'pc', ...h } });
  return res.json().data.availableFen;
}

export async function withdrawal(t: TestApp, withdrawNo: string) {
  return t.ctx.db.kysely.selectFrom('payout_withdrawals').selectAll().where('withdraw_no', '=', withdrawNo).executeTakeFirstOrThrow();
}
