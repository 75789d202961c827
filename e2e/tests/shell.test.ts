import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { apiRegister, clickAndReload, goto, launchBrowser, newMobile, startServer, userContext, type Server } from '../lib.ts';

/** The web shell: real 404s, the error page, language switch, personal-center guard, help pages. */
let server: Server;
let browser: Browser;
beforeAll(async () => {
  [server, browser] = await Promise.all([startServer({ CHAIN: 'off' }), launchBrowser()]);
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe('web shell', () => {
  it('an unknown route answers HTTP 404 with the error page', async () => {
    const page = await browser.newPage();
    const res = await goto(page, server.base + '/no/such/page');
    expect(res!.status()).toBe(404);
    expect(await page.getByTestId('error-status').innerText()).toContain('404');
    expect(await page.getByTestId('error-page').innerText()).toContain('抱歉！');
    expect(await page.getByTestId('error-message').innerText()).toContain('This page could not be found');
    await page.getByTestId('error-home').click();
    await page.waitForURL(server.base + '/');
    await page.close();
  });

  it('an unsupported lang cookie answers 404', async () => {
    const ctx = await browser.newContext();
    await ctx.addCookies([{ name: 'lang', value: 'fr', url: server.base }]);
    const page = await ctx.newPage();
    expect((await goto(page, server.base + '/'))!.status()).toBe(404);
    await ctx.close();
  });

  it('/assets redirects to /', async () => {
    const page = await browser.newPage();
    await goto(page, server.base + '/assets');
    expect(new URL(page.url()).pathname).toBe('/');
    await page.close();
  });

  it('switches 中文/English, remembers it in the lang cookie and renders it server-side', async () => {
    const ctx = await browser.newContext();
    const page = await ctx.newPage();
    await goto(page, server.base + '/help/part1-1');
    expect(await page.getByTestId('help-title').innerText()).toBe('实名认证');
    await clickAndReload(page, page.getByTestId('lang-switch-en'));
    expect(await page.getByTestId('help-title').innerText()).toBe('Real-name verification');
    const cookies = await ctx.cookies();
    expect(cookies.find((c) => c.name === 'lang')?.value).toBe('en');
    const html = await (await fetch(server.base + '/help/part1-1', { headers: { cookie: 'lang=en' } })).text();
    expect(html).toContain('Real-name verification');
    await ctx.close();
  });

  it('the header fits on one line in both languages from 1024 px up (no wrapped or clipped control)', async () => {
    for (const lang of ['zh', 'en']) {
      for (const width of [1024, 1280]) {
        const ctx = await browser.newContext({ viewport: { width, height: 700 } });
        await ctx.addCookies([{ name: 'lang', value: lang, url: server.base }]);
        const page = await ctx.newPage();
        await goto(page, server.base + '/news');
        await page.getByTestId('header-login').waitFor();
        const bad = await page.getByTestId('site-header').evaluate((header) =>
          [...header.querySelectorAll('a, button, [data-testid="lang-switch"]')]
            .map((e) => ({ text: (e.textContent ?? '').trim(), r: e.getBoundingClientRect() }))
            .filter(({ r }) => r.width > 0 && (r.right > window.innerWidth || r.height > 40))
            .map(({ text }) => text),
        );
        expect(bad, `${lang} at ${width}px`).toEqual([]);
        await ctx.close();
      }
    }
  });

  it('personal-center pages without a token go home', async () => {
    const page = await browser.newPage();
    await goto(page, server.base + '/personal-center/txn-details');
    await page.waitForURL(server.base + '/');
    await page.close();
  });

  it('a stored token that no longer works: the profile fails, the user is cleared and the personal center goes home', async () => {
    const ctx = await userContext(browser, server, { token: 'expired-or-forged-token' });
    const page = await ctx.newPage();
    await goto(page, server.base + '/personal-center/account-settings');
    await page.waitForURL(server.base + '/');
    await page.getByTestId('header-login').waitFor();
    await expect.poll(() => page.evaluate(() => localStorage.getItem('token'))).toBeNull();
    await ctx.close();
  });

  it('a session lost mid-use (1100) shows 未登录或登录失效，请先登录！ and leaves the personal center', async () => {
    const token = await apiRegister(server, newMobile());
    const ctx = await userContext(browser, server, { token });
    const page = await ctx.newPage();
    await goto(page, server.base + '/personal-center/account-settings');
    await page.getByTestId('nickname-input').waitFor();
    await server.api('/api/user/v1/logout', {}, { token }); // the session ends elsewhere
    await page.getByTestId('nickname-input').fill('新昵称');
    await page.getByTestId('nickname-save').click();
    await expect.poll(() => page.getByTestId('toast-text').last().innerText()).toBe('未登录或登录失效，请先登录！');
    await page.waitForURL(server.base + '/');
    await page.getByTestId('header-login').waitFor();
    await ctx.close();
  });

  it('every route of the spec renders inside its layout', async () => {
    const page = await browser.newPage();
    const routes = ['/', '/projects', '/projects/detail/1', '/projects/dropping/1', '/projects/mint/1', '/sales', '/news', '/mint', '/object-buy', '/object-buy/conponents/card', '/pay', '/project-enter', '/creator/1', '/download', '/search-object?str=龙', '/account/login', '/account/register', '/account/forgot-password'];
    for (const p of ['part1-1', 'part1-2', 'part2-1', 'part2-2', 'part3-1', 'part3-2', 'part4-1', 'part4-2', 'part5-1']) routes.push(`/help/${p}`);
    for (const r of routes) {
      const res = await goto(page, server.base + r);
      expect(res!.status(), r).toBeLessThan(400);
      expect(await page.getByTestId('site-header').count(), r).toBe(1);
    }
    await page.close();
  });

  it('renders Chinese with a CJK font (not boxes)', async () => {
    const page = await browser.newPage();
    await goto(page, server.base + '/help/part1-1');
    const width = await page.evaluate(() => {
      const s = document.createElement('span');
      s.style.fontSize = '20px';
      s.textContent = '实名认证';
      document.body.append(s);
      return s.getBoundingClientRect().width;
    });
    expect(width).toBeGreaterThan(60);
    await page.close();
  });
});
