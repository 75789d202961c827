import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { encodePng } from '../../apps/server/src/modules/captcha/png.ts';
import { createStaffCli, firstSignIn } from '../admin-lib.ts';
import { apiRegister, goto, launchBrowser, newMobile, startServer, type Server } from '../lib.ts';

/**
 * The console's catalogue editors in the browser against the real server: an operator (made by
 * the create-staff CLI, signed in with TOTP enrolment) creates a release with a cover uploaded
 * from the page and a public phase starting in a few minutes — it appears on /projects and on its
 * dropping page; uploads a whitelist CSV with one bad line and sees that line reported (nothing
 * imported), then a clean one; publishes a news item with an uploaded cover and sees it on /news;
 * adds a home banner pointing at the release and sees it on the home page.
 */
let server: Server;
let browser: Browser;

beforeAll(async () => {
  [server, browser] = await Promise.all([startServer({ CHAIN: 'off', DEMO_DATA: '0' }), launchBrowser()]);
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

const png = () => ({ name: 'cover.png', mimeType: 'image/png', buffer: encodePng(96, 64, crypto.randomBytes(96 * 64 * 4)) });
/** yyyy-MM-ddTHH:mm in China time, `ms` from now rounded up to the next whole minute. */
function chinaInput(msFromNow: number): { input: string; at: number } {
  const at = Math.ceil((Date.now() + msFromNow) / 60_000) * 60_000;
  return { input: new Date(at + 8 * 3600_000).toISOString().slice(0, 16), at };
}
async function uploadInto(page: Page, testId: string) {
  await page.getByTestId(`${testId}-file`).setInputFiles(png());
  await expect.poll(() => page.getByTestId(`${testId}-preview`).getAttribute('data-src')).toMatch(/^\/media\/uploads\/public\/img\/\d{6}\/[0-9a-f]{32}\.png$/);
}

describe('catalogue editors', () => {
  it('an operator creates a release with a phase, imports a whitelist, publishes news and a banner; the site shows them', async () => {
    // A creator to pick (the dev route makes one) and a registered user for the whitelist.
    const mobile = newMobile();
    const token = await apiRegister(server, mobile);
    expect((await server.api('/dev/drop-release', { supply: 5 }, { token })).status).toBe('000000');

    const oneTime = await createStaffCli(server, 'op1', 'operator');
    const ctx = await browser.newContext({ viewport: { width: 1360, height: 900 } });
    const page = await ctx.newPage();
    await firstSignIn(page, server, 'op1', oneTime, 'Operator-pass-2025');
    // An operator sees the catalogue sections only.
    for (const id of ['releases', 'news', 'banners']) await page.getByTestId(`admin-nav-${id}`).waitFor();
    expect(await page.getByTestId('admin-nav-users').count()).toBe(0);

    /* ── a release with a cover upload and a public phase starting soon ── */
    await page.getByTestId('admin-nav-releases').click();
    await page.getByTestId('admin-release-new').click();
    await page.getByTestId('admin-release-form').waitFor();
    const name = `云山·首发 ${crypto.randomInt(1000, 9999)}`;
    await page.getByTestId('admin-release-name').fill(name);
    await expect.poll(() => page.getByTestId('admin-release-creator').locator('option').count()).toBeGreaterThan(1);
    await page.getByTestId('admin-release-creator').selectOption({ index: 1 });
    await uploadInto(page, 'admin-release-cover');
    await page.getByTestId('admin-release-category').fill('国风水墨');
    await page.getByTestId('admin-release-supply').fill('20');
    await page.getByTestId('admin-release-price').fill('12.50');
    const start = chinaInput(3 * 60_000);
    await page.getByTestId('admin-release-start').fill(start.input);
    await page.getByTestId('admin-release-description-area').click();
    await page.keyboard.type('云山入画，限量二十份。');
    await page.getByTestId('admin-release-submit').click();
    await page.getByTestId('admin-release-detail').waitFor();
    const projectId = Number(await page.getByTestId('admin-release-detail').getAttribute('data-id'));
    expect(projectId).toBeGreaterThan(0);
    expect(await page.getByTestId('admin-release-title').innerText()).toBe(name);
    expect(await page.getByTestId('admin-release-status').innerText()).toBe('即将开售');

    await page.getByTestId('admin-release-tab-phases').click();
    await page.getByTestId('admin-phase-add').click();
    expect(await page.getByTestId('admin-phase-kind').inputValue()).toBe('public');
    expect(await page.getByTestId('admin-phase-start').inputValue()).toBe(start.input);
    await page.getByTestId('admin-phases-save').click();
    await page.getByTestId('admin-phases-live').waitFor();
    expect(await page.getByTestId('admin-phases-live').locator('li').first().getAttribute('data-kind')).toBe('public');
    expect(await page.getByTestId('admin-phases-live').locator('li').first().getAttribute('data-state')).toBe('upcoming');

    // The site: on /projects and its dropping page, upcoming, with the uploaded cover.
    const site = await ctx.newPage();
    await goto(site, `${server.base}/projects`);
    const card = site.getByTestId('project-card').filter({ hasText: name });
    await card.waitFor();
    expect(await card.getByTestId('status-badge').getAttribute('data-status')).toBe('upcoming');
    await goto(site, `${server.base}/projects/dropping/${projectId}`);
    expect(await site.getByTestId('dropping-name').innerText()).toBe(name);
    expect(await site.getByTestId('dropping-page').getAttribute('data-status')).toBe('upcoming');

    /* ── whitelist CSV: one bad line is reported with its number, nothing imported; then a clean file ── */
    await page.getByTestId('admin-release-tab-whitelist').click();
    expect(await page.getByTestId('admin-whitelist-size').getAttribute('data-n')).toBe('0');
    await page.getByTestId('admin-whitelist-file').setInputFiles({ name: 'list.csv', mimeType: 'text/csv', buffer: Buffer.from(`mobile,quota\n${mobile},2\nnot a line\n`) });
    await page.getByTestId('admin-whitelist-report').waitFor();
    expect(await page.getByTestId('admin-whitelist-report').getAttribute('data-ok')).toBe('0');
    const bad = page.getByTestId('admin-whitelist-error');
    expect(await bad.count()).toBe(1);
    expect(await bad.getAttribute('data-line')).toBe('3');
    expect(await bad.innerText()).toBe('第3行格式有误，应为“手机号或账号ID,数量”');
    expect(await page.getByTestId('admin-whitelist-import').isDisabled()).toBe(true);
    await page.getByTestId('admin-whitelist-file').setInputFiles({ name: 'list.csv', mimeType: 'text/csv', buffer: Buffer.from(`mobile,quota\n${mobile},2\n`) });
    await expect.poll(() => page.getByTestId('admin-whitelist-report').getAttribute('data-ok')).toBe('1');
    await page.getByTestId('admin-whitelist-import').click();
    await expect.poll(() => page.getByTestId('admin-whitelist-size').getAttribute('data-n')).toBe('1');
    await page.getByTestId('admin-whitelist-q').fill(mobile);
    await page.getByTestId('admin-whitelist-search').click();
    await expect.poll(() => page.getByTestId('admin-whitelist-row').count()).toBe(1);
    expect(await page.getByTestId('admin-whitelist-table').innerText()).not.toContain(mobile);

    /* ── news: cover upload, body, publish → /news ── */
    await page.getByTestId('admin-nav-news').click();
    await page.getByTestId('admin-news-new').click();
    const title = `上新公告 ${crypto.randomInt(1000, 9999)}`;
    await page.getByTestId('admin-news-title').fill(title);
    await page.getByTestId('admin-news-category').fill('平台公告');
    await uploadInto(page, 'admin-news-cover');
    await page.getByTestId('admin-news-body-area').click();
    await page.keyboard.type('云山系列即将开售，敬请关注。');
    await page.getByTestId('admin-news-publish').click();
    await expect.poll(() => page.getByTestId('admin-news-form').getAttribute('data-state')).toBe('published');
    await goto(site, `${server.base}/news`);
    await site.getByTestId('news-card-title').filter({ hasText: title }).waitFor();

    /* ── a home banner pointing at the release → the home page ── */
    await page.getByTestId('admin-nav-banners').click();
    await page.getByTestId('admin-banner-new').click();
    await page.getByTestId('admin-banner-title').fill('云山首发');
    await uploadInto(page, 'admin-banner-image');
    await page.getByTestId('admin-banner-picker-q').fill(name);
    await page.getByTestId('admin-banner-picker-search').click();
    await page.getByTestId('admin-banner-picker-option').first().click();
    expect(await page.getByTestId('admin-banner-target').getAttribute('data-id')).toBe(String(projectId));
    await page.getByTestId('admin-banner-save').click();
    await page.getByTestId('admin-banner-row').first().waitFor();
    expect(await page.getByTestId('admin-banner-row').first().getAttribute('data-live')).toBe('1');
    await goto(site, `${server.base}/`);
    const banner = site.getByTestId('banner').filter({ hasText: '云山首发' });
    await banner.waitFor();
    expect(await banner.getAttribute('href')).toBe(`/projects/detail/${projectId}`);
    await ctx.close();
  });
});
