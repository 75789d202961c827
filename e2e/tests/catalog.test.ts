import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { apiRegister, clickAndReload, goto, launchBrowser, newMobile, startServer, userContext, type Server } from '../lib.ts';

/**
 * Catalog and content pages, server-rendered (the demo catalog): home modules, the path home →
 * release → collectible → creator, the header search (suggestions, history, delete) for 1- and
 * 2-character Chinese terms, releases filter and countdowns, the dropping page, news, the language
 * switch on a content page, real 404s, and SSR HTML without JavaScript.
 */
let server: Server;
let browser: Browser;
beforeAll(async () => {
  [server, browser] = await Promise.all([startServer({ CHAIN: 'off', DEMO_DATA: '1' }), launchBrowser()]);
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

const getJson = async (p: string, headers: Record<string, string> = {}) => (await fetch(`${server.base}/mvapi/public${p}`, { headers })).json();
const html = async (p: string, headers: Record<string, string> = {}) => {
  const res = await fetch(server.base + p, { headers });
  return { status: res.status, text: await res.text() };
};
const fen = (n: number) => `￥${(Math.trunc(n / 100)).toLocaleString('en-US')}.${String(n % 100).padStart(2, '0')}`;

async function newPage(opts: { lang?: 'zh' | 'en'; token?: string } = {}): Promise<Page> {
  const ctx = await userContext(browser, server, opts);
  const page = await ctx.newPage();
  page.on('pageerror', (e) => console.error('[pageerror]', e.message));
  return page;
}

describe('home', () => {
  it('renders every module server-side: banners, marquee, recommend, projects, hot, creators, news', async () => {
    const page = await newPage();
    expect((await goto(page, server.base + '/'))!.status()).toBe(200);
    await page.getByTestId('home-hero').waitFor();
    expect(await page.getByTestId('site-header').getAttribute('data-theme-type')).toBe('1');
    expect(await page.getByTestId('banner').count()).toBeGreaterThanOrEqual(1);
    expect(await page.getByTestId('marquee-item').count()).toBeGreaterThanOrEqual(1);
    expect(await page.getByTestId('home-recommend').getByTestId('project-card').count()).toBeGreaterThanOrEqual(1);
    expect(await page.getByTestId('home-projects').getByTestId('project-card').count()).toBeGreaterThanOrEqual(4);
    expect(await page.getByTestId('home-hot').getByTestId('goods-card').count()).toBeGreaterThanOrEqual(1);
    expect(await page.getByTestId('home-creators').getByTestId('creator-card').count()).toBeGreaterThanOrEqual(1);
    expect(await page.getByTestId('home-news').getByTestId('news-card').count()).toBeGreaterThanOrEqual(1);
    // Prices in ￥ with two decimals; countdowns in 天/时/分/秒.
    expect(await page.getByTestId('home-projects').innerText()).toMatch(/￥[\d,]+\.\d{2}/);
    expect(await page.getByTestId('home-projects').getByTestId('countdown').first().innerText()).toMatch(/^\d+天\d{2}时\d{2}分\d{2}秒$/);
    // Images have intrinsic sizes; cards below the fold load lazily, thumbnails ask for a width.
    const img = page.getByTestId('home-hot').locator('img').first();
    expect(await img.getAttribute('width')).toBeTruthy();
    expect(await img.getAttribute('loading')).toBe('lazy');
    expect(await img.getAttribute('src')).toMatch(/\/official\/image\/\?id=.+&w=\d+/);

    const { text } = await html('/');
    for (const id of ['home-banners', 'home-marquee', 'home-recommend', 'home-projects', 'home-hot', 'home-creators', 'home-news']) {
      expect(text, id).toContain(`data-testid="${id}"`);
    }
    expect(text).toMatch(/<meta property="og:title" content="[^"]+"/);
    expect(text).toMatch(/<meta property="og:image" content="http:\/\/127\.0\.0\.1:\d+\/mvapi\/public\/official\/image\//);
    await page.context().close();
  });

  it('home → release → collectible → creator', async () => {
    const page = await newPage();
    await goto(page, server.base + '/');
    const card = page.getByTestId('home-projects').getByTestId('project-card').first();
    const projectId = await card.getAttribute('data-id');
    const projectName = await card.getByTestId('project-card-name').innerText();
    await card.click();
    await page.waitForURL(`${server.base}/projects/detail/${projectId}`);
    // A client navigation: the URL can change before the new page is rendered.
    await expect.poll(() => page.getByTestId('project-name').innerText()).toBe(projectName);
    expect(await page.getByTestId('project-price').innerText()).toMatch(/^￥[\d,]+\.\d{2}$/);
    await expect.poll(() => page.title()).toBe(`${projectName} - CFX Art`);

    const goods = page.getByTestId('goods-card').first();
    await goods.waitFor();
    const goodsId = await goods.getAttribute('data-id');
    const goodsName = await goods.getByTestId('goods-card-name').innerText();
    await goods.click();
    await page.waitForURL(`${server.base}/assets/${goodsId}`);
    await expect.poll(() => page.getByTestId('asset-name').innerText()).toBe(goodsName);
    expect(await page.getByTestId('asset-project').innerText()).toBe(projectName);
    await page.getByTestId('asset-attributes').waitFor();
    await page.getByTestId('asset-history').getByTestId('history-row').first().waitFor();
    await page.getByTestId('chain-record-slot').waitFor();
    // The price chart loads lightweight-charts in the browser only, once it scrolls near the screen.
    await page.getByTestId('price-chart').scrollIntoViewIfNeeded();
    await expect.poll(() => page.getByTestId('price-chart').getAttribute('data-state'), { timeout: 30_000 }).toBe('ready');
    expect(await page.getByTestId('price-chart').locator('canvas').count()).toBeGreaterThan(0);

    const creatorName = (await page.getByTestId('asset-creator').innerText()).split('\n').pop()!;
    await page.getByTestId('asset-creator').click();
    await page.waitForURL(/\/creator\/\d+$/);
    await expect.poll(() => page.getByTestId('creator-name').innerText()).toBe(creatorName);
    await expect.poll(() => page.getByTestId('creator-projects').locator(`[data-testid="project-card"][data-id="${projectId}"]`).count()).toBe(1);
    await page.context().close();
  });
});

describe('releases', () => {
  it('filters by status (?status=) with live countdowns in 天/时/分/秒', async () => {
    const page = await newPage();
    await goto(page, server.base + '/projects');
    await page.getByTestId('status-filter-upcoming').click();
    await page.waitForURL(`${server.base}/projects?status=upcoming`);
    await expect.poll(() => page.getByTestId('status-filter-upcoming').getAttribute('data-active')).toBe('true');
    const badges = page.getByTestId('projects-page').getByTestId('status-badge');
    await expect.poll(async () => new Set(await badges.evaluateAll((els) => els.map((e) => e.getAttribute('data-status'))))).toEqual(new Set(['upcoming']));
    const countdown = page.getByTestId('project-card').first().getByTestId('countdown');
    const first = await countdown.innerText();
    expect(first).toMatch(/^\d+天\d{2}时\d{2}分\d{2}秒$/);
    await expect.poll(() => countdown.innerText()).not.toBe(first); // it ticks

    await page.getByTestId('status-filter-sold_out').click();
    await page.waitForURL(`${server.base}/projects?status=sold_out`);
    await expect.poll(async () => new Set(await badges.evaluateAll((els) => els.map((e) => e.getAttribute('data-status'))))).toEqual(new Set(['sold_out']));
    await page.context().close();
  });

  it('dropping page: countdown to the start for an upcoming release; the buy box for a guest, before the start and on sale', async () => {
    const list = (await (await fetch(`${server.base}/mvapi/public/goods/v1/project/index`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"pageSize":50}' })).json()).data.list as Array<{ id: number; status: string }>;
    const upcoming = list.find((p) => p.status === 'upcoming')!;
    const onSale = list.find((p) => p.status === 'on_sale')!;
    const guest = await newPage();
    await goto(guest, `${server.base}/projects/dropping/${upcoming.id}`);
    expect(await guest.getByTestId('dropping-countdown').getAttribute('data-kind')).toBe('start');
    expect(await guest.getByTestId('dropping-countdown').innerText()).toMatch(/天[\s\S]*时[\s\S]*分[\s\S]*秒/);
    // a guest is asked to log in first
    await expect.poll(() => guest.getByTestId('drop-buy').getAttribute('data-state')).toBe('guest');
    expect(await guest.getByTestId('buy-entry').count()).toBe(0);
    await guest.getByTestId('drop-login').click();
    await guest.getByTestId('auth-overlay').waitFor();
    await guest.context().close();

    // logged in: closed before the start; on sale the buy button, held by the real-name gate here
    const page = await newPage({ token: await apiRegister(server, newMobile()) });
    await goto(page, `${server.base}/projects/dropping/${upcoming.id}`);
    await expect.poll(() => page.getByTestId('buy-entry').innerText()).toBe('未开售');
    expect(await page.getByTestId('buy-entry').isDisabled()).toBe(true);
    await goto(page, `${server.base}/projects/dropping/${onSale.id}`);
    await expect.poll(() => page.getByTestId('buy-entry').innerText()).toBe('立即购买');
    await expect.poll(() => page.getByTestId('drop-gate').getAttribute('data-gate')).toBe('realname');
    expect(await page.getByTestId('buy-entry').isDisabled()).toBe(true);
    await page.context().close();
  });
});

describe('search', () => {
  async function searchFromHeader(page: Page, term: string, expectSuggestion: RegExp) {
    const input = page.getByTestId('header-search-input');
    await input.click();
    await input.fill(term);
    const panel = page.getByTestId('search-panel');
    await expect.poll(() => panel.getAttribute('data-mode')).toBe('suggestions');
    // The previous term's suggestions stay on screen until this term's answer arrives.
    await expect.poll(() => panel.getAttribute('data-term')).toBe(term);
    const suggestion = panel.getByTestId('search-suggestion').first();
    await suggestion.waitFor();
    expect(await suggestion.innerText()).toMatch(expectSuggestion);
    expect(await suggestion.locator('mark').first().innerText()).toBe(term);
    const recorded = page.waitForResponse((r) => r.url().endsWith('/search/v1/queryFinal') && r.request().method() === 'POST');
    await input.press('Enter');
    await recorded;
    await page.waitForURL(`${server.base}/search-object?str=${encodeURIComponent(term)}`);
    await expect.poll(() => page.getByTestId('search-query').innerText()).toBe(`“${term}”的搜索结果`);
  }

  it('suggestions for a 1- and a 2-character Chinese term, results in tabs, history with delete', async () => {
    const token = await apiRegister(server, newMobile());
    const page = await newPage({ token });
    await goto(page, server.base + '/');
    await page.getByTestId('header-user-menu').waitFor();

    await searchFromHeader(page, '猫', /猫/);
    await expect.poll(() => page.getByTestId('search-tabs-projects').innerText()).toMatch(/发售\s*1/);
    await expect.poll(() => page.getByTestId('search-results').getByTestId('project-card').count()).toBe(1);

    await searchFromHeader(page, '水墨', /水墨/);
    const goodsTab = page.getByTestId('search-tabs-goods');
    await expect.poll(async () => Number((await goodsTab.innerText()).replace(/\D/g, ''))).toBeGreaterThan(10);
    await goodsTab.click();
    await page.waitForURL(/tab=goods/);
    await expect.poll(() => page.getByTestId('search-results').getByTestId('goods-card').count()).toBe(12);
    await page.getByTestId('pager-2').click();
    await page.waitForURL(/page=2/);
    await page.getByTestId('search-results').getByTestId('goods-card').first().waitFor();

    // History (newest first) when the box is empty; deleting a term removes it on the server too.
    const input = page.getByTestId('header-search-input');
    await input.click();
    await input.fill('');
    const panel = page.getByTestId('search-panel');
    await expect.poll(() => panel.getAttribute('data-mode')).toBe('history');
    const items = panel.getByTestId('search-history-item');
    await expect.poll(() => items.evaluateAll((els) => els.map((e) => e.getAttribute('data-kw')))).toEqual(['水墨', '猫']);
    await panel.locator('[data-testid="search-history-item"][data-kw="猫"]').getByTestId('search-history-delete').click();
    await expect.poll(() => items.evaluateAll((els) => els.map((e) => e.getAttribute('data-kw')))).toEqual(['水墨']);
    await expect.poll(async () => (await getJson('/search/v1/searchHistory', { token })).data).toEqual(['水墨']);

    // A history item searches again.
    await items.first().locator('button').first().click();
    await page.waitForURL(`${server.base}/search-object?str=${encodeURIComponent('水墨')}`);
    await page.context().close();
  });

  it('arrow keys pick a suggestion, which opens its page', async () => {
    const page = await newPage();
    await goto(page, server.base + '/projects');
    const input = page.getByTestId('header-search-input');
    await input.click();
    await input.fill('水墨');
    await expect.poll(() => page.getByTestId('search-panel').getAttribute('data-term')).toBe('水墨');
    const first = page.getByTestId('search-suggestion').first();
    await first.waitFor();
    expect(await first.getAttribute('data-type')).toBe('0');
    const id = await first.getAttribute('data-id');
    await input.press('ArrowDown'); // "search for 水墨"
    await input.press('ArrowDown'); // the first suggestion
    await expect.poll(() => first.getAttribute('aria-selected')).toBe('true');
    await expect.poll(async () => (await input.getAttribute('aria-activedescendant')) === (await first.getAttribute('id'))).toBe(true);
    await input.press('Enter');
    await page.waitForURL(`${server.base}/projects/detail/${id}`);
    await page.context().close();
  });

  it('a term without results shows the empty state; no term asks for one', async () => {
    const page = await newPage();
    await goto(page, `${server.base}/search-object?str=${encodeURIComponent('没有这种藏品')}`);
    expect(await page.getByTestId('search-results').getByTestId('empty').innerText()).toContain('没有找到');
    await goto(page, `${server.base}/search-object`);
    await page.getByTestId('empty').waitFor();
    await page.context().close();
  });
});

describe('content', () => {
  it('a news item: sanitised content, neighbours, Open Graph tags', async () => {
    const news = (await getJson('/official/news/list?pageSize=3')).data.list as Array<{ id: number; title: string }>;
    const page = await newPage();
    await goto(page, server.base + '/news');
    await page.getByTestId('news-card').first().waitFor();
    await page.locator(`[data-testid="news-card"][data-id="${news[0]!.id}"]`).click();
    await page.waitForURL(`${server.base}/news/${news[0]!.id}`);
    await expect.poll(() => page.getByTestId('news-title').innerText()).toBe(news[0]!.title);
    expect((await page.getByTestId('news-content').innerText()).length).toBeGreaterThan(20);
    expect(await page.getByTestId('news-content').locator('script').count()).toBe(0);
    const { text } = await html(`/news/${news[0]!.id}`);
    expect(text).toContain(`<meta property="og:title" content="${news[0]!.title}"`);
    expect(text).toContain('<meta property="og:type" content="article"');
    await page.context().close();
  });

  it('language switch on a content page re-renders it in English (server-side too)', async () => {
    const page = await newPage();
    await goto(page, server.base + '/news/1');
    expect(await page.getByTestId('news-detail').innerText()).toContain('返回资讯列表');
    await clickAndReload(page, page.getByTestId('lang-switch-en'));
    expect(await page.getByTestId('news-detail').innerText()).toContain('Back to the news');
    await expect.poll(() => page.locator('html').getAttribute('lang')).toBe('en');
    const { text } = await html('/assets/1', { cookie: 'lang=en' });
    expect(text).toContain('Price history');
    expect(text).toContain('<html lang="en"');
    await page.context().close();
  });

  it('the download page has a locally generated QR code (in the HTML)', async () => {
    const { status, text } = await html('/download');
    expect(status).toBe(200);
    expect(text).toMatch(/<svg[^>]*data-testid="qr-code"[^>]*data-value="http:\/\/127\.0\.0\.1:\d+\/download"/);
  });
});

describe('server rendering and status codes', () => {
  it('an unknown collectible, release, news item or creator answers HTTP 404 with the error page', async () => {
    const page = await newPage();
    const res = await goto(page, server.base + '/assets/99999999');
    expect(res!.status()).toBe(404);
    expect(await page.getByTestId('error-status').innerText()).toBe('404');
    expect(await page.getByTestId('error-message').innerText()).toContain('This page could not be found');
    await page.context().close();
    for (const p of ['/assets/abc', '/projects/detail/99999', '/projects/dropping/abc', '/news/99999', '/creator/nobody']) {
      expect((await html(p)).status, p).toBe(404);
    }
  });

  it("a creator's numeric id (from search suggestions) redirects to the accountId page", async () => {
    const creator = (await (await fetch(`${server.base}/mvapi/public/api/creator/v1/query`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"id":1}' })).json()).data;
    const res = await fetch(`${server.base}/creator/1`, { redirect: 'manual' });
    expect(res.status).toBe(301);
    expect(res.headers.get('location')).toBe(`/creator/${creator.accountId}`);
  });

  it('the SSR HTML of a collectible (fetched without JS) contains its name, price and meta tags', async () => {
    const goods = (await getJson('/goods/v1/details/?id=1')).data as { name: string; lastPriceFen: number; salePriceFen: number | null; status: string; image: string };
    const price = goods.status === 'on_sale' && goods.salePriceFen !== null ? goods.salePriceFen : goods.lastPriceFen;
    const { status, text } = await html('/assets/1');
    expect(status).toBe(200);
    expect(text).toContain(goods.name);
    expect(text).toContain(fen(price));
    expect(text).toContain(`<title>${goods.name} - CFX Art</title>`);
    expect(text).toMatch(/<meta name="description" content="[^"]*\S[^"]*"/);
    expect(text).toContain(`<meta property="og:title" content="${goods.name}"`);
    expect(text).toMatch(/<meta property="og:description" content="[^"]+"/);
    const og = `${server.base}${goods.image}&w=1200&fmt=png`;
    expect(text).toContain(`<meta property="og:image" content="${og.replaceAll('&', '&amp;')}"`);
    const png = await fetch(og);
    expect([png.status, png.headers.get('content-type')]).toEqual([200, 'image/png']);
    expect(text).toMatch(/<img[^>]+width="600"[^>]+height="600"/);
  });
});
