import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { encodePng } from '../../apps/server/src/modules/captcha/png.ts';
import { createStaffCli, firstSignIn } from '../admin-lib.ts';
import {
  apiRegister,
  goto,
  landOn,
  launchBrowser,
  linkDevWallet,
  newMobile,
  nextAdultId,
  nextChallenge,
  openAs,
  reload,
  solveSlider,
  startServer,
  verifyRealName,
  type Server,
  testCardNumber,
} from '../lib.ts';

/**
 * Issue 16's whole creator journey in the browser, against the real server WITH the embedded chain:
 *
 * 1. an applicant applies on /project-enter (项目入驻); an owner approves the application in the console
 *    → the applicant is a creator;
 * 2. the creator makes a release with a video (MP4) and a 5 % royalty in the studio (/personal-center/make),
 *    sees it in the preview and submits it (the start ≥ 1 h ahead, as the studio requires);
 * 3. the owner approves it in /admin/release-reviews → the release exists, its page plays the video;
 * 4. an operator moves the sale start to the next minute in the console's release editor (/admin/releases,
 *    the product's own way to change a start before the sale); a buyer waits on the dropping page, buys
 *    at the start, pays in the sandbox cashier, and the collectible is minted to their wallet;
 * 5. the buyer lists it on the consignment market, a second buyer finds it on /sales, buys and pays;
 *    the settlement completes on chain;
 * 6. the creator sees the royalty (5 % of the resale) in the studio and withdraws it through the money-out
 *    pages: bank card bound with the reserved phone's code, ID photos, payout account, withdrawal paid by the
 *    sandbox bank.
 *
 * Setup that is not the journey goes through the API like the other browser tests: registering, the
 * sandbox real-name check, linking the dev wallets. No SQL writes.
 */
let server: Server;
let browser: Browser;
const root = path.resolve(import.meta.dirname, '../..');

beforeAll(async () => {
  [server, browser] = await Promise.all([
    startServer({
      CHAIN_INDEXER_INTERVAL_MS: '300',
      CHAIN_RECEIPT_INTERVAL_MS: '300',
      SETTLE_CHECK_MS: '1000',
      DEMO_GOODS: '0',
      SMS_RESEND_SECONDS: '1',
      PAYOUT_SANDBOX_DELAY_MS: '1000',
    }),
    launchBrowser(),
  ]);
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

/** China time (UTC+8) of `ms` as a datetime-local value (minutes). */
const cnLocal = (ms: number) => new Date(ms + 8 * 3600_000).toISOString().slice(0, 16);

const toastText = (page: Page) => page.getByTestId('toast-text').last();

/** An ISO BMFF file with an MP4 brand (an `ftyp` and an `mdat`): enough for the upload sniffer and Range. */
function mp4Bytes(): Buffer {
  const ftyp = Buffer.concat([Buffer.from([0, 0, 0, 24]), Buffer.from('ftypisom'), Buffer.from([0, 0, 2, 0]), Buffer.from('isomavc1')]);
  const mdat = Buffer.alloc(8 + 64 * 1024, 7);
  mdat.writeUInt32BE(mdat.length, 0);
  mdat.write('mdat', 4, 'latin1');
  return Buffer.concat([ftyp, mdat]);
}

/** Clicks a get-code button, solves the slider that opens and returns the new code from the outbox. */
async function getCode(page: Page, button: string, mobile: string): Promise<string> {
  const before = await server.smsCount(mobile);
  const challenge = nextChallenge(page);
  await page.getByTestId(button).click();
  await solveSlider(page, server, await challenge);
  await expect.poll(() => server.smsCount(mobile)).toBe(before + 1);
  return server.smsCode(mobile);
}

/** From the paid order on /pay through the sandbox cashier to the status page, until the order is completed. */
async function payInSandboxCashier(page: Page, orderNo: string, amount: string, title: string) {
  await page.getByTestId('object-buy-pay').click();
  await page.waitForURL(new RegExp(`/pay\\?orderNo=${orderNo}$`));
  await expect.poll(() => page.getByTestId('pay-methods').getAttribute('data-method')).toBe('sandbox');
  expect(await page.getByTestId('pay-amount').innerText()).toBe(amount);
  await page.getByTestId('pay-submit').click();
  await page.waitForURL(/\/payment\/sandbox\/cashier\?t=/);
  await page.locator('#pay').click();
  await landOn(page, /\/personal-center\/conmponents\/pamentSuccess\?orderNo=/);
  await expect.poll(() => page.getByTestId('payment-status').getAttribute('data-status'), { timeout: 120_000, interval: 500 }).toBe('completed');
  expect(await page.getByTestId('payment-status-title').innerText()).toBe(title);
  expect(await page.getByTestId('order-tx').innerText()).toMatch(/^0x[0-9a-f]{64}$/);
}

describe('the creator journey', () => {
  it('apply → creator → video release with a royalty → reviewed → bought at the start and minted → resold → royalty withdrawn', async () => {
    /* ── 1. the application (项目入驻) and its approval in the console ── */
    const creatorMobile = newMobile();
    const creatorToken = await apiRegister(server, creatorMobile);
    const idNumber = nextAdultId();
    await verifyRealName(server, creatorToken, '李四', idNumber);
    const creatorName = `云海工作室${crypto.randomInt(100, 999)}`;
    const { ctx: creatorCtx, page: cp } = await openAs(browser, server, { token: creatorToken, lang: 'zh' }, '/personal-center/make');
    // not a creator yet: the studio sends them to 项目入驻
    await cp.getByTestId('studio-not-creator').waitFor();
    await cp.getByTestId('studio-apply').click();
    await cp.waitForURL(/\/project-enter$/);
    await cp.getByTestId('settled-form').waitFor();
    await cp.getByTestId('settled-projectName').fill('云海·数字典藏');
    await cp.getByTestId('settled-creatorName').fill(creatorName);
    await cp.getByTestId('settled-category').selectOption('art');
    await cp.getByTestId('settled-description').fill('以云海为题材的数字艺术作品系列，含一段云海延时影像。');
    await cp.getByTestId('settled-supply').fill('20');
    await cp.getByTestId('settled-price').fill('9.90');
    await cp.getByTestId('settled-contactName').fill('李四');
    await cp.getByTestId('settled-mobile').fill('13800138000');
    await cp.getByTestId('settled-email').fill('li@example.com');
    await cp.getByTestId('settled-artworks-input').setInputFiles({ name: '作品.png', mimeType: 'image/png', buffer: encodePng(64, 48, crypto.randomBytes(64 * 48 * 4)) });
    await expect.poll(() => cp.getByTestId('settled-artworks-list').getByTestId('settled-upload-item').getAttribute('data-status')).toBe('done');
    await cp.getByTestId('settled-qualifications-input').setInputFiles({ name: '授权书.pdf', mimeType: 'application/pdf', buffer: fs.readFileSync(path.join(root, 'apps/server/test/fixtures/uploads/licence.pdf')) });
    await expect.poll(() => cp.getByTestId('settled-qualifications-list').getByTestId('settled-upload-item').getAttribute('data-status')).toBe('done');
    await cp.getByTestId('settled-agree').check();
    await cp.getByTestId('settled-submit').click();
    await cp.getByTestId('settled-success').waitFor();
    const application = cp.getByTestId('settled-application');
    await expect.poll(() => application.getAttribute('data-status')).toBe('submitted');
    const appId = await application.getAttribute('data-id');

    const oneTime = await createStaffCli(server, 'boss16', 'owner');
    const staffCtx = await browser.newContext({ viewport: { width: 1360, height: 900 } });
    const admin = await staffCtx.newPage();
    await firstSignIn(admin, server, 'boss16', oneTime, 'Owner-pass-2026');
    await goto(admin, `${server.base}/admin/applications`);
    const appRow = admin.locator(`[data-testid="admin-application-row"][data-id="${appId}"]`);
    await appRow.waitFor();
    await appRow.getByTestId('admin-application-open').click();
    await admin.getByTestId('admin-application-detail').waitFor();
    await admin.getByTestId('admin-application-approve').click();
    await admin.getByTestId('admin-approve-dialog-confirm').click();
    await expect.poll(() => admin.getByTestId('admin-application-status').innerText()).toBe('已通过');

    // the applicant is a creator now: 项目入驻 takes them to their creator page, and they have the studio
    await reload(cp);
    await landOn(cp, /\/creator\/[^/]+$/);
    await expect.poll(() => cp.getByTestId('creator-name').innerText()).toBe(creatorName);
    await goto(cp, `${server.base}/personal-center/make`);
    await cp.getByTestId('studio').waitFor();
    await cp.getByTestId('studio-releases-empty').waitFor();

    /* ── 2. a release with a video and a 5 % royalty, previewed and submitted ── */
    await cp.getByTestId('studio-new').click();
    await cp.getByTestId('studio-editor').waitFor();
    await cp.getByTestId('studio-title').fill('云海·流光');
    await cp.getByTestId('studio-story').fill('一段云海延时影像，光从云隙间流过。');
    await cp.getByTestId('studio-cover').setInputFiles({ name: 'cover.png', mimeType: 'image/png', buffer: encodePng(64, 64, crypto.randomBytes(64 * 64 * 4)) });
    await cp.getByTestId('studio-cover-img').waitFor();
    await cp.getByTestId('studio-media').setInputFiles({ name: 'clip.mp4', mimeType: 'video/mp4', buffer: mp4Bytes() });
    await expect.poll(() => cp.getByTestId('studio-media-kind').innerText()).toBe('视频');
    await cp.getByTestId('studio-supply').fill('20');
    await cp.getByTestId('studio-price').fill('9.90');
    await cp.getByTestId('studio-start').fill(cnLocal(Date.now() + 70 * 60_000));
    await cp.getByTestId('studio-limit').fill('2');
    await cp.getByTestId('studio-holding').fill('0');
    await cp.getByTestId('studio-royalty').fill('5');
    // the preview: the video with the cover as its poster, the name and the price
    const preview = cp.getByTestId('studio-preview');
    const previewVideo = preview.getByTestId('media-video');
    await previewVideo.waitFor();
    expect(await previewVideo.getAttribute('src')).toMatch(/^\/media\/uploads\/.+\.mp4$/);
    expect(await previewVideo.getAttribute('poster')).toBeTruthy();
    await expect.poll(() => cp.getByTestId('studio-preview-name').innerText()).toBe('云海·流光');
    await expect.poll(() => cp.getByTestId('studio-preview-price').innerText()).toContain('9.90');
    await cp.getByTestId('studio-submit').click();
    const draft = cp.getByTestId('studio-draft');
    await expect.poll(() => draft.getAttribute('data-state')).toBe('submitted');
    expect(await draft.getByTestId('studio-draft-state').innerText()).toBe('审核中');
    const draftId = await draft.getAttribute('data-draft-id');

    /* ── 3. the review in the console ── */
    await goto(admin, `${server.base}/admin/release-reviews`);
    const reviewRow = admin.locator(`[data-testid="admin-release-review-row"][data-draft-id="${draftId}"]`);
    await reviewRow.waitFor();
    await reviewRow.getByTestId('admin-release-review-approve').click();
    await admin.getByTestId('admin-release-review-approve-dialog-confirm').click();
    await expect.poll(() => reviewRow.count()).toBe(0);
    await reload(cp);
    await expect.poll(() => draft.getAttribute('data-state')).toBe('approved');
    const studioRelease = cp.getByTestId('studio-release');
    await expect.poll(() => studioRelease.count()).toBe(1);
    expect(await studioRelease.getByTestId('studio-release-sold').innerText()).toBe('0 / 20');
    const projectId = Number(await studioRelease.getAttribute('data-project-id'));
    expect(projectId).toBeGreaterThan(0);

    /* ── 4. the sale starts (moved by an operator in the release editor); a buyer buys at the start ── */
    await goto(admin, `${server.base}/admin/releases?id=${projectId}&sub=info`);
    await admin.getByTestId('admin-release-form').waitFor();
    expect(await admin.getByTestId('admin-release-status').innerText()).toBe('即将开售');
    // datetime-local holds minutes: the next minute at least 25 s away
    const startAt = Math.ceil((Date.now() + 25_000) / 60_000) * 60_000;
    await admin.getByTestId('admin-release-start').fill(cnLocal(startAt));
    await admin.getByTestId('admin-release-submit').click();
    await expect.poll(async () => (await server.api('/goods/v1/project/details', { id: projectId })).data?.saleStartAt).toBe(startAt);
    expect(await admin.getByTestId('admin-release-error').count()).toBe(0);

    const buyerToken = await apiRegister(server, newMobile());
    await verifyRealName(server, buyerToken);
    const buyerWallet = await linkDevWallet(server, buyerToken);
    const { ctx: buyerCtx, page: bp } = await openAs(browser, server, { token: buyerToken, wallet: buyerWallet, lang: 'zh' }, `/projects/detail/${projectId}`);
    // the release page shows the creator's video
    const video = bp.getByTestId('media-video');
    await video.waitFor();
    expect(await video.getAttribute('src')).toMatch(/\.mp4$/);
    expect(await bp.getByTestId('project-name').innerText()).toBe('云海·流光');

    await goto(bp, `${server.base}/projects/dropping/${projectId}`);
    const countdown = bp.getByTestId('dropping-countdown');
    if (Date.now() < startAt - 3_000) {
      // before the start: the countdown to the minute the operator set, the buy button closed
      expect(await countdown.getAttribute('data-kind')).toBe('start');
      expect(Number(await countdown.getByTestId('countdown').getAttribute('data-ms'))).toBeLessThanOrEqual(startAt - Date.now() + 5_000);
      expect(await bp.getByTestId('buy-entry').innerText()).toBe('未开售');
    }
    // the start, by server time: the button opens without a reload
    await expect.poll(() => bp.getByTestId('buy-entry').isEnabled(), { timeout: 120_000, interval: 500 }).toBe(true);
    expect(await bp.getByTestId('buy-entry').innerText()).toBe('立即购买');
    await bp.getByTestId('buy-entry').click();
    await bp.waitForURL(new RegExp(`/object-buy\\?projectId=${projectId}&orderNo=DO\\d+`));
    await bp.getByTestId('object-buy-reserved').waitFor();
    const dropOrderNo = new URL(bp.url()).searchParams.get('orderNo')!;
    expect(await bp.getByTestId('order-price').innerText()).toBe('￥9.90');
    await payInSandboxCashier(bp, dropOrderNo, '￥9.90', '购买完成');
    const items = bp.getByTestId('order-item');
    await expect.poll(() => items.evaluateAll((els) => els.map((e) => e.getAttribute('data-chain-status')))).toEqual(['minted']);

    // minted to the buyer's wallet: in the personal center
    await goto(bp, `${server.base}/personal-center`);
    const tile = bp.locator('[data-testid="asset-tile"]').first();
    await tile.waitFor();
    expect(await tile.getAttribute('data-chain-status')).toBe('minted');
    const goodsId = Number(await tile.getAttribute('data-id'));

    /* ── 5. resold on the consignment market ── */
    await goto(bp, `${server.base}/assets/${goodsId}`);
    await expect.poll(() => bp.getByTestId('asset-market').getAttribute('data-viewer')).toBe('owner');
    await bp.getByTestId('market-list-now').click();
    await bp.getByTestId('market-dialog').waitFor();
    await bp.getByTestId('sell-price').fill('300');
    await expect.poll(() => bp.getByTestId('cost-preview').getAttribute('data-status')).toBe('ok');
    await bp.getByTestId('sell-agree').check();
    await bp.getByTestId('market-dialog-confirm').click();
    await expect.poll(() => bp.getByTestId('market-dialog').getAttribute('data-phase'), { timeout: 90_000, interval: 500 }).toBe('done');
    await bp.getByTestId('market-dialog-finish').click();
    await bp.getByTestId('off-shelf-card').waitFor();

    const buyer2Token = await apiRegister(server, newMobile());
    await verifyRealName(server, buyer2Token);
    const buyer2Wallet = await linkDevWallet(server, buyer2Token);
    const { ctx: buyer2Ctx, page: b2 } = await openAs(browser, server, { token: buyer2Token, wallet: buyer2Wallet, lang: 'zh' }, `/sales?project=${projectId}`);
    const card = b2.locator(`[data-testid="market-card"][data-id="${goodsId}"]`);
    await card.waitFor();
    expect(await card.getByTestId('market-card-price').innerText()).toBe('￥300.00');
    await card.click();
    await b2.waitForURL(new RegExp(`/assets/${goodsId}$`));
    await b2.getByTestId('buy-now-card').waitFor();
    await b2.getByTestId('market-buy-now').click();
    await b2.waitForURL(/\/object-buy\?goodsId=\d+&orderNo=MO\w+/);
    await b2.getByTestId('object-buy-reserved').waitFor();
    const marketOrderNo = new URL(b2.url()).searchParams.get('orderNo')!;
    expect(await b2.getByTestId('order-price').innerText()).toBe('￥300.00');
    await payInSandboxCashier(b2, marketOrderNo, '￥300.00', '交易完成');
    await expect
      .poll(() => b2.getByTestId('order-event').evaluateAll((els) => els.map((e) => e.getAttribute('data-status'))))
      .toEqual(['created', 'paying', 'paid', 'settling', 'completed']);
    // the collectible is the second buyer's now
    await goto(b2, `${server.base}/personal-center`);
    await b2.locator(`[data-testid="asset-tile"][data-id="${goodsId}"]`).waitFor();

    /* ── 6. the royalty in the studio, withdrawn through the money-out pages ── */
    await goto(cp, `${server.base}/personal-center/make`);
    await cp.getByTestId('studio-stats').waitFor();
    // 5 % of ￥300.00
    await expect.poll(() => cp.getByTestId('studio-total-royalty').innerText()).toBe('￥15.00');
    expect(await cp.getByTestId('studio-release-sold').innerText()).toBe('1 / 20');
    expect(await cp.getByTestId('studio-total-sold').innerText()).toBe('1');
    // the balance holds the primary income (￥9.90 less the default 10 % commission) and the royalty
    const fen = (s: string) => Math.round(Number(s.replace(/[￥,\s]/g, '')) * 100);
    const primaryFen = fen(await cp.getByTestId('studio-total-primary').innerText());
    expect(primaryFen).toBe(891);
    const balanceBefore = fen(await cp.getByTestId('studio-balance').innerText());
    expect(balanceBefore).toBe(primaryFen + 1500);
    await cp.getByTestId('studio-withdraw').click();
    await cp.waitForURL(/\/personal-center\/payment$/);
    await cp.getByTestId('withdraw-panel').waitFor();
    await expect.poll(async () => fen(await cp.getByTestId('balance-available').innerText())).toBe(balanceBefore);

    // the bank card: the 4 elements and the code sent to the phone reserved at the bank
    await goto(cp, `${server.base}/personal-center/payment-management`);
    await cp.getByTestId('card-panel').waitFor();
    await cp.getByTestId('bind-card-open').click();
    const cardNo = testCardNumber();
    const reserved = newMobile();
    await cp.getByTestId('bind-name').fill('李四');
    await cp.getByTestId('bind-id').fill(idNumber);
    await cp.getByTestId('bind-card-no').fill(cardNo);
    await cp.getByTestId('bind-mobile').fill(reserved);
    const bindCode = await getCode(cp, 'bind-get-code', reserved);
    await cp.getByTestId('bind-request').waitFor();
    await cp.getByTestId('bind-code').fill(bindCode);
    await cp.getByTestId('bind-submit').click();
    await expect.poll(() => toastText(cp).innerText()).toBe('银行卡绑定成功');
    await cp.getByTestId('bound-card').waitFor();
    const png = encodePng(400, 250, Buffer.alloc(400 * 250 * 4, 0x90));
    for (const side of ['front', 'back'] as const) {
      await cp.getByTestId(`identity-${side}-input`).setInputFiles({ name: `${side}.png`, mimeType: 'image/png', buffer: png });
      await expect.poll(() => cp.getByTestId(`identity-${side}`).getAttribute('data-uploaded')).toBe('1');
    }
    // the payout account
    await goto(cp, `${server.base}/personal-center/paymentYibao`);
    await cp.getByTestId('account-panel').waitFor();
    await cp.getByTestId('account-province').selectOption('44');
    await cp.getByTestId('account-city').selectOption('4403');
    await cp.getByTestId('account-address').fill('南山区科技园路1号');
    await cp.getByTestId('account-open').click();
    await expect.poll(() => cp.getByTestId('account-panel').getAttribute('data-state')).toBe('active');

    // withdraw the royalty, ￥15.00 (fee ￥1.00, the minimum)
    await goto(cp, `${server.base}/personal-center/payment`);
    await cp.getByTestId('withdraw-panel').waitFor();
    await cp.getByTestId('withdraw-open').click();
    await cp.getByTestId('withdraw-amount').fill('15');
    await expect.poll(() => cp.getByTestId('withdraw-net').innerText()).toBe('￥14.00');
    expect(await cp.getByTestId('withdraw-fee').innerText()).toBe('￥1.00');
    const sms = await getCode(cp, 'withdraw-get-code', creatorMobile);
    await cp.getByTestId('withdraw-code').fill(sms);
    await cp.getByTestId('withdraw-submit').click();
    await expect.poll(() => toastText(cp).innerText()).toBe('提现申请已提交，到账后将通知您');
    const row = cp.getByTestId('withdrawal-row').first();
    await expect.poll(() => row.getAttribute('data-status'), { timeout: 30_000, interval: 500 }).toBe('succeeded');
    expect(await row.getByTestId('withdrawal-status').innerText()).toBe('已到账');
    await expect.poll(async () => fen(await cp.getByTestId('balance-available').innerText())).toBe(balanceBefore - 1500);

    await Promise.all([creatorCtx.close(), staffCtx.close(), buyerCtx.close(), buyer2Ctx.close()]);
  }, 600_000);
});
