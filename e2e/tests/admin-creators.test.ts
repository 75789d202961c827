import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { encodePng } from '../../apps/server/src/modules/captcha/png.ts';
import { createStaffCli, firstSignIn } from '../admin-lib.ts';
import { apiRegister, goto, launchBrowser, newMobile, startServer, type Server } from '../lib.ts';

/**
 * From application to creator in the browser against the real server (SQLite, no chain, no demo
 * data): a user applies through the API; an owner (create-staff CLI, TOTP enrolment) approves the
 * application in the console and finds the new creator under /admin/creators, edits the name,
 * gives the verified mark — the public creator page shows it — and disables the creator with a
 * reason: the public page no longer answers; enabling brings it back.
 */
let server: Server;
let browser: Browser;
const root = path.resolve(import.meta.dirname, '../..');

beforeAll(async () => {
  [server, browser] = await Promise.all([startServer({ CHAIN: 'off', DEMO_DATA: '0' }), launchBrowser()]);
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

async function submitApplication(token: string, creatorName: string): Promise<number> {
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
    projectName: '云海·数字典藏', creatorName, category: 'art',
    description: '以云海为题材的数字艺术作品系列，共 8 款。',
    supply: 500, priceFen: 6600, contactName: '王小明', mobile: '13800138000', email: 'wang@example.com', agree: true,
    artworkKeys: [art], qualificationKeys: [doc],
  }, { token });
  expect(r.status, r.message).toBe('000000');
  return r.data.id as number;
}

describe('creators in the console', () => {
  it('an approved applicant becomes a creator that staff edit, verify, disable and enable', async () => {
    const creatorName = `云海工作室${crypto.randomInt(100, 999)}`;
    const token = await apiRegister(server, newMobile());
    const appId = await submitApplication(token, creatorName);

    const oneTime = await createStaffCli(server, 'boss2', 'owner');
    const ctx = await browser.newContext({ viewport: { width: 1360, height: 900 } });
    const page = await ctx.newPage();
    await firstSignIn(page, server, 'boss2', oneTime, 'Owner-pass-2025');

    // Approve the application.
    await goto(page, `${server.base}/admin/applications?id=${appId}`);
    await page.getByTestId('admin-application-detail').waitFor();
    await page.getByTestId('admin-application-approve').click();
    await page.getByTestId('admin-approve-dialog-confirm').click();
    await expect.poll(() => page.getByTestId('admin-application-status').innerText()).toBe('已通过');

    // The applicant is a creator now.
    const profile = await server.api('/api/user/profile/v1/userprofile', {}, { token });
    expect(profile.data.isCreator).toBe(1);
    const accountId = profile.data.accountId as string;

    // Find them in the creators section.
    await page.getByTestId('admin-nav-creators').click();
    await page.getByTestId('admin-creators-q').fill(creatorName);
    await page.getByTestId('admin-creators-search').click();
    const row = page.getByTestId('admin-creator-row');
    await expect.poll(() => row.count()).toBe(1);
    await row.getByTestId('admin-creator-open').click();
    await page.getByTestId('admin-creator-detail').waitFor();
    expect(await page.getByTestId('admin-creator-name').innerText()).toBe(creatorName);
    expect(await page.getByTestId('admin-creator-application').innerText()).toContain(String(appId));

    // Edit the name: a bad one is refused in place, a good one saved.
    await page.getByTestId('admin-creator-name-input').fill('');
    await page.getByTestId('admin-creator-save').click();
    await expect.poll(() => page.getByTestId('admin-creator-form-error').innerText()).toBe('创作者名称需为1-40个字');
    const newName = `${creatorName}·新`;
    await page.getByTestId('admin-creator-name-input').fill(newName);
    await page.getByTestId('admin-creator-save').click();
    await expect.poll(() => page.getByTestId('admin-creator-name').innerText()).toBe(newName);

    // Verified mark: on the public page.
    await page.getByTestId('admin-creator-verify').click();
    await page.getByTestId('admin-creator-verify-dialog-confirm').click();
    await expect.poll(() => page.getByTestId('admin-creator-verified').count()).toBe(1);
    const pub = await ctx.newPage();
    await goto(pub, `${server.base}/creator/${accountId}`);
    expect(await pub.getByTestId('creator-name').innerText()).toBe(newName);
    await pub.getByTestId('creator-verified').waitFor();

    // Disable with a reason: the public page no longer answers.
    await page.getByTestId('admin-creator-disable').click();
    await page.getByTestId('admin-creator-disable-dialog-reason').fill('内容违规待整改');
    await page.getByTestId('admin-creator-disable-dialog-confirm').click();
    await expect.poll(() => page.getByTestId('admin-creator-state').innerText()).toBe('已停用');
    expect((await server.api('/api/creator/v1/query', { accountId })).status).toBe('1404');

    // Enable again.
    await page.getByTestId('admin-creator-enable').click();
    await page.getByTestId('admin-creator-enable-dialog-reason').fill('已整改');
    await page.getByTestId('admin-creator-enable-dialog-confirm').click();
    await expect.poll(() => page.getByTestId('admin-creator-state').innerText()).toBe('正常');
    expect((await server.api('/api/creator/v1/query', { accountId })).data).toMatchObject({ name: newName, verified: true });
    await ctx.close();
  });
});
