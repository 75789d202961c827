import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { encodePng } from '../../apps/server/src/modules/captcha/png.ts';
import { apiRegister, goto, launchBrowser, newMobile, openAs, reload, startServer, userContext, type Server } from '../lib.ts';

/**
 * Follow and creators in the browser against the real server (SQLite, no chain): a visitor's follow
 * click opens the login overlay; a user follows a creator (the button and the follower count change
 * at once and stay after a reload) and finds the creator under /personal-center/follow; the creator
 * posts a moment with a real PNG (uploaded with progress), sees it on their page with the picture
 * and opens it in the viewer; the follower sees it in the follow feed and a visitor in the
 * server-rendered page; the creator deletes it after confirming. The creator is made through the
 * DEV_MODE-only /dev/make-creator call (no SQL writes).
 */
let server: Server;
let browser: Browser;
let creator: { token: string; accountId: string };
let fanToken: string;

beforeAll(async () => {
  [server, browser] = await Promise.all([startServer({ CHAIN: 'off', DEMO_DATA: '0' }), launchBrowser()]);
  const token = await apiRegister(server, newMobile());
  const made = await server.api('/dev/make-creator', { name: '青山工作室' }, { token });
  if (made.status !== '000000') throw new Error(`make-creator: ${made.status} ${made.message}`);
  creator = { token, accountId: made.data.accountId };
  fanToken = await apiRegister(server, newMobile());
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

/** A real 240×180 PNG (random pixels: about 170 KB, so the upload shows its progress for a moment). */
const picture = encodePng(240, 180, crypto.randomBytes(240 * 180 * 4));
const MOMENT_TEXT = '新作《山海·青鸾》预告\n下周五开售';

describe('creator page', () => {
  it('asks a visitor to log in before following', async () => {
    const ctx = await userContext(browser, server);
    const page = await ctx.newPage();
    await goto(page, `${server.base}/creator/${creator.accountId}`);
    expect(await page.getByTestId('creator-name').innerText()).toBe('青山工作室');
    expect(await page.getByTestId('creator-follower-count').innerText()).toBe('0');
    await page.getByTestId('creator-follow-button').click();
    await page.getByTestId('auth-overlay').waitFor();
    expect(await page.getByTestId('creator-follower-count').innerText()).toBe('0');
    await ctx.close();
  });

  it('a user follows the creator: the count goes up, stays after a reload, and the creator is under my follows', async () => {
    const { ctx, page } = await openAs(browser, server, { token: fanToken }, `/creator/${creator.accountId}`);
    const button = page.getByTestId('creator-follow-button');
    expect(await button.getAttribute('data-following')).toBe('0');
    await button.click();
    await expect.poll(() => button.getAttribute('data-following')).toBe('1');
    await expect.poll(() => page.getByTestId('creator-follower-count').innerText()).toBe('1');
    await expect.poll(() => button.getAttribute('data-pending')).toBe('0');

    await reload(page);
    await expect.poll(() => page.getByTestId('creator-follow-button').getAttribute('data-following'), { timeout: 15_000 }).toBe('1');
    expect(await page.getByTestId('creator-follower-count').innerText()).toBe('1');

    await goto(page, `${server.base}/personal-center/follow`);
    const row = page.getByTestId('follow-creator');
    await row.first().waitFor();
    expect(await row.count()).toBe(1);
    expect(await row.getAttribute('data-account-id')).toBe(creator.accountId);
    expect(await row.getByTestId('follow-creator-name').innerText()).toBe('青山工作室');
    // no moments yet: the feed tab says so
    await page.getByTestId('follow-tabs').getByText('关注动态').click();
    await page.getByTestId('empty').waitFor();
    await ctx.close();
  });

  it('the creator posts a moment with a picture; it shows on the page, in the viewer, in the feed; then is deleted', async () => {
    const { ctx, page } = await openAs(browser, server, { token: creator.token }, `/creator/${creator.accountId}`);
    await expect.poll(() => page.getByTestId('creator-page').getAttribute('data-own'), { timeout: 15_000 }).toBe('1');
    expect(await page.getByTestId('creator-follow-button').count()).toBe(0);
    await page.getByTestId('moments-empty').waitFor();

    await page.getByTestId('creator-post-button').click();
    const composer = page.getByTestId('moment-composer');
    await composer.waitFor();
    // nothing written and no picture: the server's own text
    await composer.getByTestId('moment-composer-submit').click();
    expect(await composer.getByTestId('moment-composer-error').innerText()).toBe('请输入内容或添加图片');

    await composer.getByTestId('moment-composer-text').fill(MOMENT_TEXT);
    await composer.getByTestId('moment-composer-images-input').setInputFiles({ name: '青鸾.png', mimeType: 'image/png', buffer: picture });
    const item = composer.getByTestId('creator-upload-item');
    await expect.poll(() => item.getAttribute('data-status'), { timeout: 15_000 }).toBe('done');
    expect(await item.getAttribute('data-key')).toMatch(/^public\/img\/\d{6}\/[0-9a-f]{32}\.png$/);
    await composer.getByTestId('moment-composer-submit').click();
    await composer.waitFor({ state: 'detached' });

    const moment = page.getByTestId('creator-moments').getByTestId('moment-item');
    await expect.poll(() => moment.count()).toBe(1);
    expect(await moment.getByTestId('moment-text').innerText()).toBe(MOMENT_TEXT);
    expect(await page.getByTestId('creator-moment-count').innerText()).toBe('1');
    const img = moment.getByTestId('moment-image').locator('img');
    await expect.poll(() => img.evaluate((el: HTMLImageElement) => el.complete && el.naturalWidth), { timeout: 15_000 }).toBe(240);
    expect(await img.getAttribute('src')).toMatch(/^\/media\/uploads\/public\/img\//);

    // the viewer opens on a click and closes with Escape
    await moment.getByTestId('moment-image').click();
    const viewer = page.getByTestId('lightbox');
    await viewer.waitFor();
    await expect.poll(() => viewer.getByTestId('lightbox-image').evaluate((el: HTMLImageElement) => el.complete && el.naturalWidth), { timeout: 15_000 }).toBe(240);
    await page.keyboard.press('Escape');
    await viewer.waitFor({ state: 'detached' });

    // a visitor gets the moment in the server-rendered page
    const html = await (await fetch(`${server.base}/creator/${creator.accountId}`)).text();
    expect(html).toContain('新作《山海·青鸾》预告');
    expect(html).toMatch(/data-testid="moment-item"/);

    // the follower sees it in the follow feed
    const fan = await openAs(browser, server, { token: fanToken }, '/personal-center/follow?tab=moments');
    const feedItem = fan.page.getByTestId('follow-feed').getByTestId('moment-item');
    await feedItem.first().waitFor({ timeout: 15_000 });
    expect(await feedItem.getByTestId('moment-text').innerText()).toBe(MOMENT_TEXT);
    expect(await feedItem.getByTestId('moment-creator').innerText()).toBe('青山工作室');
    await fan.ctx.close();

    // the creator deletes it, after confirming
    await moment.getByTestId('moment-delete').click();
    await moment.getByTestId('moment-delete-confirm').waitFor();
    await moment.getByTestId('moment-delete-yes').click();
    await expect.poll(() => page.getByTestId('creator-moments').getByTestId('moment-item').count()).toBe(0);
    expect(await page.getByTestId('creator-moment-count').innerText()).toBe('0');
    const listed = await server.api('/api/user/creator/v1/listCreatorFriendsMoments', { accountId: creator.accountId });
    expect(listed.data.total).toBe(0);
    await ctx.close();
  });
});
