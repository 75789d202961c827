import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { apiRegister, goodsDetails, goto, launchBrowser, linkDevWallet, newMobile, openAs, startServer, verifyRealName, waitMinted, type Server } from '../lib.ts';

/**
 * Blind boxes and compose end to end in the browser, against the real server with the embedded
 * chain (issue #10, docs/drops.md): a verified user with the dev wallet linked (through the API)
 * gets boxes of a box release from the DEV_MODE route /dev/box-release, waits for the reveal,
 * opens one from the personal center (the dev wallet signs the consent, the operator's
 * consumeAndMint burns the box and mints the item) and sees the drawn item with its odds; and
 * composes 3 fragments (/dev/compose-rule) into 1 on the compose page in one transaction.
 */
let server: Server;
let browser: Browser;

beforeAll(async () => {
  [server, browser] = await Promise.all([
    startServer({ CHAIN_INDEXER_INTERVAL_MS: '300', CHAIN_RECEIPT_INTERVAL_MS: '300', DEMO_GOODS: '60' }),
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

describe('blind boxes and compose', () => {
  it('opens a revealed box in the personal center with the dev wallet and sees the drawn item', async () => {
    const { token, wallet } = await trader();
    const made = await server.api('/dev/box-release', { kinds: [{ count: 1 }, { count: 2 }], revealInEpochs: 1 }, { token });
    expect(made.status, made.message).toBe('000000');
    const projectId = made.data.projectId as number;
    const boxes = made.data.goods as { goodsId: number; tokenId: string }[];
    expect(boxes).toHaveLength(3);
    for (const b of boxes) await waitMinted(server, b.goodsId);
    // Sold out and minted (the chain moved past the reveal epoch): the reveal sweep publishes the proof.
    await expect
      .poll(async () => (await (await fetch(`${server.base}/mvapi/public/goods/v1/box/info/?projectId=${projectId}`)).json()).data?.status, { timeout: 60_000, interval: 500 })
      .toBe('revealed');

    const { page } = await openAs(browser, server, { token, wallet }, '/personal-center');
    const box = boxes[0]!;
    const tile = page.locator(`[data-testid="asset-tile"][data-id="${box.goodsId}"]`);
    await tile.waitFor();
    await expect.poll(() => tile.getByTestId('asset-flow-actions').getAttribute('data-box')).toBe('revealed');
    await tile.getByTestId('asset-open-box').click();
    const dialog = page.getByTestId('open-box-dialog');
    await dialog.waitFor();
    await dialog.getByTestId('open-box-confirm').click();
    // The steps, then the reveal of the drawn item with its odds.
    await expect.poll(() => dialog.getAttribute('data-phase'), { timeout: 90_000 }).toBe('done');
    const reveal = dialog.getByTestId('open-box-reveal');
    await expect.poll(() => reveal.getAttribute('data-flipped')).toBe('true');
    const kind = Number(await reveal.getAttribute('data-kind'));
    const info = (await (await fetch(`${server.base}/mvapi/public/goods/v1/box/info/?projectId=${projectId}`)).json()).data;
    const drawn = info.kinds[kind];
    expect(await dialog.getByTestId('open-box-item-name').innerText()).toContain(drawn.name);
    expect(await dialog.getByTestId('open-box-item-kind').innerText()).toContain(`${drawn.count}/3`);
    expect(await dialog.getByTestId('open-box-tx').innerText()).toMatch(/^0x[0-9a-f]{64}$/);

    // The box is burned; the item is mine and minted; the personal center lists the item, not the box.
    expect((await goodsDetails(server, box.goodsId)).status).toBe('burned');
    const opening = await (await fetch(`${server.base}/mvapi/public/goods/v1/openBox/?goodsId=${box.goodsId}`, { headers: { channel: 'pc', token } })).json();
    const itemId = opening.data.item.goodsId as number;
    const item = await goodsDetails(server, itemId);
    expect(item).toMatchObject({ chainStatus: 'minted', status: 'held' });
    await dialog.getByTestId('open-box-finish').click();
    await expect.poll(() => page.locator(`[data-testid="asset-tile"][data-id="${box.goodsId}"]`).count()).toBe(0);
    await page.locator(`[data-testid="asset-tile"][data-id="${itemId}"]`).waitFor();

    // The release page shows the odds and leads to the public proof: odds, commitment, reveal, and
    // the recompute in the browser matches.
    await goto(page, `${server.base}/projects/detail/${projectId}`);
    const odds = page.getByTestId('box-odds-section');
    expect(await odds.getAttribute('data-status')).toBe('revealed');
    expect(await odds.getByTestId('box-odds-kind').evaluateAll((els) => els.map((e) => e.getAttribute('data-count')))).toEqual(['1', '2']);
    await odds.getByTestId('box-proof-link').click();
    await page.waitForURL(new RegExp(`/projects/box/${projectId}$`));
    await page.getByTestId('box-proof').waitFor();
    expect(await page.getByTestId('box-proof').getAttribute('data-status')).toBe('revealed');
    expect(await page.getByTestId('box-kind').count()).toBe(2);
    // the reveal epoch's block, read live through the server, has the hash the reveal used (no explorer on the embedded chain)
    await expect.poll(() => page.getByTestId('seed-block-check').getAttribute('data-state'), { timeout: 15_000 }).toBe('match');
    expect(await page.getByTestId('seed-block-hash').innerText()).toBe(await page.getByTestId('box-block-hash').innerText());
    expect(await page.getByTestId('seed-block-embedded').count()).toBe(1);
    await page.getByTestId('box-recompute').click();
    await expect.poll(() => page.getByTestId('box-recompute-result').getAttribute('data-result')).toBe('match');
  });

  it('composes 3 fragments into 1 on the compose page in one transaction', async () => {
    const { token, wallet } = await trader();
    const made = await server.api('/dev/compose-rule', { count: 3 }, { token });
    expect(made.status, made.message).toBe('000000');
    const ruleId = made.data.ruleId as number;
    const fragments = made.data.goods as { goodsId: number }[];
    for (const f of fragments) await waitMinted(server, f.goodsId);

    const { page } = await openAs(browser, server, { token, wallet }, `/personal-center/compose?rule=${ruleId}`);
    const rule = page.locator(`[data-testid="compose-rule"][data-id="${ruleId}"]`);
    await rule.waitFor();
    expect(await rule.getAttribute('data-can')).toBe('true');
    const panel = page.getByTestId('compose-panel');
    await expect.poll(() => panel.getAttribute('data-fits')).toBe('true');
    expect(await panel.locator('[data-testid="fragment-item"][data-selected="true"]').count()).toBe(3);
    await page.getByTestId('compose-start').click();
    const dialog = page.getByTestId('compose-dialog');
    await dialog.getByTestId('compose-confirm').click();
    await expect.poll(() => dialog.getAttribute('data-phase'), { timeout: 90_000 }).toBe('done');
    const resultId = Number(await dialog.getByTestId('compose-result').getAttribute('data-goods-id'));
    expect(resultId).toBeGreaterThan(0);

    // On the server: the three fragments burned, one result minted to me, one transaction.
    for (const f of fragments) expect((await goodsDetails(server, f.goodsId)).status).toBe('burned');
    expect(await goodsDetails(server, resultId)).toMatchObject({ chainStatus: 'minted', status: 'held' });
    const records = await server.api('/api/compose/v1/composerecord', { pageNum: 1, pageSize: 5 }, { token });
    expect(records.data.list[0]).toMatchObject({ status: 'completed', result: { goodsId: resultId } });
    await dialog.getByTestId('compose-finish').click();
    await expect.poll(() => page.locator('[data-testid="compose-record"]').first().getAttribute('data-status')).toBe('completed');
    await expect.poll(() => rule.getAttribute('data-can')).toBe('false');
  });
});
