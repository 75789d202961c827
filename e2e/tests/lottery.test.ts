import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { apiRegister, goto, launchBrowser, linkDevWallet, newMobile, openAs, startServer, verifyRealName, type Server } from '../lib.ts';

/**
 * The fair drop (issue #10, docs/drops.md "Lottery") end to end in the browser, against the real
 * server with the embedded chain producing a block every 200 ms: a release made by the DEV_MODE
 * route /dev/drop-phases with a lottery whose draw epoch lies ahead of the chain; a user signs up on
 * the dropping page (another through the API), waits for the draw, which the server makes from the
 * epoch's real block hash, sees that they won with the countdown of their purchase window, buys;
 * the public proof page recomputes the draw in the browser and says it matches.
 */
let server: Server;
let browser: Browser;

beforeAll(async () => {
  [server, browser] = await Promise.all([
    startServer({ CHAIN_BLOCK_INTERVAL_MS: '200', CHAIN_INDEXER_INTERVAL_MS: '300', CHAIN_RECEIPT_INTERVAL_MS: '300', DEMO_GOODS: '60' }),
    launchBrowser(),
  ]);
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

async function trader() {
  const token = await apiRegister(server, newMobile());
  await verifyRealName(server, token);
  const wallet = await linkDevWallet(server, token);
  return { token, wallet };
}

describe('fair drop', () => {
  it('signs up in the browser, is drawn from the epoch hash, buys within the winner’s window, and the proof recomputes', async () => {
    const [a, b] = await Promise.all([trader(), trader()]);
    // sign-up opens in 4 s and lasts 14 s; the draw epoch is 120 blocks (≈ 24 s) ahead; 2 winners of 2 entrants
    const release = await server.api(
      '/dev/drop-phases',
      {
        supply: 5,
        priceFen: 990,
        perIdentityLimit: 2,
        maxPerOrder: 2,
        phases: [{ kind: 'lottery_signup', startInMs: 4000, durationMs: 14_000 }, { kind: 'lottery_rights', priceFen: 880 }, { kind: 'public' }],
        lottery: { drawEpochOffset: 120, winners: 2, winQuota: 1, rightsMinutes: 5 },
      },
      { token: b.token },
    );
    expect(release.status, release.message).toBe('000000');
    const projectId = release.data.projectId as number;
    const drawEpoch = release.data.drawEpoch as number;

    const { page } = await openAs(browser, server, { token: a.token, wallet: a.wallet }, `/projects/dropping/${projectId}`);
    const panel = page.getByTestId('lottery-panel');
    await panel.waitFor();
    expect(await page.getByTestId('phase').evaluateAll((els) => els.map((e) => e.getAttribute('data-kind')))).toEqual(['lottery_signup', 'lottery_rights', 'public']);
    expect(await panel.innerText()).toContain(`第 ${drawEpoch} 个纪元`);
    // sign-up opens by the server clock, without a reload
    await expect.poll(() => panel.getAttribute('data-state'), { timeout: 20_000 }).toBe('can-enter');
    await page.getByTestId('lottery-enter').click();
    await page.getByTestId('lottery-entered').waitFor();
    expect(await page.getByTestId('lottery-entered').getAttribute('data-entry-no')).toBe('1');
    const other = await server.api('/api/user/mint/v1/lottery/enter', { projectId }, { token: b.token });
    expect(other).toMatchObject({ status: '000000', data: { entryNo: 2 } });
    // one entry per person: asking again is refused
    expect((await server.api('/api/user/mint/v1/lottery/enter', { projectId }, { token: a.token })).status).toBe('1026');

    // sign-up closes; the page waits for the draw at epoch E, then shows the win and the window's countdown
    await expect.poll(() => panel.getAttribute('data-state'), { timeout: 30_000 }).toBe('waiting');
    expect(await page.getByTestId('lottery-waiting').innerText()).toContain(String(drawEpoch));
    await expect.poll(() => panel.getAttribute('data-state'), { timeout: 90_000 }).toBe('won');
    expect(await page.getByTestId('lottery-won').innerText()).toContain('恭喜中签');
    expect(await page.getByTestId('lottery-rights-countdown').getByTestId('countdown').innerText()).toMatch(/天[\s\S]*时[\s\S]*分[\s\S]*秒/);
    await expect.poll(() => page.getByTestId('phase-current').getAttribute('data-kind'), { timeout: 15_000 }).toBe('lottery_rights');

    // the winner buys their unit at the rights price
    await expect.poll(() => page.getByTestId('buy-entry').isEnabled(), { timeout: 15_000 }).toBe(true);
    await page.getByTestId('buy-entry').click();
    await page.waitForURL(new RegExp(`/object-buy\\?projectId=${projectId}&orderNo=DO\\d+`));
    await page.getByTestId('object-buy-reserved').waitFor();
    expect(await page.getByTestId('order-quantity').getAttribute('data-quantity')).toBe('1');
    expect(await page.getByTestId('order-price').innerText()).toBe('￥8.80');

    // the public proof: seed epoch, its hash checked live against the block read through the server
    // (the embedded chain: no explorer link, a note instead), and the recompute in this browser
    await goto(page, `${server.base}/projects/lottery/${projectId}`);
    const proof = page.getByTestId('lottery-proof');
    expect(await proof.getAttribute('data-status')).toBe('drawn');
    expect(await page.getByTestId('proof-epoch').innerText()).toBe(String(drawEpoch));
    const hash = await page.getByTestId('proof-block-hash').innerText();
    expect(hash).toMatch(/^0x[0-9a-f]{64}/);
    expect(await page.getByTestId('proof-explorer').count()).toBe(0);
    await expect.poll(() => page.getByTestId('seed-block-check').getAttribute('data-state'), { timeout: 15_000 }).toBe('match');
    expect(await page.getByTestId('seed-block-hash').innerText()).toBe(hash.slice(0, 66));
    expect(await page.getByTestId('seed-block-embedded').count()).toBe(1);
    expect(await page.getByTestId('proof-entry').count()).toBe(2);
    expect(await page.getByTestId('proof-winners').innerText()).toBe('1, 2');
    await page.getByTestId('proof-recompute').click();
    const result = page.getByTestId('proof-result');
    await result.waitFor();
    expect(await result.getAttribute('data-result')).toBe('match');
    expect(await result.innerText()).toBe('复算结果一致：中签名单与公示完全相同');
  }, 240_000);

  it('claims a free unit on the mint page as a whitelisted user, and /mint lists the release', async () => {
    const a = await trader();
    // a free claim open now for 10 minutes, then the public sale; the caller is whitelisted for 2
    const release = await server.api(
      '/dev/drop-phases',
      { supply: 4, priceFen: 990, phases: [{ kind: 'claim', startInMs: 0, durationMs: 600_000 }, { kind: 'public' }], whitelistMe: 2 },
      { token: a.token },
    );
    expect(release.status, release.message).toBe('000000');
    const projectId = release.data.projectId as number;

    const { page } = await openAs(browser, server, { token: a.token, wallet: a.wallet }, '/mint');
    const card = page.locator(`[data-testid="mint-card"][data-id="${projectId}"]`);
    await card.waitFor();
    expect(await card.getAttribute('data-phase')).toBe('claim');
    await card.click();
    await page.waitForURL(new RegExp(`/projects/mint/${projectId}$`)); // a client-side navigation
    await page.getByTestId('mint-page').waitFor();
    expect(await page.getByTestId('phase-current').getAttribute('data-kind')).toBe('claim');
    await expect.poll(() => page.getByTestId('whitelist-status').getAttribute('data-quota'), { timeout: 15_000 }).toBe('2');
    expect(await page.getByTestId('whitelist-status').innerText()).toContain('您在白名单中');
    await expect.poll(() => page.getByTestId('claim-button').isEnabled(), { timeout: 15_000 }).toBe(true);
    expect(await page.getByTestId('claim-button').innerText()).toBe('免费领取');
    await page.getByTestId('claim-button').click();
    await page.waitForURL(/\/personal-center\/conmponents\/pamentSuccess\?orderNo=DO\d+/);
    const status = page.getByTestId('payment-status');
    await expect.poll(() => status.getAttribute('data-status'), { timeout: 90_000 }).toBe('completed');
    const orderNo = new URL(page.url()).searchParams.get('orderNo')!;
    const detail = await server.api('/payment/nftOrder/V1/getNftOrderDetail', { orderNo }, { token: a.token });
    expect(detail.data).toMatchObject({ priceFen: 0, status: 'completed', drop: { quantity: 1, unitPriceFen: 0 } });
    expect(detail.data.drop.items[0].chainStatus).toBe('minted');
    // one unit of the quota is left
    const info = await server.api('/api/user/mint/v1/whitelist', { projectId }, { token: a.token });
    expect(info.data).toMatchObject({ whitelisted: true, quota: 2, used: 1, remaining: 1 });
  }, 180_000);
});
