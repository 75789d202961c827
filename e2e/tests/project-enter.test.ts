import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { encodePng } from '../../apps/server/src/modules/captcha/png.ts';
import { apiRegister, goto, launchBrowser, newMobile, openAs, reload, startServer, userContext, type Server } from '../lib.ts';

/**
 * The project application (/project-enter) in the browser against the real server: a visitor sees
 * the login prompt; a registered user fills the form, uploads a real PNG (its preview and progress
 * shown) and a PDF, sees a text file posing as a PNG refused with the server's reason, is told to
 * tick the agreement, submits, and finds the application listed as submitted with the artwork
 * served back from /media/uploads; after a reload the form stays closed while it is open.
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

const pdf = fs.readFileSync(path.resolve(import.meta.dirname, '../../apps/server/test/fixtures/uploads/licence.pdf'));
/** A real 320×200 PNG (random pixels: about 250 KB, so the upload takes a visible moment). */
const artwork = encodePng(320, 200, crypto.randomBytes(320 * 200 * 4));

describe('project application', () => {
  it('asks a visitor to log in', async () => {
    const ctx = await userContext(browser, server);
    const page = await ctx.newPage();
    await goto(page, `${server.base}/project-enter`);
    await page.getByTestId('settled-login').waitFor();
    expect(await page.getByTestId('settled-form').count()).toBe(0);
    await page.getByTestId('settled-login-button').click();
    await page.getByTestId('auth-overlay').waitFor();
    await ctx.close();
  });

  it('fills the form, uploads a real PNG and a PDF, submits, and sees the application as submitted', async () => {
    const token = await apiRegister(server, newMobile());
    const { ctx, page } = await openAs(browser, server, { token }, '/project-enter');
    await page.getByTestId('settled-form').waitFor();
    await page.getByTestId('settled-mine-empty').waitFor();

    // submitting an empty form shows the rules next to the fields, with the server's texts
    await page.getByTestId('settled-submit').click();
    expect(await page.getByTestId('settled-error-projectName').innerText()).toBe('请输入项目名称（1-40个字）');
    expect(await page.getByTestId('settled-error-artworkKeys').innerText()).toBe('请上传1-9张作品图片');

    await page.getByTestId('settled-projectName').fill('山海经·数字典藏');
    await page.getByTestId('settled-creatorName').fill('青山工作室');
    await page.getByTestId('settled-category').selectOption('culture');
    await page.getByTestId('settled-description').fill('以《山海经》中的异兽为题材的数字艺术作品系列，共 12 款，由青山工作室原创绘制。');
    await page.getByTestId('settled-supply').fill('1000');
    await page.getByTestId('settled-price').fill('99.00');
    await page.getByTestId('settled-contactName').fill('王小明');
    await page.getByTestId('settled-mobile').fill('13800138000');
    await page.getByTestId('settled-email').fill('wang@example.com');
    expect(await page.getByTestId('settled-error-projectName').count()).toBe(0);

    // a text file named .png: the server refuses it by its bytes and the reason shows on the item
    await page.getByTestId('settled-artworks-input').setInputFiles({ name: 'fake.png', mimeType: 'image/png', buffer: Buffer.from('not really a picture') });
    const fake = page.getByTestId('settled-artworks-list').getByTestId('settled-upload-item').first();
    await expect.poll(() => fake.getAttribute('data-status')).toBe('error');
    expect(await fake.getByTestId('settled-upload-error').innerText()).toBe('仅支持 JPG、PNG、WebP、GIF 格式的图片');
    await fake.getByTestId('settled-upload-remove').click();

    // the real PNG: previewed, uploaded, stored under a public key
    await page.getByTestId('settled-artworks-input').setInputFiles({ name: '作品一.png', mimeType: 'image/png', buffer: artwork });
    const item = page.getByTestId('settled-artworks-list').getByTestId('settled-upload-item');
    await expect.poll(() => item.getAttribute('data-status')).toBe('done');
    expect(await item.getAttribute('data-key')).toMatch(/^public\/img\/\d{6}\/[0-9a-f]{32}\.png$/);
    expect(await item.locator('img').evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(320);

    await page.getByTestId('settled-qualifications-input').setInputFiles({ name: '授权书.pdf', mimeType: 'application/pdf', buffer: pdf });
    const doc = page.getByTestId('settled-qualifications-list').getByTestId('settled-upload-item');
    await expect.poll(() => doc.getAttribute('data-status')).toBe('done');
    expect(await doc.getAttribute('data-key')).toMatch(/^private\/doc\/\d{6}\/[0-9a-f]{32}\.pdf$/);

    // the agreement is required
    await page.getByTestId('settled-submit').click();
    expect(await page.getByTestId('settled-error-agree').innerText()).toBe('请先阅读并同意项目合规要求');
    await page.getByTestId('settled-agree').check();
    await page.getByTestId('settled-submit').click();

    await page.getByTestId('settled-success').waitFor();
    const app = page.getByTestId('settled-application');
    await expect.poll(() => app.count()).toBe(1);
    expect(await app.getAttribute('data-status')).toBe('submitted');
    expect(await app.getByTestId('settled-application-name').innerText()).toBe('山海经·数字典藏');
    expect(await app.getByTestId('settled-application-status').innerText()).toBe('已提交');
    // the artwork thumbnail is the stored file, served back by the server
    const thumb = app.locator('img');
    expect(await thumb.getAttribute('src')).toMatch(/^\/media\/uploads\/public\/img\//);
    await expect.poll(() => thumb.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(320);

    // the server has it too
    const mine = await (await fetch(`${server.base}/mvapi/public/official/settled/mine`, { headers: { token, channel: 'pc' } })).json();
    expect(mine).toMatchObject({ code: 200, data: { hasOpen: true, list: [{ status: 'submitted', projectName: '山海经·数字典藏', supply: 1000, priceFen: 9900 }] } });

    // while it is open, the form stays closed
    await reload(page);
    await page.getByTestId('settled-open-notice').waitFor();
    expect(await page.getByTestId('settled-form').count()).toBe(0);
    expect(await page.getByTestId('settled-application').getAttribute('data-status')).toBe('submitted');
    await ctx.close();
  });
});
