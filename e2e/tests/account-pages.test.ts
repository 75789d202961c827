import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { apiRegister, goto, hydrated, launchBrowser, landOn, newMobile, nextChallenge, solveSlider, startServer, userContext, type Server } from '../lib.ts';

/**
 * The full-page account pages (/account/login, /account/register, /account/forgot-password): the
 * overlay's forms on a page of their own that send the user back to where they came from
 * (?redirect=, same-origin paths only); any other /account path is a real 404.
 */
let server: Server;
let browser: Browser;
beforeAll(async () => {
  [server, browser] = await Promise.all([startServer({ CHAIN: 'off', SMS_RESEND_SECONDS: '1' }), launchBrowser()]);
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

async function freshPage(token?: string): Promise<{ ctx: BrowserContext; page: Page }> {
  const ctx = await userContext(browser, server, token ? { token } : {});
  return { ctx, page: await ctx.newPage() };
}

describe('/account pages', () => {
  it('logs in with the password on the full page and lands back on the page it came from, signed in', async () => {
    const mobile = newMobile();
    await apiRegister(server, mobile, 'abc123!');
    const { ctx, page } = await freshPage();
    const res = await goto(page, `${server.base}/account/login?redirect=${encodeURIComponent('/news?from=account')}`);
    expect(res!.status()).toBe(200);
    expect(await page.title()).toContain('登录');
    await page.getByTestId('account-page').waitFor();
    expect(await page.getByTestId('auth-overlay').count()).toBe(0);
    await page.getByTestId('login-mobile').fill(mobile);
    await page.getByTestId('login-password').fill('abc123!');
    await page.getByTestId('login-agree').click();
    await page.getByTestId('login-submit').click();
    await landOn(page, `${server.base}/news?from=account`);
    await page.getByTestId('header-nickname').waitFor();
    expect(await page.evaluate(() => localStorage.getItem('token'))).toBeTruthy();
    await ctx.close();
  });

  it('logs in with an SMS code behind the slider and returns; links between the pages keep the target', async () => {
    const mobile = newMobile();
    await apiRegister(server, mobile, 'abc123!');
    const { ctx, page } = await freshPage();
    await goto(page, `${server.base}/account/login?from=${encodeURIComponent('/sales')}`);
    // To the forgot-password page and back: the return target travels along.
    await page.getByTestId('login-forgot').click();
    await page.waitForURL(`${server.base}/account/forgot-password?redirect=%2Fsales`);
    await page.getByTestId('forgot-view').waitFor();
    await page.getByTestId('forgot-to-login').click();
    await page.waitForURL(`${server.base}/account/login?redirect=%2Fsales`);
    await page.getByTestId('login-tab-sms').click();
    await page.getByTestId('sms-login-mobile').fill(mobile);
    const before = await server.smsCount(mobile);
    const challenge = nextChallenge(page);
    await page.getByTestId('sms-login-get-code').click();
    await solveSlider(page, server, await challenge);
    await expect.poll(() => server.smsCount(mobile)).toBe(before + 1);
    await page.getByTestId('sms-login-code').fill(await server.smsCode(mobile));
    await page.getByTestId('sms-login-agree').click();
    await page.getByTestId('sms-login-submit').click();
    await landOn(page, `${server.base}/sales`);
    await page.getByTestId('header-nickname').waitFor();
    // Signed in already: the login page sends the user straight back.
    await goto(page, `${server.base}/account/login?redirect=%2Fnews`);
    await page.waitForURL(`${server.base}/news`);
    await ctx.close();
  });

  it('pre-fills the invite code on the register page; refuses a foreign return target', async () => {
    const { ctx, page } = await freshPage();
    await goto(page, `${server.base}/account/register?inviteCode=AB12CD&redirect=${encodeURIComponent('/projects')}`);
    expect(await page.getByTestId('register-invite').inputValue()).toBe('AB12CD');
    expect(await page.getByTestId('account-page').getAttribute('data-redirect')).toBe('/projects');
    await page.getByTestId('register-to-login').click();
    await page.waitForURL(`${server.base}/account/login?redirect=%2Fprojects`);
    for (const evil of ['https://evil.example/x', '//evil.example/x', '/\\evil.example']) {
      await goto(page, `${server.base}/account/login?redirect=${encodeURIComponent(evil)}`);
      expect(await page.getByTestId('account-page').getAttribute('data-redirect'), evil).toBe('/');
      expect(await page.getByTestId('account-back').getAttribute('href'), evil).toBe('/');
    }
    await ctx.close();
  });

  it('any other /account path is a real 404', async () => {
    const { ctx, page } = await freshPage();
    for (const p of ['/account/nope', '/account', '/account/login/extra']) {
      const res = await page.goto(server.base + p, { waitUntil: 'domcontentloaded' });
      expect(res!.status(), p).toBe(404);
      await hydrated(page);
      expect(await page.getByTestId('site-header').count(), p).toBe(1);
    }
    const raw = await fetch(`${server.base}/account/nope`);
    expect(raw.status).toBe(404);
    await raw.text();
    await ctx.close();
  });
});
