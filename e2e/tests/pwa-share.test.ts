import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { encodePng } from '../../apps/server/src/modules/captcha/png.ts';
import { solvePowNow as solvePow } from '@cfx/protocol/pow.ts';
import { apiRegister, goto, launchBrowser, newMobile, openAs, reload, startServer, userContext, type Server } from '../lib.ts';

/**
 * Issue #11's web app install, share and service pieces in Chromium against the real server (demo
 * catalogue, no chain): the manifest is linked and valid, the service worker registers and controls
 * the page after a reload and shows the bilingual offline page for an unvisited page when the
 * network is off; the share dialog shows the server-rendered poster; the invite page lists a user
 * who registered with my invite code; a ticket opened in the UI gets customer service's reply
 * (through the DEV_MODE-only route that calls replyTicket, as the admin console will).
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

/** Registers through the API with an invite code (the slider solved as the server expects). */
async function registerWithInvite(mobile: string, inviteCode: string): Promise<string> {
  const ch = await server.api('/captcha/v1/get');
  const x = server.captchaAnswer(ch.data.id);
  const track = Array.from({ length: 21 }, (_, i) => [i * 20, Math.round((x * i) / 20)]);
  const ok = await server.api('/captcha/v1/check', { id: ch.data.id, x, track, pow: solvePow(ch.data.id, ch.data.pow.bits) });
  const sent = await server.api('/api/user/v1/smscode', { mobile, type: '1', NECaptchaValidate: ok.data.NECaptchaValidate });
  expect(sent.status).toBe('000000');
  const r = await server.api('/api/user/v1/regist', { mobile, pwd: Buffer.from('abc123!').toString('base64'), smsCode: await server.smsCode(mobile), inviteCode });
  expect(r.status).toBe('000000');
  return r.data.token;
}

describe('web app install (manifest and service worker)', () => {
  it('links a valid manifest and serves it and the worker with the right headers', async () => {
    const ctx = await userContext(browser, server);
    const page = await ctx.newPage();
    await goto(page, `${server.base}/download`);
    const href = await page.locator('link[rel="manifest"]').getAttribute('href');
    expect(href).toBe('/manifest.webmanifest');
    const res = await fetch(server.base + href);
    expect(res.headers.get('content-type')).toMatch(/^application\/manifest\+json/);
    const m = await res.json();
    expect(m).toMatchObject({ name: '数字藏品 · CFX Art', short_name: 'CFX Art', lang: 'zh-CN', display: 'standalone', start_url: '/?source=pwa', scope: '/', theme_color: '#0b0c1a' });
    for (const size of ['192x192', '512x512']) expect(m.icons.some((i: { sizes: string; type: string }) => i.sizes === size && i.type === 'image/png')).toBe(true);
    expect(m.icons.some((i: { purpose: string }) => i.purpose === 'maskable')).toBe(true);
    for (const icon of m.icons.filter((i: { type: string }) => i.type === 'image/png')) {
      const png = Buffer.from(await (await fetch(server.base + icon.src)).arrayBuffer());
      const [w, h] = icon.sizes.split('x').map(Number);
      expect([png.readUInt32BE(16), png.readUInt32BE(20)], icon.src).toEqual([w, h]);
    }
    const sw = await fetch(`${server.base}/sw.js`);
    expect(sw.headers.get('cache-control')).toBe('no-cache');
    expect(await sw.text()).toMatch(/const BUILD = \{"version":"[\w-]+","precache":\["\/assets\//);
    // The English site links the English manifest.
    const en = await userContext(browser, server, { lang: 'en' });
    const enPage = await en.newPage();
    await goto(enPage, `${server.base}/download`);
    expect(await enPage.locator('link[rel="manifest"]').getAttribute('href')).toBe('/manifest.en.webmanifest');
    await Promise.all([ctx.close(), en.close()]);
  });

  it('registers the service worker, controls the page after a reload, and shows the offline page without network', async () => {
    const ctx = await userContext(browser, server);
    const page = await ctx.newPage();
    await goto(page, `${server.base}/`);
    const scope = await page.evaluate(async () => (await navigator.serviceWorker.ready).scope);
    expect(scope).toBe(`${server.base}/`);
    await reload(page);
    expect(await page.evaluate(() => navigator.serviceWorker.controller?.scriptURL)).toBe(`${server.base}/sw.js`);
    // The install block on /download: this headless Chromium on Linux gets the desktop steps or the prompt.
    await goto(page, `${server.base}/download`);
    await page.locator('[data-testid="pwa-install"], [data-testid="pwa-instructions"]').first().waitFor();

    await ctx.setOffline(true);
    // A page never visited: the bilingual offline page.
    await page.goto(`${server.base}/news?offline-probe=1`, { waitUntil: 'domcontentloaded' });
    await page.getByTestId('offline-page').waitFor();
    expect(await page.getByTestId('offline-page').innerText()).toMatch(/网络已断开[\s\S]*You are offline/);
    // A page visited before: its kept copy.
    await page.goto(`${server.base}/`, { waitUntil: 'domcontentloaded' });
    await page.getByTestId('home-hero').waitFor();
    await ctx.setOffline(false);
    await ctx.close();
  });
});

describe('share poster', () => {
  it('opens the share dialog on a collectible and a release with the poster image and my invite link', async () => {
    const token = await apiRegister(server, newMobile());
    const code = (await server.api('/api/user/v1/getinvitecode', {}, { token })).data.inviteCode as string;
    const goods = (await server.api('/goods/v1/list/index', { pageNum: 1, pageSize: 1 })).data.list[0];
    const { ctx, page } = await openAs(browser, server, { token }, `/assets/${goods.id}`);
    await page.getByTestId('share-button').click();
    await page.getByTestId('share-dialog').waitFor();
    const poster = page.getByTestId('share-poster');
    await expect.poll(() => poster.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(750);
    expect(await poster.evaluate((img: HTMLImageElement) => img.naturalHeight)).toBe(1200);
    expect(await poster.getAttribute('src')).toContain(`inviteCode=${code}`);
    expect(await page.getByTestId('share-link').inputValue()).toBe(`${server.base}/assets/${goods.id}?inviteCode=${code}`);
    expect(await page.getByTestId('share-download').getAttribute('download')).toBe(`poster-goods-${goods.id}.png`);
    await page.getByTestId('share-close').click();

    // A visitor shares a release: no invite code.
    const release = (await server.api('/goods/v1/project/index', { pageNum: 1, pageSize: 1 })).data.list[0];
    const visitor = await userContext(browser, server);
    const vp = await visitor.newPage();
    await goto(vp, `${server.base}/projects/detail/${release.id}`);
    await vp.getByTestId('share-button').click();
    const vposter = vp.getByTestId('share-poster');
    await expect.poll(() => vposter.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(750);
    expect(await vp.getByTestId('share-link').inputValue()).toBe(`${server.base}/projects/detail/${release.id}`);
    await Promise.all([ctx.close(), visitor.close()]);
  });
});

describe('invite records', () => {
  it('lists a user who registered with my invite code, masked', async () => {
    const token = await apiRegister(server, newMobile());
    const code = (await server.api('/api/user/v1/getinvitecode', {}, { token })).data.inviteCode as string;
    const friend = newMobile();
    await registerWithInvite(friend, code);
    const { ctx, page } = await openAs(browser, server, { token }, '/personal-center/invite');
    await page.getByTestId('invite-records').waitFor();
    expect(await page.getByTestId('invite-code').innerText()).toBe(code);
    expect(await page.getByTestId('invite-link').inputValue()).toBe(`${server.base}/?inviteCode=${code}`);
    expect(await page.getByTestId('qr-code').getAttribute('data-value')).toBe(`${server.base}/?inviteCode=${code}`);
    await expect.poll(() => page.getByTestId('invite-record').count()).toBe(1);
    expect(await page.getByTestId('invite-record-mobile').innerText()).toBe(`${friend.slice(0, 3)}****${friend.slice(-4)}`);
    expect(await page.getByTestId('invite-record-realname').innerText()).toBe('未实名');
    expect(await page.getByTestId('invite-count').innerText()).toBe('1 人');
    expect(await page.content()).not.toContain(friend);
    await ctx.close();
  });
});

describe('contact service', () => {
  it('opens a ticket with a screenshot in the UI and sees customer service’s reply', async () => {
    const token = await apiRegister(server, newMobile());
    const staff = await apiRegister(server, newMobile());
    const { ctx, page } = await openAs(browser, server, { token }, '/personal-center/contact-service');
    await page.getByTestId('ticket-list').waitFor();
    await page.getByTestId('ticket-new').click();
    await page.getByTestId('ticket-form').waitFor();
    // The form checks the server's rules first, with its texts.
    await page.getByTestId('ticket-submit').click();
    expect(await page.getByTestId('ticket-form-error').innerText()).toBe('请选择问题类型');
    await page.getByTestId('ticket-category').selectOption('collectible');
    await page.getByTestId('ticket-subject').fill('藏品没有显示');
    await page.getByTestId('ticket-content').fill('购买成功后，个人中心里看不到这件藏品。');
    await page.getByTestId('ticket-images-input').setInputFiles({ name: 'screen.png', mimeType: 'image/png', buffer: encodePng(80, 60, new Uint8Array(80 * 60 * 4).fill(200)) });
    await expect.poll(() => page.getByTestId('ticket-images-item').getAttribute('data-status')).toBe('done');
    await page.getByTestId('ticket-submit').click();
    await page.getByTestId('ticket-thread').waitFor();
    const id = Number(await page.getByTestId('ticket-thread').getAttribute('data-id'));
    expect(await page.getByTestId('ticket-status').getAttribute('data-status')).toBe('open');
    // My own screenshot comes back (a private file fetched with my token).
    await expect.poll(() => page.locator('[data-testid="ticket-attachment"] img').evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(80);

    // Customer service answers.
    const reply = await server.api('/dev/ticket-reply', { id, text: '您好，藏品正在上链，请稍候刷新。' }, { token: staff });
    expect(reply.status).toBe('000000');
    await page.getByTestId('ticket-back').click();
    await reload(page);
    const item = page.locator(`[data-testid="ticket-item"][data-id="${id}"]`);
    await expect.poll(() => item.getAttribute('data-unread')).toBe('1');
    await page.getByTestId('ticket-unread-dot').waitFor();
    await item.click();
    const staffMsg = page.locator('[data-testid="ticket-message"][data-author="staff"]');
    await staffMsg.waitFor();
    expect(await staffMsg.getByTestId('ticket-message-text').innerText()).toBe('您好，藏品正在上链，请稍候刷新。');
    expect(await page.getByTestId('ticket-status').getAttribute('data-status')).toBe('answered');
    // Reading it clears the menu's indicator.
    await expect.poll(() => page.getByTestId('ticket-unread-dot').count()).toBe(0);

    // I answer back and close it.
    await page.getByTestId('ticket-reply-text').fill('好的，谢谢！');
    await page.getByTestId('ticket-reply-send').click();
    await expect.poll(() => page.getByTestId('ticket-message').count()).toBe(3);
    await page.getByTestId('ticket-close').click();
    await page.getByTestId('ticket-close-confirm').click();
    await page.getByTestId('ticket-closed').waitFor();
    await page.getByTestId('ticket-reopen').waitFor();
    await ctx.close();
  });
});
