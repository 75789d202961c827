import crypto from 'node:crypto';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { toHexAddress } from '@cfx/protocol/address.ts';
import { apiRegister, launchBrowser, newMobile, startServer, type Server } from '../lib.ts';

/**
 * The consignment market end to end in the browser, against the real server WITH the embedded
 * chain, two users in two browser contexts, each with the dev wallet (it signs without prompts):
 *
 * - the seller verifies the real name in account settings (client errors, then the sandbox KYC)
 *   and links the wallet; two collectibles are given to the seller (rows the mint job mints to the
 *   seller's linked address, as it does for every pending collectible);
 * - list now on the asset page (cost preview → approve → sign → openSale, each step visible);
 * - the buyer finds it on /sales (release + price filter), buys now (/object-buy: reserved order
 *   and countdown), pays in the sandbox cashier (/pay → cashier → back), and the status page
 *   follows paid → settling → completed; ownerOf on chain (cfx_call through the RPC proxy) is the
 *   buyer; both personal centers show it;
 * - a user without a real name is stopped by the server's gate on /object-buy (message + way out);
 * - off shelf (closeSale → approve(0)) of the second collectible, the wallet refusing the first
 *   approve(0) (the RPC proxy answers 4001 — what Fluent does when the user clicks reject) and the
 *   retry starting at that step; then a bid by the buyer, agreed by the seller (approve → sign →
 *   agreeBargin), paid from the buyer's balance, settled on chain.
 */
let server: Server;
let browser: Browser;
let db: Database.Database;

beforeAll(async () => {
  [server, browser] = await Promise.all([
    startServer({ CHAIN_INDEXER_INTERVAL_MS: '300', CHAIN_RECEIPT_INTERVAL_MS: '300', SETTLE_CHECK_MS: '1000', DEMO_GOODS: '120' }),
    launchBrowser(),
  ]);
  db = new Database(path.join(server.dataDir, 'marketplace.sqlite'));
  db.pragma('busy_timeout = 10000');
});
afterAll(async () => {
  db?.close();
  await browser?.close();
  await server?.stop();
});

const word = (hex: string) => hex.replace(/^0x/, '').toLowerCase().padStart(64, '0');

async function rpc<T>(method: string, params: unknown[]): Promise<T> {
  const r = await (await fetch(`${server.base}/mvapi/public/chain/v1/rpc`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }) })).json();
  if (r.error) throw new Error(`${method}: ${r.error.message}`);
  return r.result as T;
}

/** ownerOf(tokenId) / getApproved(tokenId) of the Collectible, read on chain with cfx_call through the server's RPC proxy. */
async function tokenAddress(selector: '0x6352211e' | '0x081812fc', tokenId: number): Promise<string> {
  const info = (await (await fetch(`${server.base}/mvapi/public/chain/v1/info`)).json()).data;
  const out = await rpc<string>('cfx_call', [{ to: info.collectible, data: `${selector}${word(tokenId.toString(16))}` }, 'latest_state']);
  return `0x${out.slice(-40)}`;
}

async function userPage(token: string): Promise<{ ctx: BrowserContext; page: Page }> {
  const ctx = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await ctx.newPage();
  await page.goto(server.base + '/');
  await page.evaluate((t) => localStorage.setItem('token', t), token);
  await page.goto(server.base + '/');
  await page.getByTestId('header-user-menu').waitFor();
  return { ctx, page };
}

async function linkWallet(page: Page): Promise<string> {
  await page.getByTestId('header-link-wallet').click();
  await page.getByTestId('header-wallet').waitFor({ timeout: 30_000 });
  return (await page.getByTestId('header-wallet').getAttribute('data-address'))!;
}

async function userId(token: string): Promise<number> {
  const p = await server.api('/api/user/profile/v1/userprofile', {}, { token });
  return (db.prepare('select id from users where account_id = ?').get(p.data.accountId) as { id: number }).id;
}

/** A valid GB 11643 number of an adult born on 1990-01-01 (region 110101). */
function adultId(seq: string): string {
  const first17 = `11010119900101${seq}`;
  const w = [7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2];
  const sum = [...first17].reduce((s, c, i) => s + Number(c) * w[i]!, 0);
  return first17 + '10X98765432'[sum % 11];
}

/**
 * A collectible of a demo release for `owner`, pending: the server's mint job mints it to the
 * owner's linked wallet (as it does for every pending collectible) and marks it minted.
 */
function giveCollectible(owner: number, tokenId: number, name: string): number {
  const now = Date.now();
  const r = db
    .prepare(
      `insert into goods (project_id, serial, token_id, contract, chain_status, mint_tx_hash, minted_at, owner_user_id, name, image, attributes, status, sale_price_fen, listed_at, last_price_fen, acquired_at, created_at)
       values (1, ?, ?, null, 'pending', null, null, ?, ?, '/mvapi/public/official/image/?id=g-0-7-5-1', '[]', 'held', null, null, 9900, ?, ?)`,
    )
    .run(900_000 + (tokenId % 100_000), tokenId, owner, name, now - 400 * 86_400_000, now);
  return Number(r.lastInsertRowid);
}

async function waitMinted(goodsId: number) {
  await expect
    .poll(() => (db.prepare('select chain_status from goods where id = ?').get(goodsId) as { chain_status: string }).chain_status, { timeout: 90_000, interval: 500 })
    .toBe('minted');
}

async function stepStatus(page: Page, step: string) {
  return page.getByTestId(`flow-step-${step}`).getAttribute('data-status');
}

describe('consignment market', () => {
  let seller: { token: string; ctx: BrowserContext; page: Page; address: string; id: number };
  let buyer: { token: string; ctx: BrowserContext; page: Page; address: string; id: number };
  const tokenA = 7_000_000 + crypto.randomInt(1_000_000);
  const tokenB = tokenA + 1;
  let goodsA = 0;
  let goodsB = 0;

  it('the seller verifies the real name (client checks, then KYC) and links the dev wallet', async () => {
    const token = await apiRegister(server, newMobile());
    const { ctx, page } = await userPage(token);
    await page.goto(server.base + '/personal-center/account-settings');
    const section = page.getByTestId('realname-section');
    await expect.poll(() => section.getAttribute('data-status')).toBe('unverified');

    // client-side checks: empty, bad checksum
    await page.getByTestId('realname-submit').click();
    expect(await page.getByTestId('realname-name-error').innerText()).toBe('请输入真实姓名');
    expect(await page.getByTestId('realname-id-error').innerText()).toBe('请输入身份证号码');
    const good = adultId('201');
    await page.getByTestId('realname-name').fill('张三');
    await page.getByTestId('realname-id').fill(good.slice(0, 17) + (good[17] === '1' ? '2' : '1'));
    await page.getByTestId('realname-submit').click();
    expect(await page.getByTestId('realname-id-error').innerText()).toBe('身份证号码校验位不正确，请核对后重新输入');

    // the sandbox KYC: a name starting with 错 is a mismatch (the server's reason is shown)
    await page.getByTestId('realname-name').fill('错误');
    await page.getByTestId('realname-id').fill(good);
    await page.getByTestId('realname-submit').click();
    await expect.poll(() => page.getByTestId('realname-error').innerText()).toBe('姓名与身份证号码不匹配');

    await page.getByTestId('realname-name').fill('张三');
    await page.getByTestId('realname-submit').click();
    await expect.poll(() => section.getAttribute('data-status')).toBe('verified');
    expect(await page.getByTestId('realname-masked-name').innerText()).toBe('张*');
    expect(await page.getByTestId('realname-masked-id').innerText()).toBe(`110${'*'.repeat(11)}${good.slice(-4)}`);
    await expect.poll(() => page.getByTestId('security-realname').innerText()).toBe('已认证');

    const address = await linkWallet(page);
    seller = { token, ctx, page, address, id: await userId(token) };
  });

  it('the buyer passes the gate (real name through the API) and links the dev wallet; the seller gets two collectibles', async () => {
    const token = await apiRegister(server, newMobile());
    expect((await server.api('/api/user/profile/v1/submitrealname', { name: '李四', idNumber: adultId('202') }, { token })).status).toBe('000000');
    const { ctx, page } = await userPage(token);
    const address = await linkWallet(page);
    buyer = { token, ctx, page, address, id: await userId(token) };

    goodsA = giveCollectible(seller.id, tokenA, `寄售测试甲 #${tokenA}`);
    goodsB = giveCollectible(seller.id, tokenB, `寄售测试乙 #${tokenB}`);
    await waitMinted(goodsA);
    await waitMinted(goodsB);
    expect(await tokenAddress('0x6352211e', tokenA)).toBe(toHexAddress(seller.address));
  }, 120_000);

  it('list now: cost preview, then approve → sign → openSale with each step visible', async () => {
    const { page } = seller;
    await page.goto(`${server.base}/assets/${goodsA}`);
    await expect.poll(() => page.getByTestId('asset-market').getAttribute('data-viewer')).toBe('owner');
    await page.getByTestId('market-list-now').click();
    const dialog = page.getByTestId('market-dialog');
    await dialog.waitFor();
    await page.getByTestId('sell-price').fill('123.45');
    await expect.poll(() => page.getByTestId('cost-preview').getAttribute('data-status')).toBe('ok');
    expect(await page.getByTestId('cost-item-commission').innerText()).toContain('-￥6.17');
    expect(await page.getByTestId('cost-income').innerText()).toBe('￥117.28');
    // the rules must be accepted first
    await page.getByTestId('market-dialog-confirm').click();
    expect(await page.getByTestId('sell-price-error').innerText()).toBe('请先勾选确认交易规则');
    await page.getByTestId('sell-agree').check();
    await page.getByTestId('market-dialog-confirm').click();
    await expect.poll(() => dialog.getAttribute('data-phase'), { timeout: 60_000 }).toBe('done');
    for (const step of ['prepare', 'approve', 'sign', 'submit', 'sync']) expect(await stepStatus(page, step), step).toBe('done');
    expect(await page.getByTestId('market-dialog-done').innerText()).toContain('￥123.45');
    await page.getByTestId('market-dialog-finish').click();
    await page.getByTestId('off-shelf-card').waitFor();
    expect(await page.getByTestId('market-sale-price').innerText()).toBe('￥123.45');
    // on chain: the exchange is approved for the token
    const info = (await (await fetch(`${server.base}/mvapi/public/chain/v1/info`)).json()).data;
    expect(await tokenAddress('0x081812fc', tokenA)).toBe(info.exchangeHex.toLowerCase());
  }, 90_000);

  it('the buyer finds it on /sales, buys now, pays in the sandbox cashier; settlement completes on chain', async () => {
    const { page } = buyer;
    await page.goto(`${server.base}/sales`);
    await page.getByTestId('market-filters').waitFor();
    await page.getByTestId('filter-project').selectOption('1');
    await page.getByTestId('filter-min').fill('200');
    await page.getByTestId('filter-max').fill('100');
    await page.getByTestId('filter-apply').click();
    expect(await page.getByTestId('filter-error').innerText()).toBe('最低价不能高于最高价');
    await page.getByTestId('filter-min').fill('123.45');
    await page.getByTestId('filter-max').fill('123.45');
    await page.getByTestId('filter-apply').click();
    await page.waitForURL(/\/sales\?project=1&min=123\.45&max=123\.45/);
    const card = page.locator(`[data-testid="market-card"][data-id="${goodsA}"]`);
    await card.waitFor();
    expect(await page.getByTestId('market-card').count()).toBe(1);
    expect(await card.getByTestId('market-card-price').innerText()).toBe('￥123.45');
    // the filtered page is server-rendered
    const html = await (await fetch(`${server.base}/sales?project=1&min=123.45&max=123.45`)).text();
    expect(html).toContain(`data-id="${goodsA}"`);

    await card.click();
    await page.waitForURL(new RegExp(`/assets/${goodsA}$`));
    await page.getByTestId('buy-now-card').waitFor();
    await page.getByTestId('market-buy-now').click();
    await page.waitForURL(/\/object-buy\?goodsId=\d+&orderNo=MO\w+/);
    await page.getByTestId('object-buy-reserved').waitFor();
    const orderNo = new URL(page.url()).searchParams.get('orderNo')!;
    expect(Number(await page.getByTestId('countdown').getAttribute('data-ms'))).toBeGreaterThan(200_000);
    expect(await page.getByTestId('order-price').innerText()).toBe('￥123.45');

    await page.getByTestId('object-buy-pay').click();
    await page.waitForURL(new RegExp(`/pay\\?orderNo=${orderNo}$`));
    await expect.poll(() => page.getByTestId('pay-methods').getAttribute('data-method')).toBe('sandbox');
    expect(await page.getByTestId('pay-amount').innerText()).toBe('￥123.45');
    await page.getByTestId('pay-submit').click();
    // the sandbox cashier (the server's page), then back to /pay and on to the status page
    await page.waitForURL(/\/payment\/sandbox\/cashier\?t=/);
    await page.locator('#pay').click();
    await page.waitForURL(/\/personal-center\/conmponents\/pamentSuccess\?orderNo=/, { timeout: 30_000 });
    const status = page.getByTestId('payment-status');
    await expect.poll(() => status.getAttribute('data-status'), { timeout: 90_000 }).toBe('completed');
    expect(await page.getByTestId('payment-status-title').innerText()).toBe('交易完成');
    const events = await page.getByTestId('order-event').evaluateAll((els) => els.map((e) => e.getAttribute('data-status')));
    expect(events).toEqual(['created', 'paying', 'paid', 'settling', 'completed']);
    expect(await page.getByTestId('order-tx').innerText()).toMatch(/^0x[0-9a-f]{64}$/);

    // the new owner on chain
    expect(await tokenAddress('0x6352211e', tokenA)).toBe(toHexAddress(buyer.address));
  }, 180_000);

  it('both personal centers show it', async () => {
    const b = buyer.page;
    await b.goto(`${server.base}/personal-center`);
    await b.locator(`[data-testid="asset-tile"][data-id="${goodsA}"]`).waitFor();
    await expect.poll(() => b.getByTestId('head-total').innerText()).toBe('1');
    await b.goto(`${server.base}/personal-center/txn-details`);
    const row = b.locator('[data-testid="order-row"]').first();
    await row.waitFor();
    expect(await row.getAttribute('data-status')).toBe('completed');
    await row.getByTestId('order-row-detail').click();
    await b.getByTestId('order-detail').waitFor();
    await expect.poll(() => b.getByTestId('order-detail').getAttribute('data-status')).toBe('completed');

    const s = seller.page;
    await s.goto(`${server.base}/personal-center/my-sale?tab=sold`);
    const sold = s.locator(`[data-testid="sale-row"][data-goods-id="${goodsA}"]`);
    await sold.waitFor();
    expect(await sold.getAttribute('data-status')).toBe('sold');
    expect(await sold.getByTestId('sale-income').innerText()).toBe('￥117.28');
    await s.goto(`${server.base}/personal-center/txn-details?tab=receipts`);
    const receipt = s.locator('[data-testid="receipt-row"]').first();
    await receipt.waitFor();
    expect(await receipt.getAttribute('data-side')).toBe('sell');
    await s.goto(`${server.base}/personal-center/payment`);
    await expect.poll(() => s.getByTestId('balance-available').innerText()).toBe('￥117.28');
    // the collectible left the seller's assets
    await s.goto(`${server.base}/personal-center`);
    await s.locator(`[data-testid="asset-tile"][data-id="${goodsB}"]`).waitFor();
    expect(await s.locator(`[data-testid="asset-tile"][data-id="${goodsA}"]`).count()).toBe(0);
  }, 60_000);

  it('off shelf: closeSale → approve the zero address in the wallet (a refusal in the wallet first, then a retry); the gate stops a buyer without a real name', async () => {
    const { page } = seller;
    await page.goto(`${server.base}/assets/${goodsB}`);
    await page.getByTestId('market-list-now').click();
    await page.getByTestId('sell-price').fill('88');
    await expect.poll(() => page.getByTestId('cost-preview').getAttribute('data-status')).toBe('ok');
    await page.getByTestId('sell-agree').check();
    await page.getByTestId('market-dialog-confirm').click();
    await expect.poll(() => page.getByTestId('market-dialog').getAttribute('data-phase'), { timeout: 60_000 }).toBe('done');
    await page.getByTestId('market-dialog-finish').click();

    // a user without a verified real name cannot buy it: the server's gate message and the way out
    const stranger = await userPage(await apiRegister(server, newMobile()));
    await stranger.page.goto(`${server.base}/object-buy?goodsId=${goodsB}`);
    const refused = stranger.page.getByTestId('object-buy-error');
    await refused.waitFor();
    expect(await refused.getAttribute('data-code')).toBe('1011');
    expect(await refused.innerText()).toContain('请先完成实名认证');
    expect(await stranger.page.getByTestId('object-buy-verify').getAttribute('href')).toBe('/personal-center/account-settings#realname');
    await stranger.ctx.close();

    // from the personal center's my sale; the wallet refuses the first approve(0): a clear message, then a retry
    await page.goto(`${server.base}/personal-center/my-sale`);
    const row = page.locator(`[data-testid="sale-row"][data-goods-id="${goodsB}"]`);
    await row.waitFor();
    const isSend = (req: { postData(): string | null }) => (req.postData() ?? '').includes('cfx_sendRawTransaction');
    await page.route('**/mvapi/public/chain/v1/rpc', async (route) => {
      if (!isSend(route.request())) return route.continue();
      const id = JSON.parse(route.request().postData()!).id;
      await route.fulfill({ contentType: 'application/json', body: JSON.stringify({ jsonrpc: '2.0', id, error: { code: 4001, message: 'User rejected the request.' } }) });
    });
    await row.getByTestId('row-off-shelf').click();
    const dialog = page.getByTestId('market-dialog');
    await expect.poll(() => dialog.getAttribute('data-kind')).toBe('offShelf');
    await page.getByTestId('market-dialog-confirm').click();
    await expect.poll(() => dialog.getAttribute('data-phase'), { timeout: 30_000 }).toBe('failed');
    expect(await stepStatus(page, 'close')).toBe('done');
    expect(await stepStatus(page, 'revoke')).toBe('failed');
    expect(await page.getByTestId('flow-step-error').innerText()).toBe('您已在钱包中取消了本次操作');
    await page.unroute('**/mvapi/public/chain/v1/rpc');
    await page.getByTestId('flow-retry').click();
    await expect.poll(() => dialog.getAttribute('data-phase'), { timeout: 60_000 }).toBe('done');
    for (const step of ['close', 'revoke', 'sync']) expect(await stepStatus(page, step), step).toBe('done');
    await page.getByTestId('market-dialog-finish').click();
    expect(await tokenAddress('0x081812fc', tokenB)).toBe(`0x${'0'.repeat(40)}`);
    await page.goto(`${server.base}/personal-center/my-sale?tab=closed`);
    await page.locator(`[data-testid="sale-row"][data-goods-id="${goodsB}"]`).waitFor();
    await page.goto(`${server.base}/assets/${goodsB}`);
    await page.getByTestId('list-now-card').waitFor();
  }, 120_000);

  it('bid → agree (approve → sign → agreeBargin) → the buyer pays from the balance → settled on chain', async () => {
    const b = buyer.page;
    await b.goto(`${server.base}/assets/${goodsB}`);
    await expect.poll(() => b.getByTestId('asset-market').getAttribute('data-viewer')).toBe('other');
    await b.getByTestId('market-not-for-sale').waitFor();
    await b.getByTestId('bid-amount-input').fill('66');
    await b.getByTestId('bid-days').selectOption('3');
    await b.getByTestId('bid-submit').click();
    const mine = b.locator('[data-testid="bid-row"][data-mine="true"]');
    await mine.waitFor();
    expect(await mine.getByTestId('bid-amount').innerText()).toBe('￥66.00');

    const s = seller.page;
    await s.goto(`${server.base}/assets/${goodsB}`);
    await expect.poll(() => s.getByTestId('asset-market').getAttribute('data-viewer')).toBe('owner');
    const row = s.locator('[data-testid="bid-row"]').first();
    await row.waitFor();
    await row.getByTestId('bid-agree').click();
    const dialog = s.getByTestId('market-dialog');
    await expect.poll(() => dialog.getAttribute('data-kind')).toBe('agree');
    await expect.poll(() => s.getByTestId('cost-preview').getAttribute('data-status')).toBe('ok');
    await s.getByTestId('market-dialog-confirm').click();
    await expect.poll(() => dialog.getAttribute('data-phase'), { timeout: 60_000 }).toBe('done');
    for (const step of ['prepare', 'approve', 'sign', 'submit']) expect(await stepStatus(s, step), step).toBe('done');
    expect(await s.getByTestId('market-dialog-done').innerText()).toMatch(/BO\w+/);
    await s.getByTestId('market-dialog-finish').click();

    // the buyer: a sandbox top-up, then my offers → pay → platform balance
    expect((await server.api('/payment/sandbox/topup', { amount: 10_000 }, { token: buyer.token })).status).toBe('000000');
    await b.goto(`${server.base}/personal-center/txn-details?tab=bids`);
    const accepted = b.locator('[data-testid="bid-item"][data-status="accepted"]');
    await accepted.waitFor();
    await accepted.getByTestId('bid-item-pay').click();
    await b.waitForURL(/\/pay\?orderNo=BO\w+/);
    await b.getByTestId('pay-method-balance').click();
    await expect.poll(() => b.getByTestId('pay-methods').getAttribute('data-method')).toBe('balance');
    await b.getByTestId('pay-submit').click();
    await b.waitForURL(/\/personal-center\/conmponents\/pamentSuccess\?orderNo=BO/);
    await expect.poll(() => b.getByTestId('payment-status').getAttribute('data-status'), { timeout: 90_000 }).toBe('completed');
    expect(await tokenAddress('0x6352211e', tokenB)).toBe(toHexAddress(buyer.address));
    await b.goto(`${server.base}/personal-center/payment`);
    await expect.poll(() => b.getByTestId('balance-available').innerText()).toBe('￥34.00');
  }, 180_000);

  it('English: the market page and the asset pieces', async () => {
    const ctx = await browser.newContext();
    await ctx.addCookies([{ name: 'lang', value: 'en', url: server.base }]);
    const page = await ctx.newPage();
    await page.goto(`${server.base}/sales?sort=priceAsc`);
    expect(await page.locator('h1').innerText()).toBe('Consignment market');
    expect(await page.getByTestId('market-sort-priceAsc').getAttribute('data-active')).toBe('true');
    await page.goto(`${server.base}/assets/${goodsA}`);
    expect(await page.getByTestId('market-notice').innerText()).toContain('no 7-day no-reason return');
    await ctx.close();
    await seller.ctx.close();
    await buyer.ctx.close();
  });
});
