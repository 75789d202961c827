import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { goto, launchBrowser, startServer, type Server } from '../lib.ts';

/**
 * Catalog namespaces (apps/web/app/i18n/namespaces.ts): a page's HTML carries only the strings of its
 * namespaces, and a client navigation to a page that needs another namespace gets it with the route
 * data before the page renders — never a key on screen.
 */
let server: Server;
let browser: Browser;
beforeAll(async () => {
  [server, browser] = await Promise.all([startServer({ CHAIN: 'off' }), launchBrowser()]);
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

const TEXTS = {
  zh: { settledTitle: '项目入驻申请', marketTitle: '寄售市场' },
  en: { settledTitle: 'Project application', marketTitle: 'Consignment market' },
} as const;
/** Texts only one namespace has (settled.intro, market.subtitle). */
const SETTLED_INTRO = '欢迎艺术家、品牌、文博机构和 IP 持有方';
const MARKET_SUBTITLE = '藏友之间自由交易';

/** Records every text the page shows that looks like a catalog key of a namespace the first page lacks. */
async function watchForKeys(page: Page) {
  await page.evaluate(() => {
    const seen: string[] = [];
    (window as unknown as { __keys: string[] }).__keys = seen;
    const re = /\b(settled|market|goodsFlow|catalog|pages)\.[a-zA-Z]+/;
    const check = () => {
      const m = re.exec(document.body.innerText);
      if (m) seen.push(m[0]);
    };
    new MutationObserver(check).observe(document.body, { subtree: true, childList: true, characterData: true });
  });
}
const keysSeen = (page: Page) => page.evaluate(() => (window as unknown as { __keys: string[] }).__keys);

describe('catalog namespaces', () => {
  it('the HTML of a page carries its own strings, not those of other pages', async () => {
    const home = await (await fetch(server.base + '/')).text();
    expect(home).toContain('data-testid="home-hero"');
    expect(home).not.toContain(SETTLED_INTRO);
    expect(home).not.toContain(MARKET_SUBTITLE);
    const enter = await (await fetch(server.base + '/project-enter')).text();
    expect(enter).toContain(SETTLED_INTRO);
    expect(enter).not.toContain(MARKET_SUBTITLE);
    const login = await (await fetch(server.base + '/admin/login')).text();
    expect(login).not.toContain(SETTLED_INTRO);
    expect(login).not.toContain(MARKET_SUBTITLE);
  });

  for (const lang of ['zh', 'en'] as const) {
    it(`${lang}: client navigation loads the next page's namespace before it renders`, async () => {
      const ctx = await browser.newContext();
      await ctx.addCookies([{ name: 'lang', value: lang, url: server.base }]);
      const page = await ctx.newPage();
      const dataRequests: string[] = [];
      page.on('request', (r) => {
        if (new URL(r.url()).pathname.endsWith('.data')) dataRequests.push(r.url());
      });
      await goto(page, server.base + '/');
      const documents = () => page.evaluate(() => performance.getEntriesByType('navigation').length);
      await watchForKeys(page);

      // / → /project-enter (the `settled` namespace) → /sales (`market`) → / (nothing new), all without a reload.
      await page.getByTestId('nav-project-enter').click();
      await page.waitForURL(server.base + '/project-enter');
      await expect.poll(() => page.locator('h1').first().innerText()).toBe(TEXTS[lang].settledTitle);
      await page.getByTestId('nav-market').click();
      await page.waitForURL(server.base + '/sales');
      await expect.poll(() => page.locator('h1').first().innerText()).toBe(TEXTS[lang].marketTitle);
      const before = dataRequests.length;
      await page.getByTestId('nav-home').click();
      await page.waitForURL(server.base + '/');
      await page.getByTestId('home-hero').waitFor();

      expect(await documents()).toBe(1);
      expect(await keysSeen(page)).toEqual([]);
      // The two new namespaces came with the route data (the root loader ran for those navigations) …
      expect(dataRequests.slice(0, before).length).toBeGreaterThanOrEqual(2);
      // … and going back home needed none: the root loader was not asked again.
      expect(dataRequests.slice(before).filter((u) => !new URL(u).searchParams.get('_routes') || new URL(u).searchParams.get('_routes')!.split(',').includes('root'))).toEqual([]);
      await ctx.close();
    });
  }
});
