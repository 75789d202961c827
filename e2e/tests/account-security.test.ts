import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { apiRegister, goto, hydrated, launchBrowser, newMobile, nextChallenge, openAs, solveSlider, startServer, type Server } from '../lib.ts';

/**
 * Security of the personal center in the browser (issue #11): change the password in account
 * settings and log in with the new one; sign out another device from the device list and see that
 * device's token answer 1100; change the phone number in three steps with the slider and both codes.
 * Fixtures through the API only.
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

const b64 = (s: string) => Buffer.from(s, 'utf8').toString('base64');
const toastText = (page: Page) => page.getByTestId('toast-text').last();

/** A second session of the user, as another device would have it. */
async function loginApi(mobile: string, password: string): Promise<string> {
  const r = await server.api('/api/user/v1/login', { mobile, pwd: b64(password), loginType: 1 }, { 'user-agent': 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1' });
  if (r.status !== '000000') throw new Error(`login: ${r.status} ${r.message}`);
  return r.data.token;
}

const profileStatus = async (token: string) => (await server.api('/api/user/profile/v1/userprofile', {}, { token })).status as string;

/** Clicks a get-code button, solves the slider that opens and returns the new code from the outbox. */
async function getCode(page: Page, button: string, mobile: string): Promise<string> {
  const before = await server.smsCount(mobile);
  const challenge = nextChallenge(page);
  await page.getByTestId(button).click();
  await solveSlider(page, server, await challenge);
  await expect.poll(() => server.smsCount(mobile)).toBe(before + 1);
  return server.smsCode(mobile);
}

async function openSettings(token: string) {
  const { ctx, page } = await openAs(browser, server, { token, lang: 'en' }, '/personal-center/account-settings');
  await page.getByTestId('security-section').waitFor();
  return { ctx, page };
}

describe('account security in the browser', () => {
  it('changes the password in account settings, signs out the other device, then logs in with the new password', async () => {
    const mobile = newMobile();
    const token = await apiRegister(server, mobile, 'oldpass1');
    const other = await loginApi(mobile, 'oldpass1');
    const { ctx, page } = await openSettings(token);
    await page.getByTestId('security-change-password').click();
    await page.getByTestId('change-password-dialog').waitFor();
    // Client validation first: the new password twice.
    await page.getByTestId('change-password-old').fill('oldpass1');
    await page.getByTestId('change-password-new').fill('newpass2');
    await page.getByTestId('change-password-confirm').fill('newpass3');
    await page.getByTestId('change-password-submit').click();
    await expect.poll(() => toastText(page).innerText()).toBe('the two passwords entered do not match');
    // A wrong old password: the server's answer.
    await page.getByTestId('change-password-old').fill('wrongpass');
    await page.getByTestId('change-password-confirm').fill('newpass2');
    await page.getByTestId('change-password-submit').click();
    await expect.poll(() => toastText(page).innerText()).toBe('the current password is incorrect');
    await page.getByTestId('change-password-old').fill('oldpass1');
    await page.getByTestId('change-password-submit').click();
    await expect.poll(() => toastText(page).innerText()).toBe('password changed');
    await page.getByTestId('change-password-dialog').waitFor({ state: 'detached' });
    await expect.poll(() => page.getByTestId('security-event').first().getAttribute('data-kind')).toBe('password_changed');
    // The other device is signed out; this one is not.
    expect(await profileStatus(other)).toBe('1100');
    expect(await profileStatus(token)).toBe('000000');

    // Log out, then log in through the overlay with the new password.
    await page.getByTestId('header-user-menu').click();
    await page.getByTestId('menu-logout').click();
    await page.getByTestId('header-login').waitFor();
    await page.getByTestId('header-login').click();
    await page.getByTestId('auth-overlay').waitFor();
    await page.getByTestId('login-mobile').fill(mobile);
    await page.getByTestId('login-password').fill('oldpass1');
    await page.getByTestId('login-agree').click();
    await page.getByTestId('login-submit').click();
    await expect.poll(() => toastText(page).innerText()).toBe('phone number or password incorrect');
    await page.getByTestId('login-password').fill('newpass2');
    await Promise.all([page.waitForEvent('load'), page.getByTestId('login-submit').click()]);
    await hydrated(page);
    await page.getByTestId('header-nickname').waitFor();
    await ctx.close();
  });

  it('signs out another device from the device list; its token then answers 1100', async () => {
    const mobile = newMobile();
    const token = await apiRegister(server, mobile, 'abc123!');
    const phone = await loginApi(mobile, 'abc123!');
    const { ctx, page } = await openSettings(token);
    const items = page.getByTestId('session-item');
    await expect.poll(() => items.count()).toBe(2);
    const current = page.locator('[data-testid="session-item"][data-current="1"]');
    expect(await current.count()).toBe(1);
    const otherItem = page.locator('[data-testid="session-item"][data-current="0"]');
    expect(await otherItem.getByTestId('session-device').innerText()).toBe('Safari 17 · iOS');
    expect(await page.getByTestId('sessions-section').innerText()).toMatch(/IP 127\.0\.\*\.\*/);
    await otherItem.getByTestId('session-revoke').click();
    await expect.poll(() => toastText(page).innerText()).toBe('signed out of the selected device(s)');
    await expect.poll(() => items.count()).toBe(1);
    await page.getByTestId('sessions-only-this').waitFor();
    expect(await profileStatus(phone)).toBe('1100');
    expect(await profileStatus(token)).toBe('000000');
    // That device's next call is a lost session.
    const r = await server.api('/api/user/profile/v1/security/sessions', {}, { token: phone });
    expect(r.status).toBe('1100');
    await ctx.close();
  });

  it('changes the phone number in three steps: slider + code to the current phone, slider + code to the new phone', async () => {
    const mobile = newMobile();
    const next = newMobile();
    const token = await apiRegister(server, mobile, 'abc123!');
    const { ctx, page } = await openSettings(token);
    expect(await page.getByTestId('security-mobile').innerText()).toBe(`${mobile.slice(0, 3)}****${mobile.slice(-4)}`);
    await page.getByTestId('security-change-mobile').click();
    await page.getByTestId('change-mobile-dialog').waitFor();
    expect(await page.getByTestId('change-mobile-step').getAttribute('data-step')).toBe('1');
    const oldCode = await getCode(page, 'change-mobile-old-get-code', mobile);
    await expect.poll(() => page.getByTestId('change-mobile-old-get-code').getAttribute('data-countdown')).not.toBe('0');
    await page.getByTestId('change-mobile-old-code').fill(oldCode);
    await page.getByTestId('change-mobile-next').click();
    await expect.poll(() => page.getByTestId('change-mobile-step').getAttribute('data-step')).toBe('2');
    // The same number is refused in the browser before any captcha.
    await page.getByTestId('change-mobile-new-mobile').fill(mobile);
    await page.getByTestId('change-mobile-new-get-code').click();
    await expect.poll(() => toastText(page).innerText()).toBe('the new phone number is the same as the current one');
    await page.getByTestId('change-mobile-new-mobile').fill(next);
    const newCode = await getCode(page, 'change-mobile-new-get-code', next);
    await page.getByTestId('change-mobile-new-code').fill(newCode);
    await page.getByTestId('change-mobile-submit').click();
    await page.getByTestId('change-mobile-done').waitFor();
    await expect.poll(() => page.getByTestId('security-mobile').innerText()).toBe(`${next.slice(0, 3)}****${next.slice(-4)}`);
    await page.getByTestId('change-mobile-finish').click();
    const login = await server.api('/api/user/v1/login', { mobile: next, pwd: b64('abc123!'), loginType: 1 });
    expect(login.status).toBe('000000');
    await goto(page, server.base + '/personal-center/account-settings');
    await page.getByTestId('security-events').waitFor();
    expect(await page.locator('[data-testid="security-event"][data-kind="mobile_changed"]').count()).toBe(1);
    await ctx.close();
  });
});
