import { execFile } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { encodePng } from '../../apps/server/src/modules/captcha/png.ts';
import { base32Decode, totp } from '../../apps/server/src/modules/admin/totp.ts';
import { apiRegister, goto, launchBrowser, newMobile, openAs, startServer, type Server } from '../lib.ts';

/**
 * The operations console in the browser against the real server: the first owner is made by the
 * create-staff CLI (a real child process on the server's database, one-time password), signs in
 * with TOTP enrolment (the codes computed here with the same RFC 6238 function) and a new
 * password, creates a reviewer; the reviewer signs in the same way and approves a project
 * application a user submitted through the API, which the user's /project-enter then shows as
 * approved; the owner freezes the user — their session answers 1100 and their login is refused —
 * and the audit page lists those actions.
 */
let server: Server;
let browser: Browser;
const root = path.resolve(import.meta.dirname, '../..');
const run = promisify(execFile);

beforeAll(async () => {
  [server, browser] = await Promise.all([startServer({ CHAIN: 'off', DEMO_DATA: '0' }), launchBrowser()]);
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

/** The bootstrap CLI, as an operator runs it against the server's DATA_DIR. */
async function createStaffCli(username: string, role: string): Promise<string> {
  const { stdout } = await run(process.execPath, ['--import', 'tsx', path.join(root, 'apps/server/src/tools/create-staff.ts'), '--username', username, '--role', role], {
    cwd: root,
    env: { ...process.env, DATA_DIR: server.dataDir, DEV_MODE: '1', NODE_ENV: 'production', CHAIN: 'off', DEMO_DATA: '0', LOG_LEVEL: 'warn' },
  });
  const m = /one-time password: (\S+)/.exec(stdout);
  if (!m) throw new Error(`no one-time password in: ${stdout}`);
  return m[1]!;
}

const code = (secret: string) => totp(base32Decode(secret), Date.now());
const NEW_PASSWORD = { owner: 'Owner-pass-2025', reviewer: 'Reviewer-pass-2025' };

/** Signs in for the first time: password → enrolment (QR + key) → code → new password → the console. */
async function firstSignIn(page: Page, username: string, oneTime: string, newPassword: string) {
  await goto(page, `${server.base}/admin`);
  await page.waitForURL(/\/admin\/login\?next=%2Fadmin/);
  await page.getByTestId('admin-login-username').fill(username);
  await page.getByTestId('admin-login-password').fill(oneTime);
  await page.getByTestId('admin-login-submit').click();
  await page.getByTestId('admin-enrol').waitFor();
  const secret = (await page.getByTestId('admin-enrol-secret').innerText()).trim();
  expect(secret).toMatch(/^[A-Z2-7]{32}$/);
  expect(await page.getByTestId('qr-code').getAttribute('data-value')).toBe(`otpauth://totp/CFX%20Art%20Admin:${username}?issuer=CFX%20Art%20Admin&secret=${secret}&algorithm=SHA1&digits=6&period=30`);
  // A wrong code is refused in place.
  await page.getByTestId('admin-totp-code').fill(code(secret) === '000000' ? '111111' : '000000');
  await page.getByTestId('admin-totp-submit').click();
  expect(await page.getByTestId('admin-login-error').innerText()).toBe('动态验证码错误或已过期');
  await page.getByTestId('admin-totp-code').fill(code(secret));
  await page.getByTestId('admin-totp-submit').click();
  await page.getByTestId('admin-new-password').waitFor();
  await page.getByTestId('admin-newpw').fill(newPassword);
  await page.getByTestId('admin-newpw2').fill(newPassword);
  await page.getByTestId('admin-newpw-submit').click();
  await page.getByTestId('admin-dashboard').waitFor();
  expect(await page.getByTestId('admin-me').innerText()).toBe(username);
  return secret;
}

/** A project application submitted through the API with a real PNG and PDF. */
async function submitApplication(token: string): Promise<number> {
  const up = async (p: string, name: string, type: string, bytes: Buffer) => {
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(bytes)], { type }), name);
    const r = await (await fetch(`${server.base}/mvapi/public${p}`, { method: 'POST', headers: { token, channel: 'pc' }, body: form })).json();
    expect(r.status, r.message).toBe('000000');
    return r.data.key as string;
  };
  const art = await up('/official/settled/oss/upload', 'art.png', 'image/png', encodePng(64, 48, crypto.randomBytes(64 * 48 * 4)));
  const doc = await up('/official/settled/oss/uploadfile', '授权书.pdf', 'application/pdf', fs.readFileSync(path.join(root, 'apps/server/test/fixtures/uploads/licence.pdf')));
  const r = await server.api('/official/settled', {
    projectName: '云海·数字典藏', creatorName: '青山工作室', category: 'art',
    description: '以云海为题材的数字艺术作品系列，共 8 款，由青山工作室原创绘制。',
    supply: 500, priceFen: 6600, contactName: '王小明', mobile: '13800138000', email: 'wang@example.com', agree: true,
    artworkKeys: [art], qualificationKeys: [doc],
  }, { token });
  expect(r.status, r.message).toBe('000000');
  return r.data.id as number;
}

describe('operations console', () => {
  it('owner enrols TOTP, creates a reviewer who approves an application; a frozen user is shut out; the audit page shows it all', async () => {
    // The console pages are not for search engines.
    const login = await fetch(`${server.base}/admin/login`);
    expect(login.headers.get('x-robots-tag')).toBe('noindex, nofollow');
    expect(await login.text()).toContain('noindex');

    const ownerPassword = await createStaffCli('boss', 'owner');
    const ownerCtx = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const owner = await ownerCtx.newPage();
    await firstSignIn(owner, 'boss', ownerPassword, NEW_PASSWORD.owner);
    // The owner sees every section, including the extension slots.
    for (const id of ['users', 'applications', 'kyc', 'tickets', 'orders', 'withdrawals', 'releases', 'news', 'banners', 'staff', 'audit']) {
      await owner.getByTestId(`admin-nav-${id}`).waitFor();
    }
    // The staff token lives in this tab's sessionStorage, never in localStorage.
    expect(await owner.evaluate(() => Object.keys(localStorage).filter((k) => k.toLowerCase().includes('staff')))).toEqual([]);
    expect(await owner.evaluate(() => sessionStorage.getItem('cfx.staffToken'))).toBeTruthy();

    // The owner creates a reviewer; the one-time password is shown once.
    await owner.getByTestId('admin-nav-staff').click();
    await owner.getByTestId('admin-staff-create').waitFor();
    await owner.getByTestId('admin-staff-username').fill('reviewer1');
    await owner.getByTestId('admin-staff-new-roles-reviewer').check();
    await owner.getByTestId('admin-staff-create-submit').click();
    const oneTime = (await owner.getByTestId('admin-onetime-password').innerText()).trim();
    expect(oneTime).toMatch(/^[a-z2-9]{4}(-[a-z2-9]{4}){3}$/);
    await owner.getByTestId('admin-onetime-dialog-close').click();
    await expect.poll(() => owner.locator('[data-testid="admin-staff-row"][data-username="reviewer1"]').count()).toBe(1);

    // A user applies through the API.
    const mobile = newMobile();
    const token = await apiRegister(server, mobile);
    const appId = await submitApplication(token);

    // The reviewer signs in for the first time and sees only their sections.
    const revCtx = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const reviewer = await revCtx.newPage();
    await firstSignIn(reviewer, 'reviewer1', oneTime, NEW_PASSWORD.reviewer);
    await reviewer.getByTestId('admin-nav-applications').waitFor();
    expect(await reviewer.getByTestId('admin-nav-staff').count()).toBe(0);
    expect(await reviewer.getByTestId('admin-nav-orders').count()).toBe(0);
    await reviewer.getByTestId('admin-nav-applications').click();
    const row = reviewer.locator(`[data-testid="admin-application-row"][data-id="${appId}"]`);
    await row.waitFor();
    await row.getByTestId('admin-application-open').click();
    await reviewer.getByTestId('admin-application-detail').waitFor();
    expect(await reviewer.getByTestId('admin-application-status').innerText()).toBe('已提交');
    await reviewer.getByTestId('admin-application-approve').click();
    await reviewer.getByTestId('admin-approve-dialog-confirm').click();
    await expect.poll(() => reviewer.getByTestId('admin-application-status').innerText()).toBe('已通过');
    await revCtx.close();

    // The approval made the applicant a creator: their application shows approved, and /project-enter
    // now leads to their creator page (built from the application).
    const mine = await (await fetch(`${server.base}/mvapi/public/official/settled/mine`, { headers: { token, channel: 'pc' } })).json();
    expect(mine.data.list[0]).toMatchObject({ id: appId, status: 'approved' });
    const user = await openAs(browser, server, { token }, '/project-enter');
    await user.page.waitForURL(/\/creator\/\d+/);
    await expect.poll(() => user.page.getByTestId('creator-name').innerText()).toBe('青山工作室');

    // The owner freezes the user.
    await owner.getByTestId('admin-nav-users').click();
    await owner.getByTestId('admin-users-q').fill(mobile);
    await owner.getByTestId('admin-users-search').click();
    const userRow = owner.getByTestId('admin-user-row');
    await expect.poll(() => userRow.count()).toBe(1);
    expect(await userRow.innerText()).toContain(`${mobile.slice(0, 3)}****${mobile.slice(-4)}`);
    await userRow.getByTestId('admin-user-open').click();
    await owner.getByTestId('admin-user-freeze').click();
    await owner.getByTestId('admin-freeze-dialog-confirm').click();
    expect(await owner.getByTestId('admin-freeze-dialog-error').innerText()).toBe('请填写原因（2-200个字）');
    await owner.getByTestId('admin-freeze-dialog-reason').fill('疑似盗号，暂时冻结');
    await owner.getByTestId('admin-freeze-dialog-confirm').click();
    await expect.poll(() => owner.getByTestId('admin-user-state').innerText()).toBe('已冻结');
    expect(await owner.getByTestId('admin-user-sessions').innerText()).toBe('0');
    expect(await owner.getByTestId('admin-user-freezes').innerText()).toContain('疑似盗号，暂时冻结');

    // The user's session is gone, and login is refused with a clear message.
    const profile = await server.api('/api/user/profile/v1/userprofile', {}, { token });
    expect(profile.status).toBe('1100');
    const relogin = await server.api('/api/user/v1/login', { mobile, pwd: Buffer.from('abc123!').toString('base64'), loginType: 1 });
    expect(relogin).toMatchObject({ status: '1034', message: '您的账户已被冻结，如有疑问请联系客服' });
    // In the browser the user's page falls back to the logged-out state.
    await goto(user.page, `${server.base}/project-enter`);
    await user.page.getByTestId('settled-login').waitFor();
    await user.ctx.close();

    // The audit page lists the actions, with who did them.
    await owner.getByTestId('admin-nav-audit').click();
    await owner.getByTestId('admin-audit-table').waitFor();
    const actions = await owner.getByTestId('admin-audit-row').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-action')));
    for (const a of ['staff.create', 'application.review', 'user.freeze', 'auth.totp_enrol', 'auth.password_change']) expect(actions).toContain(a);
    await owner.getByTestId('admin-audit-action').fill('user.');
    await owner.getByTestId('admin-audit-search').click();
    await expect.poll(() => owner.getByTestId('admin-audit-row').count()).toBe(1);
    expect(await owner.getByTestId('admin-audit-row').innerText()).toContain('boss');
    expect(await owner.getByTestId('admin-audit-row').innerText()).not.toContain(mobile);

    // Signing out ends the staff session: the console asks to sign in again.
    await owner.getByTestId('admin-logout').click();
    await owner.waitForURL(/\/admin\/login/);
    await goto(owner, `${server.base}/admin/users`);
    await owner.waitForURL(/\/admin\/login\?next=%2Fadmin%2Fusers/);
    await ownerCtx.close();
  });
});
