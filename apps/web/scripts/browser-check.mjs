/**
 * A quick end-to-end walk through the web app in Debian chromium (playwright-core), against a
 * running apps/server that serves this build with the sandbox SMS and slider-captcha providers.
 *
 *   BASE_URL=http://127.0.0.1:3901 DATA_DIR=/tmp/webtest/data node scripts/browser-check.mjs
 *
 * DATA_DIR is the server's data directory: the slider answer is read from its SQLite database
 * (the only way a script can "see" the hole), the SMS code from the sandbox outbox endpoint.
 * This is a developer check, not the e2e suite (that lives in /e2e).
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { chromium } from 'playwright-core';

const require = createRequire(import.meta.url);
const BASE = process.env.BASE_URL ?? 'http://127.0.0.1:3901';
const DATA_DIR = process.env.DATA_DIR ?? '/tmp/webtest/data';
const Database = require('better-sqlite3');
const db = new Database(path.join(DATA_DIR, 'marketplace.sqlite'), { readonly: true, fileMustExist: true });

const userDir = fs.mkdtempSync(path.join(os.tmpdir(), 'web-check-'));
const context = await chromium.launchPersistentContext(userDir, {
  executablePath: '/usr/bin/chromium',
  headless: true,
  args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  viewport: { width: 1280, height: 860 },
});
const page = context.pages()[0] ?? (await context.newPage());
const errors = [];
page.on('pageerror', (e) => errors.push(e.message));
page.on('console', (m) => m.type() === 'error' && !/Failed to load resource/.test(m.text()) && errors.push(m.text()));

// Record every toast text (they last 1 s) so a failure can say what was shown.
await context.addInitScript(() => {
  window.__toasts = [];
  new MutationObserver(() => {
    for (const el of document.querySelectorAll('[data-testid="toast"]')) {
      if (!el.dataset.seen) {
        el.dataset.seen = '1';
        window.__toasts.push(`${el.dataset.kind}: ${el.textContent}`);
      }
    }
  }).observe(document, { childList: true, subtree: true });
});
const tid = (id) => page.getByTestId(id);
const mobile = `139${String(Date.now()).slice(-8)}`;
const password = 'abc123!x';
let step = 0;
const log = (msg) => console.log(`${String(++step).padStart(2)}. ${msg}`);

/** A toast with this text was shown on the current page (toasts last only 1 s, so check the record). */
async function expectToast(text) {
  await page.waitForFunction((t) => (window.__toasts ?? []).some((x) => x.includes(t)), text, { timeout: 5000 });
}

/** Clicks the get-code button, then drags the slider to the answer read from the server's DB. */
async function solveCaptcha(getCodeTestId) {
  const [res] = await Promise.all([page.waitForResponse((r) => r.url().includes('/captcha/v1/get')), tid(getCodeTestId).click()]);
  const { data } = await res.json();
  await tid('captcha-piece').waitFor();
  const { answer_x: answerX } = db.prepare('select answer_x from captcha_challenges where id = ?').get(data.id);
  const handle = await tid('captcha-handle').boundingBox();
  const x0 = handle.x + handle.width / 2;
  const y0 = handle.y + handle.height / 2;
  await page.mouse.move(x0, y0);
  await page.mouse.down();
  for (let i = 1; i <= 20; i++) {
    await page.mouse.move(x0 + (answerX * i) / 20, y0 + (i % 3) - 1);
    await page.waitForTimeout(20);
  }
  await page.mouse.up();
}

async function smsCode(type) {
  const r = await fetch(`${BASE}/mvapi/public/dev/sms-outbox?mobile=${mobile}`);
  const { data } = await r.json();
  return data.find((m) => m.type === type).code;
}

try {
  log('home renders with theme type 1 (transparent header)');
  await page.goto(BASE + '/');
  assert.equal(await tid('site-header').getAttribute('data-transparent'), 'true');
  await tid('header-login').waitFor();
  assert.match(await page.title(), /CFX Art/);

  log('link-wallet while logged out → "please log in first"');
  await tid('header-link-wallet').click();
  await expectToast('请先登录，再连接钱包');

  log('overlay: password-login validation messages');
  await tid('header-login').click();
  await tid('auth-overlay').waitFor();
  await tid('login-submit').click();
  await expectToast('请输入正确的手机号');
  await tid('login-mobile').fill('1380000000012345');
  assert.equal(await tid('login-mobile').inputValue(), '13800000000');
  await tid('login-submit').click();
  await expectToast('请输入用户密码');
  await tid('login-password').fill('x');
  await tid('login-submit').click();
  await expectToast('请勾选用户协议');

  log('SMS tab validation');
  await tid('login-tab-sms').click();
  await tid('sms-login-submit').click();
  await expectToast('手机号输入有误');
  await tid('sms-login-get-code').click();
  await expectToast('手机号输入有误。');

  log('agreement dialog opens');
  await tid('login-tab-password').click();
  await tid('open-user-agreement').first().click();
  await tid('agreement-dialog').waitFor();
  assert.match(await tid('agreement-dialog').innerText(), /18 周岁/);
  await tid('agreement-close').click();

  log('register: validation, captcha, SMS code, countdown');
  await tid('login-to-register').click();
  await tid('register-mobile').fill(mobile);
  await tid('register-password').fill(password);
  await tid('register-confirm').fill(password + 'x');
  await tid('register-submit').click();
  await expectToast('确认密码输入有误！');
  await tid('register-confirm').fill(password);
  await tid('register-code').fill('12');
  await tid('register-submit').click();
  await expectToast('验证码输入有误！');
  await solveCaptcha('register-get-code');
  await expectToast('发送成功');
  await page.waitForFunction(() => Number(document.querySelector('[data-testid="register-get-code"]')?.getAttribute('data-countdown')) > 50);
  await tid('register-code').fill(await smsCode('1'));
  await tid('register-submit').click();
  await expectToast('请勾选用户协议');
  assert.equal(await tid('register-mobile').inputValue(), mobile, 'values kept after a validation error');
  await tid('register-agree').check();
  await Promise.all([page.waitForEvent('load'), tid('register-submit').click()]);
  await tid('header-user-menu').waitFor({ timeout: 10000 });
  await expectToast('注册成功');
  assert.ok(await page.evaluate(() => localStorage.getItem('token')));

  log('personal center: nav index, account settings (avatar + nickname)');
  await tid('header-user-menu').click();
  await tid('menu-personal-center').click();
  await tid('personal-center').waitFor();
  await page.goto(BASE + '/personal-center/account-settings');
  await tid('account-settings').waitFor();
  assert.equal(await tid('personal-center').getAttribute('data-nav-index'), '3');
  await tid('security-mobile').waitFor();
  const options = tid('avatar-option');
  await options.nth(1).waitFor();
  await options.nth(1).click();
  await tid('avatar-save').click();
  await expectToast('');
  await tid('nickname-input').fill('藏家小明同学');
  await tid('nickname-save').click();
  await page.waitForFunction(() => document.querySelector('[data-testid="header-nickname"]')?.textContent === '藏家小明');

  log('invite page shows code and link');
  await tid('pc-nav-7').click();
  await tid('invite-code').waitFor();
  const code = (await tid('invite-code').innerText()).trim();
  assert.equal(await tid('invite-link').inputValue(), `${BASE}/?inviteCode=${code}`);
  assert.equal(await tid('personal-center').getAttribute('data-nav-index'), '7');

  log('logout leaves the personal center');
  await tid('header-user-menu').click();
  await tid('menu-logout').click();
  await page.waitForURL(BASE + '/');
  await tid('header-login').waitFor();

  log('/personal-center without a token redirects to /');
  await page.goto(BASE + '/personal-center/invite');
  await page.waitForURL(BASE + '/');

  log('forgot password: 3 steps');
  await tid('header-login').click();
  await tid('login-forgot').click();
  await tid('forgot-mobile').fill(mobile.slice(0, 10));
  await tid('forgot-next').click();
  await expectToast('手机号输入有误。');
  await tid('forgot-mobile').fill(mobile);
  await solveCaptcha('forgot-get-code');
  await expectToast('发送成功');
  await tid('forgot-code').fill(await smsCode('3'));
  await tid('forgot-next').click();
  await tid('forgot-password').waitFor();
  await tid('forgot-password').fill('newpass1');
  await tid('forgot-confirm').fill('newpass2');
  await tid('forgot-submit').click();
  await expectToast('两次输入的密码不一致');
  await tid('forgot-confirm').fill('newpass1');
  await tid('forgot-submit').click();
  await tid('forgot-done').waitFor();
  await tid('forgot-go-login').click();

  log('password login with the new password and "save account info"');
  await tid('login-mobile').fill(mobile);
  await tid('login-password').fill('newpass1');
  await tid('login-save-account').check();
  await tid('login-agree').check();
  await Promise.all([page.waitForEvent('load'), tid('login-submit').click()]);
  await tid('header-user-menu').waitFor({ timeout: 10000 });
  await expectToast('登录成功');
  assert.equal(await page.evaluate(() => localStorage.getItem('savedMobile')), mobile);

  log('session lost (1100): user cleared, red message, leaves /personal-center');
  await page.goto(BASE + '/personal-center/account-settings');
  await tid('account-settings').waitFor();
  await page.evaluate(() => localStorage.setItem('token', 'bogus'));
  await page.reload();
  await expectToast('未登录或登录失效，请先登录！');
  await page.waitForURL(BASE + '/');
  await tid('header-login').waitFor();

  log('unknown route: 404 page inside the layout');
  const res = await page.goto(BASE + '/definitely/not/here');
  assert.equal(res.status(), 404);
  await tid('error-page').waitFor();
  assert.match(await tid('error-page').innerText(), /抱歉！[\s\S]*This page could not be found[\s\S]*返回首页/);

  log('client-side navigation to an unknown route also shows 404');
  await page.goto(BASE + '/help/part1-1');
  await page.waitForFunction(() => window.__reactRouterDataRouter !== undefined);
  await page.evaluate(() => window.__reactRouterDataRouter.navigate('/no/such/page'));
  await tid('error-page').waitFor();
  await tid('site-header').waitFor();
  assert.match(await tid('error-page').innerText(), /404/);

  log('scroll to top on every route change');
  await page.goto(BASE + '/help/part1-1');
  await page.evaluate(() => window.scrollTo(0, 600));
  await tid('footer-help-part5-1').click();
  await page.waitForURL(BASE + '/help/part5-1');
  await page.waitForFunction(() => window.scrollY === 0, null, { timeout: 3000 });

  log('invite link auto-opens the register view with the code');
  await page.goto(BASE + '/?inviteCode=' + code);
  await tid('auth-overlay').waitFor();
  assert.equal(await tid('auth-overlay').getAttribute('data-view'), 'register');
  assert.equal(await tid('register-invite').inputValue(), code);
  await tid('auth-close').click();
  assert.equal(await tid('auth-overlay').count(), 0, 'overlay closed');

  log('language switch to English');
  await page.goto(BASE + '/');
  await Promise.all([page.waitForEvent('load'), tid('lang-switch-en').click()]);
  await page.getByText('Log in / Sign up').waitFor();
  await tid('header-login').click();
  assert.equal(await tid('login-mobile').inputValue(), mobile, 'saved account prefilled');
  await tid('login-mobile').fill('');
  await tid('login-submit').click();
  await expectToast('please enter a correct phone number');
  await tid('auth-close').click();
  await Promise.all([page.waitForEvent('load'), tid('lang-switch-zh').click()]);
  await page.getByText('登录/注册').waitFor();

  log('header search goes to /search-object?str=');
  await tid('header-search-input').fill('一二三四五六七八九十一二三四五六七八九十多余');
  assert.equal((await tid('header-search-input').inputValue()).length, 20);
  await tid('header-search-input').press('Enter');
  await page.waitForURL(/\/search-object\?str=/);

  assert.deepEqual(errors, [], 'no page errors');
  console.log('\nbrowser check passed');
} catch (err) {
  console.error(`\nFAILED at step ${step}:`, err.message);
  await page.screenshot({ path: '/tmp/web-check-failure.png', fullPage: true }).catch(() => {});
  console.error('screenshot: /tmp/web-check-failure.png; page errors:', errors);
  console.error('toasts on this page:', await page.evaluate(() => window.__toasts).catch(() => '?'));
  process.exitCode = 1;
} finally {
  await context.close();
  fs.rmSync(userDir, { recursive: true, force: true });
}
