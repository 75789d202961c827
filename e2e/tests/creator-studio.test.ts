import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { encodePng } from '../../apps/server/src/modules/captcha/png.ts';
import { createStaffCli, firstSignIn } from '../admin-lib.ts';
import { apiRegister, goto, launchBrowser, newMobile, openAs, startServer, type Server } from '../lib.ts';

/**
 * The creator studio in the browser against the real server (SQLite, no chain, no demo data): a
 * user who is not a creator is sent to 项目入驻; a creator (the dev route) drafts a release with a
 * cover upload and a live preview, submits it; an owner rejects it with a reason in the console;
 * the creator sees the reason, edits and submits again; the owner approves and the release is in
 * the creator's releases and on its public page.
 */
let server: Server;
let browser: Browser;

beforeAll(async () => {
  [server, browser] = await Promise.all([startServer({ CHAIN: 'off', DEMO_DATA: '0' }), launchBrowser()]);
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

/** China time (UTC+8) of `ms` as a datetime-local value. */
const cnLocal = (ms: number) => new Date(ms + 8 * 3600_000).toISOString().slice(0, 16);

describe('creator studio', () => {
  it('non-creator → apply; creator drafts with preview, submits; console rejects with a reason, then approves', async () => {
    const plain = await apiRegister(server, newMobile());
    const p0 = await openAs(browser, server, { token: plain }, '/personal-center/make');
    await p0.page.getByTestId('studio-not-creator').waitFor();
    expect(await p0.page.getByTestId('studio-apply').getAttribute('href')).toBe('/project-enter');
    await p0.ctx.close();

    const token = await apiRegister(server, newMobile());
    const made = await server.api('/dev/make-creator', { name: `工作室${crypto.randomInt(100, 999)}` }, { token });
    expect(made.status, made.message).toBe('000000');
    const { ctx, page } = await openAs(browser, server, { token }, '/personal-center/make');
    await page.getByTestId('studio').waitFor();
    await page.getByTestId('studio-drafts-empty').waitFor();
    await page.getByTestId('studio-releases-empty').waitFor();

    await page.getByTestId('studio-new').click();
    await page.getByTestId('studio-editor').waitFor();
    await page.getByTestId('studio-title').fill('云海·初见');
    await page.getByTestId('studio-story').fill('云海之上的第一缕光。');
    await page.getByTestId('studio-cover').setInputFiles({ name: 'cover.png', mimeType: 'image/png', buffer: encodePng(64, 64, crypto.randomBytes(64 * 64 * 4)) });
    await page.getByTestId('studio-cover-img').waitFor();
    await page.getByTestId('studio-supply').fill('20');
    await page.getByTestId('studio-price').fill('9.90');
    const start = Date.now() + 3 * 3600_000;
    await page.getByTestId('studio-start').fill(cnLocal(start));
    await page.getByTestId('studio-limit').fill('2');
    await page.getByTestId('studio-royalty').fill('5');
    // The preview shows the release as buyers will see it.
    await expect.poll(() => page.getByTestId('studio-preview-name').innerText()).toBe('云海·初见');
    await expect.poll(() => page.getByTestId('studio-preview-price').innerText()).toContain('9.90');
    await expect.poll(() => page.getByTestId('studio-preview-story').innerText()).toContain('云海之上的第一缕光。');
    await page.getByTestId('studio-submit').click();
    const draft = page.getByTestId('studio-draft');
    await expect.poll(() => draft.getAttribute('data-state')).toBe('submitted');
    expect(await draft.getByTestId('studio-draft-state').innerText()).toBe('审核中');
    const draftId = await draft.getAttribute('data-draft-id');

    // The owner rejects it with a reason.
    const oneTime = await createStaffCli(server, 'boss3', 'owner');
    const staffCtx = await browser.newContext({ viewport: { width: 1360, height: 900 } });
    const admin = await staffCtx.newPage();
    await firstSignIn(admin, server, 'boss3', oneTime, 'Owner-pass-2025');
    await goto(admin, `${server.base}/admin/release-reviews`);
    const row = admin.locator(`[data-testid="admin-release-review-row"][data-draft-id="${draftId}"]`);
    await row.waitFor();
    await row.getByTestId('admin-release-review-reject').click();
    await admin.getByTestId('admin-release-review-reject-dialog-reason').fill('封面分辨率太低');
    await admin.getByTestId('admin-release-review-reject-dialog-confirm').click();
    await expect.poll(() => row.count()).toBe(0);

    // The creator sees the reason, edits and submits again.
    await page.reload();
    await expect.poll(() => draft.getAttribute('data-state')).toBe('rejected');
    expect(await draft.getByTestId('studio-draft-reason').innerText()).toContain('封面分辨率太低');
    await draft.getByTestId('studio-draft-edit').click();
    expect(await page.getByTestId('studio-editor-reason').innerText()).toContain('封面分辨率太低');
    expect(await page.getByTestId('studio-price').inputValue()).toBe('9.90');
    await page.getByTestId('studio-title').fill('云海·初见（高清）');
    await page.getByTestId('studio-submit').click();
    await expect.poll(() => draft.getAttribute('data-state')).toBe('submitted');

    // Approved: the release exists, in the creator's releases and on its page.
    await admin.reload();
    await row.waitFor();
    await row.getByTestId('admin-release-review-approve').click();
    await admin.getByTestId('admin-release-review-approve-dialog-confirm').click();
    await expect.poll(() => row.count()).toBe(0);
    await page.reload();
    await expect.poll(() => draft.getAttribute('data-state')).toBe('approved');
    const release = page.getByTestId('studio-release');
    await expect.poll(() => release.count()).toBe(1);
    expect(await release.getByTestId('studio-release-sold').innerText()).toBe('0 / 20');
    const projectId = await release.getAttribute('data-project-id');
    await goto(page, `${server.base}/projects/detail/${projectId}`);
    expect(await page.getByTestId('project-name').innerText()).toBe('云海·初见（高清）');
    await ctx.close();
    await staffCtx.close();
  });
});
