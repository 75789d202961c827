import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { apiRegister, grantCollectible, launchBrowser, linkDevWallet, newMobile, openAs, startServer, verifyRealName, waitMinted, type Server } from '../lib.ts';

/**
 * The message center end to end (issue #11), against the real server with the embedded chain and
 * a real Chromium: user A's header badge follows the message stream (SSE) live — a bid placed by
 * user B (through the API) on A's collectible turns it from 0 to 1 without a reload; the message
 * center lists the message; marking it read clears the badge. Fixtures only through the API.
 */
let server: Server;
let browser: Browser;

beforeAll(async () => {
  [server, browser] = await Promise.all([startServer({ DEMO_GOODS: '20' }), launchBrowser()]);
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

async function trader() {
  const token = await apiRegister(server, newMobile());
  await verifyRealName(server, token);
  const wallet = await linkDevWallet(server, token);
  return { token, wallet };
}

describe('message center', () => {
  it('a bid on my collectible makes my header badge go 0 → 1 live; the message center lists it; marking read clears it', async () => {
    const [a, b] = await Promise.all([trader(), trader()]);
    const { goodsId } = await grantCollectible(server, a.token);
    await waitMinted(server, goodsId);

    const { ctx, page } = await openAs(browser, server, { token: a.token, lang: 'zh' }, '/');
    try {
      const badge = page.getByTestId('header-unread');
      // the stream delivered the first count
      await expect.poll(() => badge.getAttribute('data-count'), { timeout: 15_000 }).toBe('0');
      expect(await badge.isHidden()).toBe(true);
      const navigations: string[] = [];
      page.on('framenavigated', (f) => {
        if (f === page.mainFrame()) navigations.push(f.url());
      });

      const bid = await server.api('/goods/v1/bargin', { goodsId, amount: 12_300, expiresAt: Date.now() + 86_400_000 }, { token: b.token });
      expect(bid.status, bid.message).toBe('000000');
      await expect.poll(() => badge.getAttribute('data-count'), { timeout: 15_000 }).toBe('1');
      expect(await badge.isVisible()).toBe(true);
      expect(await badge.textContent()).toBe('1');
      expect(navigations).toEqual([]); // no reload

      // the message center (client navigation from the bell), with its nav badge
      await page.getByTestId('header-messages').click();
      await page.waitForURL(/\/personal-center\/message-center$/);
      const item = page.getByTestId('mc-item');
      await item.first().waitFor();
      expect(await item.count()).toBe(1);
      expect(await item.first().getAttribute('data-kind')).toBe('bid_received');
      expect(await item.first().getAttribute('data-read')).toBe('0');
      expect(await page.getByTestId('mc-item-title').first().textContent()).toBe('收到新的出价');
      expect(await page.getByTestId('mc-item-body').first().textContent()).toContain('出价￥123.00');
      expect(await page.getByTestId('pc-nav-unread').getAttribute('data-count')).toBe('1');
      expect(await page.getByTestId('pc-nav-5').getAttribute('aria-current')).toBe('page');

      await page.getByTestId('mc-item-read').click();
      await expect.poll(() => item.first().getAttribute('data-read'), { timeout: 15_000 }).toBe('1');
      await expect.poll(() => badge.getAttribute('data-count'), { timeout: 15_000 }).toBe('0');
      expect(await badge.isHidden()).toBe(true);
      expect(await page.getByTestId('pc-nav-unread').getAttribute('data-count')).toBe('0');

      // the settings panel shows every kind with the defaults (SMS on for a sale)
      await page.getByTestId('mc-tab-settings').click();
      await page.locator('[data-testid="mc-settings"][data-status="ready"]').waitFor();
      expect(await page.getByTestId('mc-setting-sold-sms').getAttribute('aria-checked')).toBe('true');
      expect(await page.getByTestId('mc-setting-bid_received-sms').getAttribute('aria-checked')).toBe('false');
    } finally {
      await ctx.close();
    }
  });
});
