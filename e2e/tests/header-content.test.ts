import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { apiRegister, goto, launchBrowser, newMobile, openAs, startServer, userContext, type Server } from '../lib.ts';

/**
 * The header's BBS entry and the pages that show the banner, release and creator calls, in the
 * browser against the real server (SQLite, demo data, no chain): the BBS entry only warns
 * 功能暂未开放，敬请期待 (menu row from 96rem, inside 更多 from lg up to 96rem, narrow-screen menu, English); the home hero shows the
 * indexBanner banners and /news the newsBannerList ones, both in the server-rendered HTML; /sales
 * groups its release filter by sale status (findAll) and, filtered by a release, shows its card
 * (detailsTitle) — a stale release id says so; the creator's profile editor starts from the
 * server's current media links and stats (selectCreatorMediaRelatedInfo), not from the page's copy.
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

async function getData(path: string): Promise<any> {
  return (await (await fetch(`${server.base}/mvapi/public${path}`, { headers: { channel: 'pc' } })).json()).data;
}

/** The texts of the toasts on screen (a toast lasts 1 s: wait for it, then read). */
async function toastTexts(page: Page): Promise<string[]> {
  await page.getByTestId('toast').first().waitFor();
  return page.getByTestId('toast-text').allInnerTexts();
}

describe('header BBS entry', () => {
  it('warns that the forum is not open yet, on wide and narrow screens and in English', async () => {
    const ctx = await userContext(browser, server, { viewport: { width: 1600, height: 900 } });
    const page = await ctx.newPage();
    await goto(page, `${server.base}/news`);
    const entry = page.getByTestId('nav-bbs');
    expect(await entry.innerText()).toBe('论坛');
    await entry.click();
    expect(await toastTexts(page)).toContain('功能暂未开放，敬请期待');
    expect(await page.getByTestId('toast').first().getAttribute('data-kind')).toBe('warning');
    expect(new URL(page.url()).pathname).toBe('/news');
    // the row shows it, so 更多 does not repeat it
    await page.getByTestId('nav-more').click();
    await page.getByTestId('more-help').waitFor();
    expect(await page.getByTestId('more-bbs').count()).toBe(0);
    await ctx.close();

    const narrow = await userContext(browser, server, { viewport: { width: 390, height: 800 } });
    const mobile = await narrow.newPage();
    await goto(mobile, `${server.base}/`);
    await mobile.getByTestId('nav-mobile').click();
    await mobile.getByTestId('nav-mobile-bbs').click();
    expect(await toastTexts(mobile)).toContain('功能暂未开放，敬请期待');
    await narrow.close();

    const enCtx = await userContext(browser, server, { lang: 'en', viewport: { width: 1600, height: 900 } });
    const en = await enCtx.newPage();
    await goto(en, `${server.base}/`);
    expect(await en.getByTestId('nav-bbs').innerText()).toBe('BBS');
    await en.getByTestId('nav-bbs').click();
    expect(await toastTexts(en)).toContain('Not open yet — stay tuned');
    // narrower (lg up to 96rem, e.g. 1280 px): the entry moves into 更多 / More, so the header row keeps its room
    await en.setViewportSize({ width: 1280, height: 800 });
    await expect.poll(() => en.getByTestId('nav-bbs').isVisible()).toBe(false);
    await en.getByTestId('nav-more').click();
    await en.getByTestId('more-bbs').click();
    await expect.poll(() => en.getByTestId('toast-text').allInnerTexts()).toContain('Not open yet — stay tuned');
    await enCtx.close();
  });
});

describe('banners', () => {
  it('the home hero shows the index banners, server-rendered', async () => {
    const banners: Array<{ title: string; url: string }> = await getData('/goods/v1/list/indexBanner');
    expect(banners.length).toBeGreaterThan(1);
    const html = await (await fetch(`${server.base}/`)).text();
    expect(html).toContain('data-testid="home-banners"');
    for (const b of banners) expect(html).toContain(b.title);

    const ctx = await userContext(browser, server);
    const page = await ctx.newPage();
    await goto(page, `${server.base}/`);
    const slides = page.getByTestId('home-banners').getByTestId('banner');
    expect(await slides.count()).toBe(banners.length);
    expect(await slides.first().getAttribute('href')).toBe(banners[0]!.url);
    expect(await slides.first().innerText()).toContain(banners[0]!.title);
    await ctx.close();
  });

  it('/news shows the news banners above the list on its first page; a banner opens its article', async () => {
    const banners: Array<{ title: string; url: string }> = await getData('/official/news/newsBannerList');
    expect(banners.map((b) => b.title)).toContain('平台正式上线');
    const html = await (await fetch(`${server.base}/news`)).text();
    expect(html).toContain('data-testid="news-banners"');
    expect(html).toContain('平台正式上线');

    const ctx = await userContext(browser, server);
    const page = await ctx.newPage();
    await goto(page, `${server.base}/news`);
    const slides = page.getByTestId('news-banners').getByTestId('banner');
    expect(await slides.allInnerTexts()).toEqual(banners.map((b) => expect.stringContaining(b.title)));
    await slides.first().click();
    await page.waitForURL((u) => u.pathname === banners[0]!.url);
    await page.getByTestId('news-detail').waitFor();
    await ctx.close();

    // not on later pages
    const page2 = await (await fetch(`${server.base}/news?page=2`)).text();
    expect(page2).not.toContain('data-testid="news-banners"');
  });
});

describe('market release filter and the release card', () => {
  it('groups the releases by sale status and shows the selected release from detailsTitle', async () => {
    const all: Array<{ id: number; name: string; status: string }> = await getData('/goods/v1/findAll/');
    expect(all.length).toBeGreaterThan(2);
    const target = all.find((p) => p.status === 'sold_out') ?? all[0]!;
    const title = (await server.api('/goods/v1/project/detailsTitle/', { id: target.id })).data;
    expect(title.name).toBe(target.name);

    // server-rendered card
    const html = await (await fetch(`${server.base}/sales?project=${target.id}`)).text();
    expect(html).toContain('data-testid="selected-release"');
    expect(html).toContain(`<title>${title.name} · 寄售市场`);

    const ctx = await userContext(browser, server);
    const page = await ctx.newPage();
    await goto(page, `${server.base}/sales`);
    expect(await page.getByTestId('selected-release').count()).toBe(0);
    const select = page.getByTestId('filter-project');
    // one optgroup per status present, on sale first, each with findAll's releases of that status
    const groups = await select.locator('optgroup').evaluateAll((els) =>
      els.map((g) => ({ status: g.getAttribute('data-status'), label: g.getAttribute('label'), ids: [...g.querySelectorAll('option')].map((o) => Number(o.value)) })),
    );
    const order = ['on_sale', 'upcoming', 'sold_out', 'ended'];
    const labels: Record<string, string> = { on_sale: '发售中', upcoming: '即将开售', sold_out: '已售罄', ended: '已结束' };
    const expected = order
      .map((s) => ({ status: s, label: labels[s], ids: all.filter((p) => p.status === s).map((p) => p.id) }))
      .filter((g) => g.ids.length > 0);
    expect(groups).toEqual(expected);

    await select.selectOption(String(target.id));
    await page.getByTestId('filter-apply').click();
    await page.waitForURL((u) => u.searchParams.get('project') === String(target.id));
    const card = page.getByTestId('selected-release');
    await card.waitFor();
    expect(await card.getAttribute('data-found')).toBe('1');
    expect(await page.getByTestId('selected-release-name').innerText()).toBe(title.name);
    expect(await page.getByTestId('selected-release-status').getAttribute('data-status')).toBe(title.status);
    expect(await page.getByTestId('selected-release-status').innerText()).toBe(labels[title.status]);
    expect(await page.getByTestId('selected-release-creator').innerText()).toBe(`创作者：${title.creator.name}`);
    expect(await page.getByTestId('selected-release-link').getAttribute('href')).toBe(`/projects/detail/${target.id}`);
    await expect.poll(() => page.title()).toContain(`${title.name} · 寄售市场`);

    // clearing the filter drops the card
    await page.getByTestId('selected-release-clear').click();
    await page.waitForURL((u) => !u.searchParams.has('project'));
    await expect.poll(() => page.getByTestId('selected-release').count()).toBe(0);

    // a stale release id says so
    await goto(page, `${server.base}/sales?project=987654`);
    expect(await page.getByTestId('selected-release').getAttribute('data-found')).toBe('0');
    expect(await page.getByTestId('selected-release').innerText()).toContain('未找到该发售系列');
    await ctx.close();
  });
});

describe('creator profile editor', () => {
  it('starts from the server’s current media links and stats, not the page’s copy; none → the empty hint', async () => {
    const token = await apiRegister(server, newMobile());
    const made = await server.api('/dev/make-creator', { name: '山水实验室' }, { token });
    expect(made.status).toBe('000000');
    const accountId: string = made.data.accountId;

    const { ctx, page } = await openAs(browser, server, { token }, `/creator/${accountId}`);
    await expect.poll(() => page.getByTestId('creator-page').getAttribute('data-own'), { timeout: 15_000 }).toBe('1');
    expect(await page.getByTestId('creator-media-links').count()).toBe(0);

    // no links yet: the editor says so
    await page.getByTestId('creator-edit-button').click();
    const dialog = page.getByTestId('creator-edit-dialog');
    await dialog.getByTestId('creator-edit-links-empty').waitFor();
    expect(await dialog.getByTestId('creator-edit-link').count()).toBe(0);
    await dialog.getByTestId('creator-edit-dialog-close').click();

    // the links change elsewhere (another tab or device) after this page was rendered
    const links = [
      { type: 'weibo', label: '山水微博', url: 'https://weibo.com/shanshui' },
      { type: 'website', label: '工作室官网', url: 'https://shanshui.example.com/' },
    ];
    const upd = await server.api('/api/creator/v1/update', { mediaLinks: links }, { token });
    expect(upd.status).toBe('000000');
    const fan = await apiRegister(server, newMobile());
    expect((await server.api('/api/follow/v1/follow', { creatorId: made.data.creatorId, follow: true }, { token: fan })).status).toBe('000000');
    expect(await page.getByTestId('creator-media-links').count()).toBe(0);
    const info = (await server.api('/api/user/creator/v1/selectCreatorMediaRelatedInfo', {}, { token })).data;
    expect(info.stats.followers).toBe(1);

    await page.getByTestId('creator-edit-button').click();
    await dialog.getByTestId('creator-edit-link').nth(1).waitFor();
    expect(await dialog.getByTestId('creator-edit-link-label').evaluateAll((els) => els.map((e) => (e as HTMLInputElement).value))).toEqual(['山水微博', '工作室官网']);
    expect(await dialog.getByTestId('creator-edit-link-url').evaluateAll((els) => els.map((e) => (e as HTMLInputElement).value))).toEqual(links.map((l) => l.url));
    expect(await dialog.getByTestId('creator-edit-links-empty').count()).toBe(0);
    const stats = dialog.getByTestId('creator-edit-stats');
    for (const key of ['followers', 'releases', 'moments', 'goods', 'holders'] as const) {
      expect(await stats.getByTestId(`creator-edit-stat-${key}`).innerText()).toBe(String(info.stats[key]));
    }

    // saving keeps them and the page shows them
    await dialog.getByTestId('creator-edit-save').click();
    await dialog.waitFor({ state: 'detached' });
    expect(await page.getByTestId('creator-media-links').getByRole('link').allInnerTexts()).toEqual([expect.stringContaining('山水微博'), expect.stringContaining('工作室官网')]);
    await ctx.close();
  });
});
