import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { encodePng } from '../../apps/server/src/modules/captcha/png.ts';
import { apiRegister, goto, launchBrowser, newMobile, nextAdultId, nextChallenge, openAs, solveSlider, startServer, verifyRealName, type Server, testCardNumber } from '../lib.ts';

/**
 * Money out in the browser (issue #11, docs/payouts.md): bind a bank card with the 4 elements and the
 * code the sandbox sends to the reserved phone, upload the ID photos and open the payout account, top up
 * the balance (sandbox, API), withdraw with the security code, and see the withdrawal paid by the
 * sandbox bank. Fixtures through the API only (no SQL writes).
 */
let server: Server;
let browser: Browser;
beforeAll(async () => {
  [server, browser] = await Promise.all([startServer({ CHAIN: 'off', SMS_RESEND_SECONDS: '1', PAYOUT_SANDBOX_DELAY_MS: '1000' }), launchBrowser()]);
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

const toastText = (page: Page) => page.getByTestId('toast-text').last();

/** Clicks a get-code button, solves the slider that opens and returns the new code from the outbox. */
async function getCode(page: Page, button: string, mobile: string): Promise<string> {
  const before = await server.smsCount(mobile);
  const challenge = nextChallenge(page);
  await page.getByTestId(button).click();
  await solveSlider(page, server, await challenge);
  await expect.poll(() => server.smsCount(mobile), { timeout: 15_000 }).toBe(before + 1);
  return server.smsCode(mobile);
}

describe('money out in the browser', () => {
  it('binds a card with the reserved phone’s code, opens the payout account, withdraws and sees it paid', async () => {
    const mobile = newMobile();
    const token = await apiRegister(server, mobile);
    const idNumber = nextAdultId();
    await verifyRealName(server, token, '李四', idNumber);
    const { ctx, page } = await openAs(browser, server, { token, lang: 'zh' }, '/personal-center/payment-management');

    // 1. Bind the card: the 4 elements, the slider, the code sent to the phone reserved at the bank.
    await page.getByTestId('card-panel').waitFor();
    expect(await page.getByTestId('card-panel').getAttribute('data-status')).toBe('none');
    await page.getByTestId('bind-card-open').click();
    const card = testCardNumber();
    const reserved = newMobile();
    await page.getByTestId('bind-name').fill('李四');
    await page.getByTestId('bind-id').fill(idNumber);
    await page.getByTestId('bind-card-no').fill(card);
    expect(await page.getByTestId('bind-card-no').inputValue()).toBe(card.replace(/(\d{4})(?=\d)/g, '$1 '));
    await page.getByTestId('bind-mobile').fill(reserved);
    const code = await getCode(page, 'bind-get-code', reserved);
    await expect.poll(() => page.getByTestId('bind-get-code').getAttribute('data-countdown')).not.toBe('0');
    await page.getByTestId('bind-request').waitFor();
    expect(await page.getByTestId('bind-request').innerText()).toContain('中国工商银行');
    await page.getByTestId('bind-code').fill(code);
    await page.getByTestId('bind-submit').click();
    await expect.poll(() => toastText(page).innerText()).toBe('银行卡绑定成功');
    await page.getByTestId('bound-card').waitFor();
    expect(await page.getByTestId('bound-card-number').innerText()).toBe(`6222 **** **** ${card.slice(-4)}`);
    expect(await page.getByTestId('bound-card-mobile').innerText()).toContain(`${reserved.slice(0, 3)}****${reserved.slice(-4)}`);

    // 2. ID photos (shown blurred to the owner), then open the payout account on /personal-center/paymentYibao.
    const png = encodePng(400, 250, Buffer.alloc(400 * 250 * 4, 0x90));
    for (const side of ['front', 'back'] as const) {
      await page.getByTestId(`identity-${side}-input`).setInputFiles({ name: `${side}.png`, mimeType: 'image/png', buffer: png });
      await expect.poll(() => page.getByTestId(`identity-${side}`).getAttribute('data-uploaded'), { timeout: 15_000 }).toBe('1');
    }
    await goto(page, `${server.base}/personal-center/paymentYibao`);
    await page.getByTestId('account-panel').waitFor();
    expect(await page.getByTestId('account-panel').getAttribute('data-state')).toBe('none');
    await page.getByTestId('account-province').selectOption('44');
    await page.getByTestId('account-city').selectOption('4403');
    await page.getByTestId('account-address').fill('南山区科技园路1号');
    await page.getByTestId('account-open').click();
    await expect.poll(() => page.getByTestId('account-panel').getAttribute('data-state'), { timeout: 15_000 }).toBe('active');
    expect(await page.getByTestId('account-no').innerText()).toMatch(/^SBM\*{4}\d{4}$/);

    // 3. Top up through the sandbox (API), then withdraw ￥100.00 with the security code.
    const topup = await server.api('/payment/sandbox/topup', { amount: 50_000 }, { token });
    expect(topup.status).toBe('000000');
    await goto(page, `${server.base}/personal-center/payment`);
    await page.getByTestId('withdraw-panel').waitFor();
    await page.getByTestId('withdraw-open').click();
    await page.getByTestId('withdraw-amount').fill('100');
    // 0.6 % of ￥100.00 is ￥0.60: the minimum fee of ￥1.00 applies
    await expect.poll(() => page.getByTestId('withdraw-net').innerText(), { timeout: 15_000 }).toBe('￥99.00');
    expect(await page.getByTestId('withdraw-fee').innerText()).toBe('￥1.00');
    const sms = await getCode(page, 'withdraw-get-code', mobile);
    await page.getByTestId('withdraw-code').fill(sms);
    await page.getByTestId('withdraw-submit').click();
    await expect.poll(() => toastText(page).innerText()).toBe('提现申请已提交，到账后将通知您');
    // The sandbox bank pays a second later; the list polls until the withdrawal is paid.
    const row = page.getByTestId('withdrawal-row').first();
    await expect.poll(() => row.getAttribute('data-status'), { timeout: 30_000, interval: 500 }).toBe('succeeded');
    expect(await row.getByTestId('withdrawal-status').innerText()).toBe('已到账');
    await expect.poll(() => page.getByTestId('balance-available').innerText(), { timeout: 15_000 }).toBe('￥400.00');
    await ctx.close();
  });
});
