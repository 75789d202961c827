import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PayoutNotifyPaths } from '@cfx/contract/payouts.ts';
import { PaymentNotifyPaths } from '@cfx/contract/routes.ts';
import { signContent } from '../src/providers/payment/types.ts';
import { luhnValid, lookupCard } from '../src/modules/payout/card-number.ts';
import { createWithdrawal, submitWithdrawal, withdrawalFee } from '../src/modules/payout/withdraw.ts';
import { reconcilePayouts } from '../src/modules/payout/reconcile.ts';
import { ledgerProblems } from '../src/modules/ledger/ledger.ts';
import { awayFromChinaMidnight, call, latestCode, newMobile, type TestApp } from './helpers.ts';
import { createOrderFor, listForSale, makeGoods, makeMarketApp, makeRelease, makeTrader, orderStatus, topup, type FakeChain, type Release } from './market-helpers.ts';
import { addCard, balanceOf, bindCard, cardNumber, openAccount, runWorker, securityCode, verifiedUser, withdrawal } from './payouts-helpers.ts';

/**
 * Money out (docs/payouts.md) on a real database (SQLite, or PostgreSQL with TEST_PG_URL): bank cards
 * with the 4-element check and the SMS code, the payout account, withdrawals through the ledger with
 * the sandbox bank's signed notifies over the app, reconciliation, and refunds of stray payments to
 * their original method. The business clock is moved instead of sleeping.
 */
const PAYOUT_SECRET = 'test-payout-secret';
const PAYMENT_SECRET = 'test-sandbox-secret';
let t: TestApp & { chain: FakeChain };
let release: Release;

beforeAll(async () => {
  t = await makeMarketApp({ PAYOUT_SANDBOX_SECRET: PAYOUT_SECRET, PAYOUT_SANDBOX_DELAY_MS: '3000' });
  release = await makeRelease(t);
});
afterAll(async () => {
  await t?.close();
});

const A = '/payment/account/V1';
const expectBalanced = async () => expect(await ledgerProblems(t.ctx.db.kysely)).toEqual([]);

/** A payout notify signed as the sandbox bank signs it. */
function payoutNotify(p: Record<string, string>, secret = PAYOUT_SECRET): Record<string, string> {
  const withType = { notify_type: 'payout', ...p, sign_type: 'HMAC-SHA256' };
  return { ...withType, sign: crypto.createHmac('sha256', secret).update(signContent(withType)).digest('hex') };
}
async function postForm(path: string, params: Record<string, string>) {
  const res = await t.app.inject({ method: 'POST', url: path, headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: new URLSearchParams(params).toString() });
  return { http: res.statusCode, body: res.body };
}

describe('card numbers', () => {
  it('checks the Luhn digit and finds bank and kind by BIN and length', () => {
    expect(luhnValid('6222020200112345678')).toBe(luhnValid('6222020200112345678'));
    const good = cardNumber();
    expect(luhnValid(good)).toBe(true);
    const bad = good.slice(0, -1) + String((Number(good.slice(-1)) + 1) % 10);
    expect(luhnValid(bad)).toBe(false);
    expect(lookupCard(good)).toMatchObject({ kind: 'debit', bank: { code: 'ICBC', name: '中国工商银行' } });
    expect(lookupCard(cardNumber(undefined, '622848'))).toMatchObject({ kind: 'debit', bank: { code: 'ABC' } });
    // a China Merchants Bank credit card BIN (16 digits) is recognised and refused as credit
    expect(lookupCard(cardNumber(undefined, '622575', 16))).toMatchObject({ kind: 'credit', bank: { code: 'CMB' } });
    expect(lookupCard('9999990000000000001').kind).toBe('unknown');
    expect(cardNumber('0000').endsWith('0000')).toBe(true);
    expect(luhnValid(cardNumber('4444'))).toBe(true);
  });
});

describe('binding a card: the 4-element check and the SMS code', () => {
  it('refuses each failing element with its message, then binds with the code sent to the reserved phone', async () => {
    const u = await verifiedUser(t);
    const mobile = newMobile();
    const good = cardNumber();
    const bad = good.slice(0, -1) + String((Number(good.slice(-1)) + 1) % 10);
    const cases: [Record<string, string>, string, string][] = [
      [{ cardNo: bad, mobile }, '1060', 'the card number is not valid, please check it'],
      [{ cardNo: cardNumber(undefined, '999999'), mobile }, '1060', "this card's bank is not supported; please use a debit card of a major bank"],
      [{ cardNo: cardNumber(undefined, '622575', 16), mobile }, '1060', 'only debit cards can receive withdrawals, not credit cards'],
      [{ cardNo: good, mobile, name: '李四' }, '1060', 'the card holder must be the verified person: the name or ID number differs from your real-name record'],
      [{ cardNo: good, mobile, idNumber: '110101199001011234' }, '1060', 'the card holder must be the verified person: the name or ID number differs from your real-name record'],
      [{ cardNo: good, mobile: '1380013' }, '1060', 'please enter the phone number reserved at the bank'],
      [{ cardNo: cardNumber('4444'), mobile }, '1060', 'the bank could not verify the card: the name, ID number, card number and reserved phone do not match'],
    ];
    for (const [card, status, message] of cases) {
      const r = await addCard(t, u, card as { cardNo: string; mobile: string });
      expect([r.status, r.message], JSON.stringify(card)).toEqual([status, message]);
    }
    // nothing was sent for a refused card
    expect((await t.app.inject({ method: 'GET', url: `/mvapi/public/dev/sms-outbox?mobile=${mobile}` })).json().data).toHaveLength(0);
    // without the slider token: 1007
    const noCaptcha = await call(t, `${A}/addBindCard`, { name: u.name, idNumber: u.idNumber, cardNo: good, mobile, NECaptchaValidate: 'x' }, u.h);
    expect(noCaptcha.status).toBe('1007');

    const started = await addCard(t, u, { cardNo: `${good.slice(0, 4)} ${good.slice(4, 8)} ${good.slice(8)}`, mobile });
    expect(started).toMatchObject({ status: '000000', data: { purpose: 'bind', bankCode: 'ICBC', bankName: '中国工商银行', cardMasked: `${good.slice(0, 4)} **** **** ${good.slice(-4)}`, mobileMasked: `${mobile.slice(0, 3)}****${mobile.slice(-4)}` } });
    const code = await latestCode(t, mobile);
    // resend: refused within 60 s, allowed after
    const again = await call(t, `${A}/getVerifyCode`, { bindId: started.data.bindId, NECaptchaValidate: (await call(t, '/dev/captcha-token')).data.NECaptchaValidate }, u.h);
    expect(again.status).toBe('1006');
    const wrong = await call(t, `${A}/affirmBindCard`, { bindId: started.data.bindId, smsCode: code === '000000' ? '111111' : '000000' }, u.h);
    expect([wrong.status, wrong.message]).toEqual(['1004', 'verification code incorrect or expired']);
    const done = await call(t, `${A}/affirmBindCard`, { bindId: started.data.bindId, smsCode: code }, u.h);
    expect(done).toMatchObject({ status: '000000', message: 'bank card bound', data: { bankCode: 'ICBC', last4: good.slice(-4), logo: '/media/banks/ICBC.svg', holderMasked: '*三' } });
    // the number is stored sealed, never in clear
    const row = await t.ctx.db.kysely.selectFrom('payout_cards').selectAll().where('user_id', '=', u.userId).executeTakeFirstOrThrow();
    expect(row.card_sealed).not.toContain(good);
    expect(JSON.stringify(row)).not.toContain(good);
    expect(JSON.stringify(row)).not.toContain(mobile);
    expect(t.ctx.secrets.open(row.card_sealed)).toBe(good);
    // one active card: a second bind is refused, the same card for another user too
    const second = await addCard(t, u, { cardNo: cardNumber(), mobile: newMobile() });
    expect([second.status, second.message]).toEqual(['1061', 'a card is already bound; use "replace card" to change it']);
    const other = await verifiedUser(t, '王五');
    const stolen = await addCard(t, other, { cardNo: good, mobile: newMobile() });
    expect([stolen.status, stolen.message]).toEqual(['1060', 'this card is bound to another account']);
    // the logo is served
    const logo = await t.app.inject({ method: 'GET', url: '/media/banks/ICBC.svg' });
    expect(logo.headers['content-type']).toMatch(/image\/svg\+xml/);
    expect(logo.body).toContain('工');
  });

  it('an expired code or binding request cannot bind; a used code cannot be used twice', async () => {
    const u = await verifiedUser(t);
    const mobile = newMobile();
    const started = await addCard(t, u, { cardNo: cardNumber(), mobile });
    const code = await latestCode(t, mobile);
    t.clock.t += 5 * 60_000 + 1; // codes live 5 minutes
    const expired = await call(t, `${A}/affirmBindCard`, { bindId: started.data.bindId, smsCode: code }, u.h);
    expect([expired.status, expired.message]).toEqual(['1004', 'verification code incorrect or expired']);
    // a fresh code for the same request binds it
    const resent = await call(t, `${A}/getVerifyCode`, { bindId: started.data.bindId, NECaptchaValidate: (await call(t, '/dev/captcha-token')).data.NECaptchaValidate }, u.h);
    expect(resent.status, resent.message).toBe('000000');
    const fresh = await latestCode(t, mobile);
    t.clock.t += 10 * 60_000; // the request itself lives 10 minutes
    const late = await call(t, `${A}/affirmBindCard`, { bindId: started.data.bindId, smsCode: fresh }, u.h);
    expect([late.status, late.message]).toEqual(['1061', 'the binding request does not exist or has expired, please start again']);
    expect(await t.ctx.db.kysely.selectFrom('payout_cards').select('id').where('user_id', '=', u.userId).execute()).toHaveLength(0);
  });

  it('concurrent confirmations of two bindings leave exactly one active card', async () => {
    const u = await verifiedUser(t);
    // two requests (the second voids the first), then both confirmations at once: only the live one binds
    const m1 = newMobile();
    const m2 = newMobile();
    const r1 = await addCard(t, u, { cardNo: cardNumber(), mobile: m1 });
    const c1 = await latestCode(t, m1);
    const r2 = await addCard(t, u, { cardNo: cardNumber(), mobile: m2 });
    const c2 = await latestCode(t, m2);
    const [a, b] = await Promise.all([
      call(t, `${A}/affirmBindCard`, { bindId: r1.data.bindId, smsCode: c1 }, u.h),
      call(t, `${A}/affirmBindCard`, { bindId: r2.data.bindId, smsCode: c2 }, u.h),
    ]);
    expect([a.status, b.status].sort()).toEqual(['000000', '1061']);
    expect(await t.ctx.db.kysely.selectFrom('payout_cards').select('id').where('user_id', '=', u.userId).where('status', '=', 'active').execute()).toHaveLength(1);
  });

  it('replaces the card and changes the reserved phone with a new check and code; unbinds with the security code', async () => {
    const u = await verifiedUser(t);
    const first = await bindCard(t, u);
    const nextCard = cardNumber();
    const m = newMobile();
    const same = await addCard(t, u, { cardNo: first.cardNo, mobile: m }, `${A}/editSecondAccountBankCard`);
    expect(same.status).toBe('1061');
    const rep = await addCard(t, u, { cardNo: nextCard, mobile: m }, `${A}/editSecondAccountBankCard`);
    expect(rep.data.purpose).toBe('replace');
    const done = await call(t, `${A}/affirmBindCard`, { bindId: rep.data.bindId, smsCode: await latestCode(t, m) }, u.h);
    expect(done).toMatchObject({ status: '000000', message: 'bank card replaced', data: { last4: nextCard.slice(-4) } });
    const cards = await t.ctx.db.kysely.selectFrom('payout_cards').select(['status', 'last4']).where('user_id', '=', u.userId).orderBy('id').execute();
    expect(cards).toEqual([{ status: 'replaced', last4: first.cardNo.slice(-4) }, { status: 'active', last4: nextCard.slice(-4) }]);

    const newPhone = newMobile();
    const mob = await call(t, `${A}/editSecondAccountMobile`, { mobile: newPhone, NECaptchaValidate: (await call(t, '/dev/captcha-token')).data.NECaptchaValidate }, u.h);
    expect(mob.data).toMatchObject({ purpose: 'mobile', cardMasked: done.data.cardMasked });
    const changed = await call(t, `${A}/affirmBindCard`, { bindId: mob.data.bindId, smsCode: await latestCode(t, newPhone) }, u.h);
    expect(changed).toMatchObject({ status: '000000', message: 'reserved phone changed', data: { mobileMasked: `${newPhone.slice(0, 3)}****${newPhone.slice(-4)}` } });

    const bad = await call(t, `${A}/unbindAccountBankCard`, { smsCode: '000000' }, u.h);
    expect(bad.status).toBe('1004');
    const un = await call(t, `${A}/unbindAccountBankCard`, { smsCode: await securityCode(t, u) }, u.h);
    expect([un.status, un.message]).toEqual(['000000', 'bank card unbound']);
    expect((await call(t, `${A}/querySecondAccount`, {}, u.h)).data.card).toBeNull();
  });
});

describe('the payout account', () => {
  it('says what is missing, refuses a bad region, and opens with card, ID photos and address', async () => {
    const u = await verifiedUser(t);
    const before = await call(t, `${A}/querySecondAccount`, {}, u.h);
    expect(before.data).toMatchObject({ state: 'none', missing: ['card', 'identity'], realname: { verified: true, nameMasked: '*三' } });
    const noCard = await call(t, `${A}/createSecondAccound`, { provinceCode: '11', cityCode: '110105', address: '朝阳区建国路88号' }, u.h);
    expect(noCard.status).toBe('1061');
    await bindCard(t, u);
    const noPhotos = await call(t, `${A}/createSecondAccound`, { provinceCode: '11', cityCode: '110105', address: '朝阳区建国路88号' }, u.h);
    expect([noPhotos.status, noPhotos.message]).toEqual(['1061', 'please upload both sides of your ID card first']);
    const { uploadIdentity } = await import('./payouts-helpers.ts');
    await uploadIdentity(t, u);
    const badRegion = await call(t, `${A}/createSecondAccound`, { provinceCode: '11', cityCode: '440300', address: '朝阳区建国路88号' }, u.h);
    expect([badRegion.status, badRegion.message]).toEqual(['1001', 'please choose a valid province and city']);
    const opened = await call(t, `${A}/createSecondAccound`, { provinceCode: '44', cityCode: '4403', address: '南山区科技园路1号' }, u.h);
    expect(opened).toMatchObject({ status: '000000', message: 'payout account opened', data: { state: 'active', missing: [], region: { provinceName: '广东省', cityName: '深圳市' } } });
    expect(opened.data.accountNo).toMatch(/^SBM\*{4}\d{4}$/);
    // the ID photos are the owner's only
    const front = opened.data.identity.front.url as string;
    expect((await t.app.inject({ method: 'GET', url: front, headers: { token: u.token } })).statusCode).toBe(200);
    const other = await verifiedUser(t, '赵六');
    expect((await t.app.inject({ method: 'GET', url: front, headers: { token: other.token } })).statusCode).toBe(404);
    const twice = await call(t, `${A}/createSecondAccound`, { provinceCode: '44', cityCode: '4403', address: '南山区科技园路1号' }, u.h);
    expect(twice.status).toBe('1061');
  });

  it('serves the bank list and the province/city tree (static, cached)', async () => {
    const banks = await call(t, '/payment/blank/dict/list', {});
    expect(banks.data.length).toBe(15);
    expect(banks.data[0]).toMatchObject({ code: 'ICBC', name: '中国工商银行', logo: '/media/banks/ICBC.svg' });
    const tree = await t.app.inject({ method: 'GET', url: '/mvapi/public/payment/area/dict/tree/list' });
    expect(tree.headers['cache-control']).toBe('public, max-age=86400');
    const data = tree.json().data as { code: string; name: string; children: { code: string; name: string }[] }[];
    expect(data).toHaveLength(31);
    expect(data.find((p) => p.code === '44')!.children.find((c) => c.code === '4403')!.name).toBe('深圳市');
    expect(data.reduce((n, p) => n + p.children.length, 0)).toBeGreaterThan(400);
  });
});

describe('withdrawals', () => {
  it('fee math in integer fen and the limits, shown before confirming', async () => {
    expect(withdrawalFee(t.ctx, 1000)).toBe(100); // 0.6 % = 6 fen, the minimum fee is ￥1.00
    expect(withdrawalFee(t.ctx, 100_000)).toBe(600);
    expect(withdrawalFee(t.ctx, 16_667)).toBe(101); // 100.002 → rounded up
    expect(withdrawalFee(t.ctx, 5_000_000)).toBe(30_000);
    awayFromChinaMidnight(t); // the daily count below must not straddle China midnight
    const u = await verifiedUser(t);
    const none = await call(t, `${A}/withdrawPreview`, { amountFen: 5000 }, u.h);
    expect(none.data).toMatchObject({ accountState: 'none', refusal: 'please open the payout account first' });
    await openAccount(t, u);
    await topup(t, { h: u.h } as never, 2_000_000);
    const p = await call(t, `${A}/withdrawPreview`, { amountFen: 123_456 }, u.h);
    expect(p.data).toMatchObject({ availableFen: 2_000_000, amountFen: 123_456, feeFen: 741, netFen: 122_715, refusal: null, limits: { minFen: 1000, maxFen: 5_000_000, feePermille: 6, minFeeFen: 100, dailyCount: 3, dailyMaxFen: 10_000_000 } });
    expect((await call(t, `${A}/withdrawPreview`, { amountFen: 999 }, u.h)).data.refusal).toBe('a withdrawal must be at least ￥10.00');
    expect((await call(t, `${A}/withdrawPreview`, { amountFen: 5_000_001 }, u.h)).data.refusal).toBe('a withdrawal can be at most ￥50,000.00');
    expect((await call(t, `${A}/withdrawPreview`, { amountFen: 2_000_001 }, u.h)).data.refusal).toBe('insufficient balance');
    const below = await call(t, `${A}/withdraw`, { amountFen: 999, smsCode: '000000' }, u.h);
    expect([below.status, below.message]).toEqual(['1062', 'a withdrawal must be at least ￥10.00']);
    const wrongCode = await call(t, `${A}/withdraw`, { amountFen: 10_000, smsCode: '000000' }, u.h);
    expect(wrongCode.status).toBe('1004');
    // three a day, then refused until the next China day
    for (let i = 0; i < 3; i++) {
      const w = await call(t, `${A}/withdraw`, { amountFen: 10_000, smsCode: await securityCode(t, u) }, u.h);
      expect(w, w.message).toMatchObject({ status: '000000', message: 'withdrawal submitted; you will be told when it arrives', data: { amountFen: 10_000, feeFen: 100, netFen: 9900, status: 'processing' } });
    }
    const fourth = await call(t, `${A}/withdraw`, { amountFen: 10_000, smsCode: await securityCode(t, u) }, u.h);
    expect([fourth.status, fourth.message]).toEqual(['1062', 'daily withdrawal limit reached (3 per day)']);
    expect(await balanceOf(t, u.h)).toBe(2_000_000 - 30_000);
    await expectBalanced();
  });

  it('is paid by the sandbox bank after its delay through a signed notify; replays change nothing', async () => {
    const u = await verifiedUser(t);
    await openAccount(t, u);
    await topup(t, { h: u.h } as never, 50_000);
    const w = await call(t, `${A}/withdraw`, { amountFen: 20_000, smsCode: await securityCode(t, u) }, u.h);
    expect(w.data.status).toBe('processing');
    const no = w.data.withdrawNo as string;
    const before = await withdrawal(t, no);
    expect(before.provider_trade_no).toMatch(/^SBP/);
    // not before the delay
    await runWorker(t);
    expect((await withdrawal(t, no)).status).toBe('processing');
    t.clock.t += 3000;
    await runWorker(t);
    const after = await withdrawal(t, no);
    expect(after.status).toBe('succeeded');
    expect(await balanceOf(t, u.h)).toBe(30_000);
    const list = await call(t, `${A}/pageListWithdraw`, { pageNum: 1, pageSize: 10 }, u.h);
    expect(list.data.list[0]).toMatchObject({ withdrawNo: no, status: 'succeeded', netFen: 19_880, feeFen: 120, bankName: '中国工商银行' });
    const fee = await t.ctx.db.kysely.selectFrom('ledger_entries').select('amount_fen').where('txn_id', '=', `withdraw-paid:${no}`).where('account', '=', 'platform:fee').executeTakeFirstOrThrow();
    expect(Number(fee.amount_fen)).toBe(120);

    // A replay of the success, a forged failure for the same withdrawal, a bad signature, another trade number.
    const ok = payoutNotify({ withdraw_no: no, trade_no: after.provider_trade_no!, status: 'SUCCESS', amount: '198.80' });
    expect(await postForm(PayoutNotifyPaths.sandbox, ok)).toEqual({ http: 200, body: 'success' });
    const fail = payoutNotify({ withdraw_no: no, trade_no: after.provider_trade_no!, status: 'FAIL', fail_reason: 'x' });
    expect((await postForm(PayoutNotifyPaths.sandbox, fail)).body).toBe('success');
    expect((await postForm(PayoutNotifyPaths.sandbox, { ...fail, sign: '0'.repeat(64) })).http).toBe(400);
    expect((await postForm(PayoutNotifyPaths.sandbox, payoutNotify({ withdraw_no: no, trade_no: after.provider_trade_no!, status: 'FAIL' }, 'wrong-secret'))).http).toBe(400);
    expect((await postForm(PayoutNotifyPaths.sandbox, payoutNotify({ withdraw_no: no, trade_no: 'SBPother', status: 'FAIL' }))).http).toBe(400);
    expect((await withdrawal(t, no)).status).toBe('succeeded');
    expect(await balanceOf(t, u.h)).toBe(30_000);
    await expectBalanced();
  });

  it('a failed withdrawal returns the whole amount exactly once, even with the notify replayed', async () => {
    const u = await verifiedUser(t);
    await openAccount(t, u, cardNumber('0000'));
    await topup(t, { h: u.h } as never, 10_000);
    const w = await call(t, `${A}/withdraw`, { amountFen: 10_000, smsCode: await securityCode(t, u) }, u.h);
    expect(await balanceOf(t, u.h)).toBe(0);
    // the card cannot change while the money is on its way
    const un = await call(t, `${A}/unbindAccountBankCard`, { smsCode: await securityCode(t, u) }, u.h);
    expect([un.status, un.message]).toEqual(['1061', 'a withdrawal is being processed; please wait until it is finished']);
    t.clock.t += 3000;
    await runWorker(t);
    const row = await withdrawal(t, w.data.withdrawNo);
    expect(row.status).toBe('failed');
    expect(row.fail_reason).toContain('sandbox test card');
    expect(await balanceOf(t, u.h)).toBe(10_000);
    const replay = payoutNotify({ withdraw_no: row.withdraw_no, trade_no: row.provider_trade_no!, status: 'FAIL', fail_reason: 'again' });
    await Promise.all([postForm(PayoutNotifyPaths.sandbox, replay), postForm(PayoutNotifyPaths.sandbox, replay), postForm(PayoutNotifyPaths.sandbox, replay)]);
    expect(await balanceOf(t, u.h)).toBe(10_000);
    // a failed withdrawal does not count against today's limits
    expect((await call(t, `${A}/withdrawPreview`, { amountFen: 10_000 }, u.h)).data.todayCount).toBe(0);
    await expectBalanced();
  });

  it('concurrent withdrawals of the whole balance never overdraw: exactly one succeeds', async () => {
    const u = await verifiedUser(t);
    await openAccount(t, u);
    await topup(t, { h: u.h } as never, 100_000);
    const results = await Promise.allSettled(Array.from({ length: 8 }, () => createWithdrawal(t.ctx, u.userId, 100_000)));
    const won = results.filter((r) => r.status === 'fulfilled');
    expect(won).toHaveLength(1);
    for (const r of results) if (r.status === 'rejected') expect((r.reason as { status?: string }).status).toMatch(/^(1016|1062)$/);
    expect(await balanceOf(t, u.h)).toBe(0);
    const rows = await t.ctx.db.kysely.selectFrom('payout_withdrawals').select('status').where('user_id', '=', u.userId).execute();
    expect(rows).toEqual([{ status: 'requested' }]);
    // the same security code cannot be used by two requests at once
    await topup(t, { h: u.h } as never, 40_000);
    const code = await securityCode(t, u);
    const two = await Promise.all([call(t, `${A}/withdraw`, { amountFen: 20_000, smsCode: code }, u.h), call(t, `${A}/withdraw`, { amountFen: 20_000, smsCode: code }, u.h)]);
    expect(two.map((r) => r.status).sort()).toEqual(['000000', '1004']);
    await expectBalanced();
  });

  it('reconciliation submits a withdrawal the provider never received and settles one whose notify was lost', async () => {
    const u = await verifiedUser(t);
    await openAccount(t, u);
    await topup(t, { h: u.h } as never, 60_000);
    // a crash between our commit and the provider call: requested, unknown to the bank
    const lost = await createWithdrawal(t.ctx, u.userId, 20_000);
    expect((await withdrawal(t, lost)).status).toBe('requested');
    await expectBalanced(); // payout:pending holds it
    t.clock.t += 61_000;
    await reconcilePayouts(t.ctx);
    expect((await withdrawal(t, lost)).status).toBe('processing');
    // the bank pays, but its notify never arrives (settled behind our back)
    const silent = await createWithdrawal(t.ctx, u.userId, 20_000);
    await submitWithdrawal(t.ctx, silent);
    await t.ctx.db.kysely.updateTable('sandbox_payouts').set({ status: 'success' }).where('withdraw_no', 'in', [lost, silent]).execute();
    t.clock.t += 61_000;
    expect(await reconcilePayouts(t.ctx)).toBeGreaterThanOrEqual(2);
    expect((await withdrawal(t, lost)).status).toBe('succeeded');
    expect((await withdrawal(t, silent)).status).toBe('succeeded');
    expect(await reconcilePayouts(t.ctx)).toBe(0);
    expect(await balanceOf(t, u.h)).toBe(20_000);
    await expectBalanced();
  });
});

describe('refunds of stray payments to the original method', () => {
  async function paidTwice(price: number) {
    const seller = await makeTrader(t);
    const g = await makeGoods(t, release, seller);
    await listForSale(t, seller, g.goodsId, price);
    const buyer = await makeTrader(t);
    const o = await createOrderFor(t, buyer, g.goodsId);
    const orderNo = o.data.orderNo as string;
    const notify = (tradeNo: string) => {
      const p = { out_trade_no: orderNo, trade_no: tradeNo, total_amount: (price / 100).toFixed(2), trade_status: 'TRADE_SUCCESS', sign_type: 'HMAC-SHA256' };
      return { ...p, sign: crypto.createHmac('sha256', PAYMENT_SECRET).update(signContent(p)).digest('hex') };
    };
    return { buyer, orderNo, notify };
  }

  it('a duplicate payment is refunded automatically, exactly once, with a signed refund notify', async () => {
    const { buyer, orderNo, notify } = await paidTwice(8800);
    expect((await postForm(PaymentNotifyPaths.sandbox, notify(`SBXa${orderNo}`))).body).toBe('success');
    expect(await orderStatus(t, orderNo)).toBe('paid');
    expect((await postForm(PaymentNotifyPaths.sandbox, notify(`SBXb${orderNo}`))).body).toBe('success');
    expect(await balanceOf(t, buyer.h)).toBe(8800);
    const credits = await call(t, `${A}/pageListStrayCredit`, { pageNum: 1, pageSize: 10 }, buyer.h);
    expect(credits.data.list).toMatchObject([{ orderNo, provider: 'sandbox', amountFen: 8800, reason: 'duplicate', refundable: true, refund: null }]);
    await runWorker(t); // the automatic refund job: requested → processing at the sandbox
    expect(await balanceOf(t, buyer.h)).toBe(0);
    const r = await t.ctx.db.kysely.selectFrom('stray_refunds').selectAll().where('order_no', '=', orderNo).executeTakeFirstOrThrow();
    expect(r).toMatchObject({ status: 'processing', automatic: 1, provider_trade_no: `SBXb${orderNo}` });
    await expectBalanced();
    t.clock.t += 3000;
    await runWorker(t); // the sandbox bank answers with a signed refund notify
    const done = await t.ctx.db.kysely.selectFrom('stray_refunds').selectAll().where('order_no', '=', orderNo).executeTakeFirstOrThrow();
    expect(done.status).toBe('succeeded');
    // a second request, a replayed refund notify, a forged one: nothing moves
    const again = await call(t, `${A}/refundStrayCredit`, { paymentId: credits.data.list[0].paymentId }, buyer.h);
    expect([again.status, again.message]).toEqual(['1063', 'a refund of this payment has already been requested']);
    const sb = t.ctx.market!.providers.sandbox!;
    const replay = sb.refundNotifyParams({ refundNo: done.refund_no, refundTradeNo: done.provider_refund_no!, success: false, reason: 'late' }, t.clock.t);
    expect((await postForm(PayoutNotifyPaths.refundSandbox, replay)).body).toBe('success');
    expect((await postForm(PayoutNotifyPaths.refundSandbox, { ...replay, sign: 'f'.repeat(64) })).http).toBe(400);
    expect((await t.ctx.db.kysely.selectFrom('stray_refunds').select('status').where('order_no', '=', orderNo).executeTakeFirstOrThrow()).status).toBe('succeeded');
    expect(await balanceOf(t, buyer.h)).toBe(0);
    const paid = await t.ctx.db.kysely.selectFrom('ledger_entries').select(['account', 'amount_fen']).where('txn_id', '=', `refund-out-paid:${done.refund_no}`).orderBy('account').execute();
    expect(paid.map((e) => [e.account, Number(e.amount_fen)])).toEqual([['external:sandbox', 8800], ['refund:pending', -8800]]);
    await expectBalanced();
  });

  it('a late payment stays in the balance until the user asks; a spent credit cannot be refunded', async () => {
    const { buyer, orderNo, notify } = await paidTwice(5000);
    await call(t, '/payment/nftOrder/V1/cannelOrder', { orderNo }, buyer.h);
    expect(['cancelled', 'expired']).toContain(await orderStatus(t, orderNo));
    expect((await postForm(PaymentNotifyPaths.sandbox, notify(`SBXlate${orderNo}`))).body).toBe('success');
    await runWorker(t);
    expect(await balanceOf(t, buyer.h)).toBe(5000); // not automatic for a late payment
    const list = await call(t, `${A}/pageListStrayCredit`, { pageNum: 1, pageSize: 10 }, buyer.h);
    expect(list.data.list[0]).toMatchObject({ reason: 'late', refundable: true, refund: null });
    const other = await makeTrader(t);
    expect((await call(t, `${A}/refundStrayCredit`, { paymentId: list.data.list[0].paymentId }, other.h)).status).toBe('1063');
    const r = await call(t, `${A}/refundStrayCredit`, { paymentId: list.data.list[0].paymentId }, buyer.h);
    expect(r).toMatchObject({ status: '000000', message: 'refund requested: the money goes back to the original payment account', data: { status: 'processing', amountFen: 5000, automatic: false } });
    expect(await balanceOf(t, buyer.h)).toBe(0);
    t.clock.t += 3000;
    await runWorker(t);
    expect((await call(t, `${A}/pageListStrayCredit`, { pageNum: 1, pageSize: 10 }, buyer.h)).data.list[0]).toMatchObject({ refundable: false, refund: { status: 'succeeded' } });

    // spent: a second late payment whose credit pays something else first
    const second = await paidTwice(3000);
    await call(t, '/payment/nftOrder/V1/cannelOrder', { orderNo: second.orderNo }, second.buyer.h);
    await postForm(PaymentNotifyPaths.sandbox, second.notify(`SBXlate${second.orderNo}`));
    const spentList = await call(t, `${A}/pageListStrayCredit`, { pageNum: 1, pageSize: 10 }, second.buyer.h);
    await t.ctx.db.kysely.transaction().execute(async (trx) => {
      const { postTxn } = await import('../src/modules/ledger/ledger.ts');
      await postTxn(trx, { id: `test-spend:${second.orderNo}`, kind: 'pay', entries: [{ account: `user:${second.buyer.userId}`, amountFen: -1 }, { account: 'escrow:test', amountFen: 1 }], now: t.clock.t });
    });
    const spent = await call(t, `${A}/refundStrayCredit`, { paymentId: spentList.data.list[0].paymentId }, second.buyer.h);
    expect([spent.status, spent.message]).toEqual(['1063', 'the credited money has been spent and cannot be refunded to the original method']);
    expect(await balanceOf(t, second.buyer.h)).toBe(2999);
    await t.ctx.db.kysely.transaction().execute(async (trx) => {
      const { postTxn } = await import('../src/modules/ledger/ledger.ts');
      await postTxn(trx, { id: `test-unspend:${second.orderNo}`, kind: 'refund', entries: [{ account: `user:${second.buyer.userId}`, amountFen: 1 }, { account: 'escrow:test', amountFen: -1 }], now: t.clock.t });
    });
    await expectBalanced();
  });
});
