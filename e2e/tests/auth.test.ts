import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { apiRegister, goto, hydrated, launchBrowser, newMobile, nextChallenge, reload, solveSlider, startServer, userContext, type Server } from '../lib.ts';

/**
 * The login/register overlay as a newcomer uses it: slider captcha dragged in the browser,
 * SMS codes read from the sandbox outbox, every flow.
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

async function freshPage(opts?: 'zh' | 'en' | { token: string }): Promise<{ ctx: BrowserContext; page: Page }> {
  const ctx = await userContext(browser, server, typeof opts === 'string' ? { lang: opts } : opts);
  const page = await ctx.newPage();
  return { ctx, page };
}

const toastText = (page: Page) => page.getByTestId('toast-text').last();

/** Clicks "get code", solves the slider that opens, and returns the code from the outbox. */
async function getCode(page: Page, button: string, mobile: string): Promise<string> {
  const before = await server.smsCount(mobile);
  const challenge = nextChallenge(page);
  await page.getByTestId(button).click();
  await solveSlider(page, server, await challenge);
  await expect.poll(() => server.smsCount(mobile)).toBe(before + 1);
  return server.smsCode(mobile);
}

async function openOverlay(page: Page) {
  await page.getByTestId('header-login').click();
  await page.getByTestId('auth-overlay').waitFor();
}

async function registerViaOverlay(page: Page, mobile: string, password: string) {
  await openOverlay(page);
  await page.getByTestId('login-to-register').click();
  await page.getByTestId('register-mobile').fill(mobile);
  await page.getByTestId('register-password').fill(password);
  await page.getByTestId('register-confirm').fill(password);
  const code = await getCode(page, 'register-get-code', mobile);
  await page.getByTestId('register-code').fill(code);
  await page.getByTestId('register-agree').click();
  await submitAndReload(page, 'register-submit');
}

/** Submits a login/register form: success reloads the page; the new document is used once hydrated. */
async function submitAndReload(page: Page, submit: string) {
  await Promise.all([page.waitForEvent('load'), page.getByTestId(submit).click()]);
  await hydrated(page);
  await page.getByTestId('header-nickname').waitFor();
}

async function logout(page: Page) {
  await page.getByTestId('header-user-menu').click();
  await page.getByTestId('menu-logout').click();
  await page.getByTestId('header-login').waitFor();
}

describe('account flows in the browser', () => {
  it('registers through the overlay, logs out, logs in by password and by SMS code', async () => {
    const { ctx, page } = await freshPage();
    await goto(page, server.base + '/');
    const mobile = newMobile();
    await registerViaOverlay(page, mobile, 'abc123!');
    expect(await page.getByTestId('header-nickname').innerText()).toBe(`藏友${mobile.slice(-4)}`.slice(0, 4));
    expect(await page.evaluate(() => localStorage.getItem('token'))).toBeTruthy();

    await logout(page);
    expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull();

    await openOverlay(page);
    await page.getByTestId('login-mobile').fill(mobile);
    await page.getByTestId('login-password').fill('abc123!');
    await page.getByTestId('login-agree').click();
    await submitAndReload(page, 'login-submit');
    await logout(page);

    await openOverlay(page);
    await page.getByTestId('login-tab-sms').click();
    await page.getByTestId('sms-login-mobile').fill(mobile);
    const code = await getCode(page, 'sms-login-get-code', mobile);
    // the per-view 60 s countdown runs after a successful send
    await expect.poll(() => page.getByTestId('sms-login-get-code').innerText()).toMatch(/\d+/);
    await page.getByTestId('sms-login-code').fill(code);
    await page.getByTestId('sms-login-agree').click();
    await submitAndReload(page, 'sms-login-submit');
    await ctx.close();
  });

  it('resets a forgotten password in three steps', async () => {
    const { ctx, page } = await freshPage('en');
    const mobile = newMobile();
    await apiRegister(server, mobile, 'oldpass1'); // registering through the overlay is the first test's subject
    await goto(page, server.base + '/');
    await openOverlay(page);
    await page.getByTestId('login-forgot').click();
    await page.getByTestId('forgot-mobile').fill(mobile);
    const code = await getCode(page, 'forgot-get-code', mobile);
    await page.getByTestId('forgot-code').fill(code);
    await page.getByTestId('forgot-next').click();
    await expect.poll(() => toastText(page).innerText()).toBe('verification passed');
    await page.getByTestId('forgot-password').fill('newpass2');
    await page.getByTestId('forgot-confirm').fill('newpass2');
    await page.getByTestId('forgot-submit').click();
    await expect.poll(() => toastText(page).innerText()).toBe('changed successfully, please log in');
    await page.getByTestId('forgot-done').waitFor();
    await page.getByTestId('forgot-go-login').click();
    await page.getByTestId('login-mobile').fill(mobile);
    await page.getByTestId('login-password').fill('newpass2');
    await page.getByTestId('login-agree').click();
    await submitAndReload(page, 'login-submit');
    await ctx.close();
  });

  for (const lang of ['zh', 'en'] as const) {
    it(`shows every validation message (${lang})`, async () => {
      const M = lang === 'en'
        ? { correctPhone: 'please enter a correct phone number', userPwd: 'please enter user password', tick: 'please tick the user agreement', phoneWrong: 'phone number entered incorrectly', code: 'please enter the verification code', notTicked: 'user agreement not ticked', pwd: 'please enter a password', confirm: 'confirm password entered incorrectly!', codeWrong: 'verification code entered incorrectly!', phoneWrongDot: 'phone number entered incorrectly.', mismatch: 'the two passwords entered do not match' }
        : { correctPhone: '请输入正确的手机号', userPwd: '请输入用户密码', tick: '请勾选用户协议', phoneWrong: '手机号输入有误', code: '请输入验证码', notTicked: '未勾选用户协议', pwd: '请输入密码', confirm: '确认密码输入有误！', codeWrong: '验证码输入有误！', phoneWrongDot: '手机号输入有误。', mismatch: '两次输入的密码不一致' };
      const { ctx, page } = await freshPage(lang);
      await goto(page, server.base + '/');
      await openOverlay(page);
      const expectToast = async (text: string) => expect.poll(() => toastText(page).innerText()).toBe(text);

      // password login
      await page.getByTestId('login-mobile').fill('1380013');
      await page.getByTestId('login-submit').click();
      await expectToast(M.correctPhone);
      await page.getByTestId('login-mobile').fill('13800138000');
      await page.getByTestId('login-submit').click();
      await expectToast(M.userPwd);
      await page.getByTestId('login-password').fill('abc123');
      await page.getByTestId('login-submit').click();
      await expectToast(M.tick);
      // inputs are truncated to their maximum lengths
      await page.getByTestId('login-mobile').fill('138001380001234');
      expect(await page.getByTestId('login-mobile').inputValue()).toHaveLength(11);
      await page.getByTestId('login-password').fill('x'.repeat(30));
      expect(await page.getByTestId('login-password').inputValue()).toHaveLength(20);

      // SMS login
      await page.getByTestId('login-tab-sms').click();
      await page.getByTestId('sms-login-mobile').fill('138');
      await page.getByTestId('sms-login-get-code').click();
      await expectToast(M.phoneWrongDot);
      await page.getByTestId('sms-login-submit').click();
      await expectToast(M.phoneWrong);
      await page.getByTestId('sms-login-mobile').fill('13800138000');
      await page.getByTestId('sms-login-submit').click();
      await expectToast(M.code);
      await page.getByTestId('sms-login-code').fill('1234567');
      expect(await page.getByTestId('sms-login-code').inputValue()).toHaveLength(6);
      await page.getByTestId('sms-login-submit').click();
      await expectToast(M.notTicked);

      // register
      await page.getByTestId('login-tab-password').click();
      await page.getByTestId('login-to-register').click();
      await page.getByTestId('register-mobile').fill('139');
      await page.getByTestId('register-submit').click();
      await expectToast(M.correctPhone);
      await page.getByTestId('register-mobile').fill('13900139000');
      await page.getByTestId('register-submit').click();
      await expectToast(M.pwd);
      await page.getByTestId('register-password').fill('abc123');
      await page.getByTestId('register-confirm').fill('abc124');
      await page.getByTestId('register-submit').click();
      await expectToast(M.confirm);
      await page.getByTestId('register-confirm').fill('abc123');
      await page.getByTestId('register-code').fill('123');
      await page.getByTestId('register-submit').click();
      await expectToast(M.codeWrong);
      await page.getByTestId('register-code').fill('123456');
      await page.getByTestId('register-submit').click();
      await expectToast(M.tick);
      await page.getByTestId('register-invite').fill('ABCDEFGH');
      expect(await page.getByTestId('register-invite').inputValue()).toHaveLength(6);

      // forgot password
      await page.getByTestId('register-to-login').click();
      await page.getByTestId('login-forgot').click();
      await page.getByTestId('forgot-mobile').fill('1390013');
      await page.getByTestId('forgot-next').click();
      await expectToast(M.phoneWrongDot);
      await ctx.close();
    });
  }

  it('closing the overlay resets it to the login view', async () => {
    const { ctx, page } = await freshPage();
    await goto(page, server.base + '/');
    await openOverlay(page);
    await page.getByTestId('login-to-register').click();
    await page.getByTestId('register-form').waitFor();
    await page.getByTestId('auth-close').click();
    await openOverlay(page);
    await page.getByTestId('login-password-form').waitFor();
    expect(await page.getByTestId('register-form').count()).toBe(0);
    await ctx.close();
  });

  it('opens on the register view with the invite code when the URL carries one', async () => {
    const { ctx, page } = await freshPage();
    await goto(page, server.base + '/?inviteCode=AB12CD');
    await page.getByTestId('register-form').waitFor();
    expect(await page.getByTestId('register-invite').inputValue()).toBe('AB12CD');
    const p2 = await ctx.newPage();
    await goto(p2, server.base + '/?registChannel=poster');
    await p2.getByTestId('register-form').waitFor();
    await ctx.close();
  });

  it('changes avatar and nickname in account settings', async () => {
    const { ctx, page } = await freshPage({ token: await apiRegister(server, newMobile()) });
    await goto(page, server.base + '/personal-center/account-settings');
    await page.getByTestId('account-settings').waitFor();
    await page.getByTestId('header-nickname').waitFor(); // the profile (and its avatar) is loaded
    const before = await page.getByTestId('header-avatar').first().getAttribute('src');
    const option = page.getByTestId('avatar-option').nth(5);
    const chosen = await option.locator('img').getAttribute('src');
    expect(chosen).not.toBe(before);
    await option.click();
    await page.getByTestId('avatar-save').click();
    await expect.poll(() => page.getByTestId('header-avatar').first().getAttribute('src')).toBe(chosen);
    await page.getByTestId('nickname-input').fill('链上收藏家');
    await page.getByTestId('nickname-save').click();
    await expect.poll(() => page.getByTestId('header-nickname').innerText()).toBe('链上收藏');
    await reload(page);
    await expect.poll(() => page.getByTestId('header-nickname').innerText()).toBe('链上收藏');
    await ctx.close();
  });
});
