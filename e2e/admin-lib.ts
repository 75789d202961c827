import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { expect } from 'vitest';
import type { Page } from 'playwright-core';
import { base32Decode, totp } from '../apps/server/src/modules/admin/totp.ts';
import { goto, type Server } from './lib.ts';

/**
 * Console fixtures for browser tests (the same steps as tests/admin.test.ts): a staff account made
 * by the create-staff CLI as a real child process on the server's database (one-time password),
 * and its first sign-in in the browser — password → authenticator enrolment (codes computed with
 * the server's RFC 6238 function) → a new password → the console.
 */
const root = path.resolve(import.meta.dirname, '..');
const run = promisify(execFile);

export async function createStaffCli(server: Server, username: string, role: string): Promise<string> {
  const { stdout } = await run(process.execPath, ['--import', 'tsx', path.join(root, 'apps/server/src/tools/create-staff.ts'), '--username', username, '--role', role], {
    cwd: root,
    env: { ...process.env, DATA_DIR: server.dataDir, DEV_MODE: '1', NODE_ENV: 'production', CHAIN: 'off', DEMO_DATA: '0', LOG_LEVEL: 'warn' },
  });
  const m = /one-time password: (\S+)/.exec(stdout);
  if (!m) throw new Error(`no one-time password in: ${stdout}`);
  return m[1]!;
}

export const totpCode = (secret: string) => totp(base32Decode(secret), Date.now());

/** Signs a new staff member in for the first time, landing on the console's dashboard; answers the TOTP secret. */
export async function firstSignIn(page: Page, server: Server, username: string, oneTime: string, newPassword: string): Promise<string> {
  await goto(page, `${server.base}/admin`);
  await page.waitForURL(/\/admin\/login/);
  await page.getByTestId('admin-login-username').fill(username);
  await page.getByTestId('admin-login-password').fill(oneTime);
  await page.getByTestId('admin-login-submit').click();
  await page.getByTestId('admin-enrol').waitFor();
  const secret = (await page.getByTestId('admin-enrol-secret').innerText()).trim();
  await page.getByTestId('admin-totp-code').fill(totpCode(secret));
  await page.getByTestId('admin-totp-submit').click();
  await page.getByTestId('admin-new-password').waitFor();
  await page.getByTestId('admin-newpw').fill(newPassword);
  await page.getByTestId('admin-newpw2').fill(newPassword);
  await page.getByTestId('admin-newpw-submit').click();
  await page.getByTestId('admin-dashboard').waitFor();
  expect(await page.getByTestId('admin-me').innerText()).toBe(username);
  return secret;
}
