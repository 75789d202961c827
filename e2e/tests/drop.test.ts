import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { apiRegister, goto, landOn, launchBrowser, linkDevWallet, newMobile, openAs, startServer, verifyRealName, type Server } from '../lib.ts';

/**
 * The primary sale (drop day) end to end in the browser, against the real server with the embedded
 * chain: a user registered, verified and with the dev wallet linked through the API opens the
 * dropping page of a release that starts a few seconds later (made by the DEV_MODE route
 * /dev/drop-release), sees the countdown, the buy button opens at the start by server time without a
 * reload, buys 2, pays in the sandbox cashier, follows paid → minting → completed with the mint
 * transaction, and finds the two collectibles minted in the personal center.
 */
let server: Server;
let browser: Browser;

beforeAll(async () => {
  [server, browser] = await Promise.all([
    startServer({ CHAIN_INDEXER_INTERVAL_MS: '300', CHAIN_RECEIPT_INTERVAL_MS: '300', DEMO_GOODS: '60' }),
    launchBrowser(),
  ]);
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe('drop day', () => {
  it('buys 2 of a release on its dropping page, pays in the sandbox cashier, sees them minted in the personal center', async () => {
    const token = await apiRegister(server, newMobile());
    await verifyRealName(server, token);
    const wallet = await linkDevWallet(server, token);
    const release = await server.api('/dev/drop-release', { supply: 10, priceFen: 990, startInMs: 15_000, perIdentityLimit: 3, maxPerOrder: 3 }, { token });
    expect(release.status, release.message).toBe('000000');
    const projectId = release.data.projectId as number;

    const { page } = await openAs(browser, server, { token, wallet }, `/projects/dropping/${projectId}`);
    // before the start (15 s of margin: opening the page on a loaded machine takes a few): the countdown to it, the limit, and a closed buy button
    expect(await page.getByTestId('dropping-countdown').getAttribute('data-kind')).toBe('start');
    expect(await page.getByTestId('dropping-countdown').getByTestId('countdown').innerText()).toMatch(/天[\s\S]*时[\s\S]*分[\s\S]*秒/);
    await expect.poll(() => page.getByTestId('drop-limit').getAttribute('data-limit')).toBe('3');
    expect(await page.getByTestId('buy-entry').isDisabled()).toBe(true);
    expect(await page.getByTestId('buy-entry').innerText()).toBe('未开售');
    // the start, by server time: the button opens without a reload
    await expect.poll(() => page.getByTestId('buy-entry').isEnabled(), { timeout: 30_000 }).toBe(true);
    expect(await page.getByTestId('buy-entry').innerText()).toBe('立即购买');
    await page.getByTestId('drop-more').click();
    expect(await page.getByTestId('drop-count').innerText()).toBe('2');
    await page.getByTestId('buy-entry').click();

    // the reserved order with its countdown
    await page.waitForURL(new RegExp(`/object-buy\\?projectId=${projectId}&orderNo=DO\\d+`));
    await page.getByTestId('object-buy-reserved').waitFor();
    const orderNo = new URL(page.url()).searchParams.get('orderNo')!;
    expect(await page.getByTestId('order-quantity').getAttribute('data-quantity')).toBe('2');
    expect(await page.getByTestId('order-price').innerText()).toBe('￥19.80');
    expect(Number(await page.getByTestId('countdown').getAttribute('data-ms'))).toBeGreaterThan(200_000);

    // pay in the sandbox cashier, back to the status page
    await page.getByTestId('object-buy-pay').click();
    await page.waitForURL(new RegExp(`/pay\\?orderNo=${orderNo}$`));
    await expect.poll(() => page.getByTestId('pay-methods').getAttribute('data-method')).toBe('sandbox');
    expect(await page.getByTestId('pay-amount').innerText()).toBe('￥19.80');
    await page.getByTestId('pay-submit').click();
    await page.waitForURL(/\/payment\/sandbox\/cashier\?t=/);
    await page.locator('#pay').click();
    await landOn(page, /\/personal-center\/conmponents\/pamentSuccess\?orderNo=/);
    const status = page.getByTestId('payment-status');
    await expect.poll(() => status.getAttribute('data-status'), { timeout: 90_000 }).toBe('completed');
    expect(await page.getByTestId('payment-status-title').innerText()).toBe('购买完成');
    await expect
      .poll(() => page.getByTestId('order-event').evaluateAll((els) => els.map((e) => e.getAttribute('data-status'))))
      .toEqual(['created', 'paying', 'paid', 'settling', 'completed']);
    expect(await page.getByTestId('order-tx').innerText()).toMatch(/^0x[0-9a-f]{64}$/);
    const items = page.getByTestId('order-item');
    await expect.poll(() => items.evaluateAll((els) => els.map((e) => e.getAttribute('data-chain-status')))).toEqual(['minted', 'minted']);
    const detail = await server.api('/payment/nftOrder/V1/getNftOrderDetail', { orderNo }, { token });
    const goodsIds = detail.data.drop.items.map((i: { goodsId: number }) => i.goodsId) as number[];
    expect(goodsIds).toHaveLength(2);

    // the personal center lists both, minted
    await goto(page, `${server.base}/personal-center`);
    for (const id of goodsIds) {
      const tile = page.locator(`[data-testid="asset-tile"][data-id="${id}"]`);
      await tile.waitFor();
      expect(await tile.getAttribute('data-chain-status')).toBe('minted');
    }
    // the dropping page shows the stock taken and what this identity bought
    await goto(page, `${server.base}/projects/dropping/${projectId}`);
    expect(await page.getByTestId('sale-progress').innerText()).toContain('已售 2 / 10');
    await expect.poll(() => page.getByTestId('drop-limit').getAttribute('data-bought')).toBe('2');
  }, 180_000);
});
