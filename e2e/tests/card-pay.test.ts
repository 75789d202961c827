import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { apiRegister, goto, landOn, launchBrowser, linkDevWallet, newMobile, nextAdultId, openAs, startServer, verifyRealName, type Server, testCardNumber } from '../lib.ts';
import { solvePowNow as solvePow } from '@cfx/protocol/pow.ts';

/**
 * Bank-card quick payment in the browser (docs/payouts.md "Paying with a bank card"): a verified user whose
 * debit card was bound through the API (the 4 elements and the reserved phone's code) sees it on the
 * PaymentCard page, reserves a drop order (API), and on /pay chooses 银行卡: the card, 获取验证码 (the
 * sandbox bank's code to the reserved phone, read from the dev outbox), a wrong code answered with the
 * tries left, the right one → the status page, where the bank's signed notify has made the order paid.
 */
let server: Server;
let browser: Browser;
beforeAll(async () => {
  [server, browser] = await Promise.all([startServer({ CHAIN_INDEXER_INTERVAL_MS: '300', CHAIN_RECEIPT_INTERVAL_MS: '300', DEMO_GOODS: '0' }), launchBrowser()]);
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

async function captcha(): Promise<string> {
  const ch = await server.api('/captcha/v1/get');
  const x = server.captchaAnswer(ch.data.id);
  const track = Array.from({ length: 21 }, (_, i) => [i * 20, Math.round((x * i) / 20)]);
  return (await server.api('/captcha/v1/check', { id: ch.data.id, x, track, pow: solvePow(ch.data.id, ch.data.pow.bits) })).data.NECaptchaValidate;
}

describe('paying with a bank card in the browser', () => {
  it('shows the bound card, pays a drop order with the bank’s SMS code and lands on the paid order', async () => {
    const token = await apiRegister(server, newMobile());
    const idNumber = nextAdultId();
    await verifyRealName(server, token, '李四', idNumber);
    const wallet = await linkDevWallet(server, token);
    const reserved = newMobile();
    const cardNo = testCardNumber();
    const started = await server.api('/payment/account/V1/addBindCard', { name: '李四', idNumber, cardNo, mobile: reserved, NECaptchaValidate: await captcha() }, { token });
    expect(started.status, started.message).toBe('000000');
    const bound = await server.api('/payment/account/V1/affirmBindCard', { bindId: started.data.bindId, smsCode: await server.smsCode(reserved) }, { token });
    expect(bound.status, bound.message).toBe('000000');
    const cardId = bound.data.id as number;

    // the PaymentCard page lists the card usable for payment
    const { page } = await openAs(browser, server, { token, wallet, lang: 'zh' }, '/personal-center/conmponents/PaymentCard');
    await page.getByTestId('pay-cards').waitFor();
    expect(await page.getByTestId(`pay-card-${cardId}`).innerText()).toContain('中国工商银行');
    expect(await page.getByTestId(`pay-card-${cardId}`).innerText()).toContain(`${cardNo.slice(0, 4)} **** **** ${cardNo.slice(-4)}`);
    await page.screenshot({ path: '/tmp/card-pay-cards.png' });

    // a drop order, reserved through the API
    const release = await server.api('/dev/drop-release', { supply: 10, priceFen: 1990, startInMs: 0, perIdentityLimit: 3, maxPerOrder: 3 }, { token });
    expect(release.status, release.message).toBe('000000');
    const order = await server.api('/payment/nftOrder/V1/createOrder', { projectId: release.data.projectId, count: 1 }, { token });
    expect(order.status, order.message).toBe('000000');
    const orderNo = order.data.orderNo as string;

    await goto(page, `${server.base}/pay?orderNo=${orderNo}`);
    await page.getByTestId('pay-method-card').click();
    await page.getByTestId(`pay-card-${cardId}`).waitFor();
    expect(await page.getByTestId('card-pay').getAttribute('data-step')).toBe('pick');
    const before = await server.smsCount(reserved);
    await page.getByTestId('card-pay-start').click();
    await page.getByTestId('card-pay-sent').waitFor();
    expect(await page.getByTestId('card-pay-sent').innerText()).toContain(`${reserved.slice(0, 3)}****${reserved.slice(-4)}`);
    await expect.poll(() => server.smsCount(reserved)).toBe(before + 1);
    const code = await server.smsCode(reserved);
    // the resend countdown runs
    expect(Number(await page.getByTestId('card-pay-resend').getAttribute('data-countdown'))).toBeGreaterThan(50);
    expect(await page.getByTestId('card-pay-resend').isDisabled()).toBe(true);
    await page.screenshot({ path: '/tmp/card-pay-code.png' });

    await page.getByTestId('card-pay-code').fill(code === '000000' ? '111111' : '000000');
    await page.getByTestId('card-pay-confirm').click();
    await page.getByTestId('card-pay-error').waitFor();
    expect(await page.getByTestId('card-pay-error').innerText()).toBe('短信验证码错误，还可尝试4次');

    await page.getByTestId('card-pay-code').fill(code);
    await page.getByTestId('card-pay-confirm').click();
    await landOn(page, /pamentSuccess/);
    await expect.poll(async () => (await server.api('/payment/nftOrder/V1/getNftOrderDetail', { orderNo }, { token })).data.status, { timeout: 30_000 }).not.toMatch(/^(created|paying)$/);
    const detail = await server.api('/payment/nftOrder/V1/getNftOrderDetail', { orderNo }, { token });
    expect(detail.data.payMethod).toBe('card');
    await page.screenshot({ path: '/tmp/card-pay-paid.png' });
  });
});
