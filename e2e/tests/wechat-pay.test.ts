import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { apiRegister, landOn, launchBrowser, linkDevWallet, newMobile, nextAdultId, openAs, startServer, verifyRealName, type Server } from '../lib.ts';

/**
 * WeChat Pay Native in the browser, with the WeChat Pay sandbox (DEV_MODE=1): a buyer reserves a drop
 * order (API), chooses 微信支付 on /pay and gets the QR code with the amount and the time left; the
 * "phone" opens the URL the QR code encodes (the sandbox's scan-and-pay page) and presses 确认支付, which
 * posts the signed, encrypted notify to the server; the PC page, polling, moves on to the paid order.
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

describe('paying with WeChat Pay in the browser', () => {
  it('shows the QR code, amount and time left; scanning and paying in the sandbox moves the page on', async () => {
    const token = await apiRegister(server, newMobile());
    await verifyRealName(server, token, '李四', nextAdultId());
    const wallet = await linkDevWallet(server, token);
    const release = await server.api('/dev/drop-release', { supply: 10, priceFen: 1990, startInMs: 0, perIdentityLimit: 3, maxPerOrder: 3 }, { token });
    expect(release.status, release.message).toBe('000000');
    const order = await server.api('/payment/nftOrder/V1/createOrder', { projectId: release.data.projectId, count: 1 }, { token });
    expect(order.status, order.message).toBe('000000');
    const orderNo = order.data.orderNo as string;

    const { page } = await openAs(browser, server, { token, wallet, lang: 'zh' }, `/pay?orderNo=${orderNo}`);
    await page.getByTestId('pay-method-wechat').waitFor();
    expect(await page.getByTestId('pay-method-wechat').innerText()).toContain('微信支付');
    await page.getByTestId('pay-method-wechat').click();
    await page.getByTestId('pay-submit').click();
    const qr = page.getByTestId('wechat-qr');
    await qr.waitFor();
    expect(await qr.getAttribute('data-state')).toBe('waiting');
    expect(await qr.innerText()).toContain('微信扫码支付');
    expect(await page.getByTestId('wechat-amount').innerText()).toContain('19.90');
    expect(Number(await page.getByTestId('wechat-countdown').getAttribute('data-ms'))).toBeGreaterThan(60_000);
    const target = (await page.getByTestId('qr-code').getAttribute('data-value'))!;
    expect(target.startsWith(`${server.base}/mvapi/public/payment/sandbox/wechat/scan?t=`)).toBe(true);
    expect(await page.getByTestId('wechat-sandbox-open').getAttribute('href')).toBe(target);
    await page.screenshot({ path: '/tmp/wechat-pay-qr.png' });

    // the phone scans: the sandbox's page, then 确认支付
    const phone = await page.context().newPage();
    // a page of the server, not of the web app (no hydration to wait for)
    await phone.goto(target);
    expect(await phone.locator('#amount').innerText()).toBe('￥19.90');
    await phone.getByText('确认支付').click();
    await phone.getByText('支付成功，请回到电脑上的页面').waitFor();
    await phone.screenshot({ path: '/tmp/wechat-pay-phone.png' });

    await landOn(page, /pamentSuccess/);
    const detail = await server.api('/payment/nftOrder/V1/getNftOrderDetail', { orderNo }, { token });
    expect(detail.data.payMethod).toBe('wechat');
    expect(detail.data.status).not.toMatch(/^(created|paying)$/);
    await page.screenshot({ path: '/tmp/wechat-pay-paid.png' });
  });
});
