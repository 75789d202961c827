import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { toHexAddress } from '@cfx/protocol/address.ts';
import {
  adultId,
  apiRegister,
  goto,
  grantCollectible,
  landOn,
  launchBrowser,
  linkDevWallet,
  newMobile,
  openAs,
  startServer,
  verifyRealName,
  waitMinted,
  type DevWallet,
  type Server,
} from '../lib.ts';

/**
 * The consignment market end to end in the browser, against the real server WITH the embedded
 * chain, users in their own browser contexts, each with the dev wallet (it signs without prompts).
 * Every test builds what it needs through fixtures (users registered, real names verified and dev
 * wallets linked through the API; collectibles granted by the dev route and minted by the server's
 * mint job; listings made through the same UI flow the list-now test checks), so one failure never
 * fails the next test:
 *
 * - the real name in account settings (client errors, the sandbox KYC's mismatch, masked result)
 *   and linking the dev wallet from the header;
 * - list now on the asset page (cost preview → approve → sign → openSale, each step visible);
 * - the buyer finds a listing on /sales (release + price filter), buys now (/object-buy: reserved
 *   order and countdown), pays in the sandbox cashier (/pay → cashier → back), and the status page
 *   follows paid → settling → completed; ownerOf on chain (cfx_call through the RPC proxy);
 * - both personal centers after a sale;
 * - a user without a real name is stopped by the server's gate on /object-buy (message + way out);
 *   off shelf (closeSale → the wallet steps) with the wallet refusing the first transaction (the RPC
 *   proxy answers 4001 — what Fluent does when the user clicks reject) and the retry;
 * - a bid by a buyer, agreed by the seller (approve → sign → agreeBargin), paid from the buyer's
 *   balance, settled on chain;
 * - English texts.
 */
let server: Server;
let browser: Browser;
let chainInfo: { collectible: string; exchangeHex: string };

beforeAll(async () => {
  [server, browser] = await Promise.all([
    startServer({ CHAIN_INDEXER_INTERVAL_MS: '300', CHAIN_RECEIPT_INTERVAL_MS: '300', SETTLE_CHECK_MS: '1000', DEMO_GOODS: '120' }),
    launchBrowser(),
  ]);
  chainInfo = (await (await fetch(`${server.base}/mvapi/public/chain/v1/info`)).json()).data;
});
afterAll(async () => {
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
async function tokenAddress(selector: '0x6352211e' | '0x081812fc', tokenId: bigint): Promise<string> {
  const out = await rpc<string>('cfx_call', [{ to: chainInfo.collectible, data: `${selector}${word(tokenId.toString(16))}` }, 'latest_state']);
  return `0x${out.slice(-40)}`;
}

const ZERO = `0x${'0'.repeat(40)}`;

/* ───────────── fixtures ───────────── */

interface User {
  token: string;
  wallet?: DevWallet;
  ctx: BrowserContext;
  page: Page;
}

/**
 * A registered user with an open page (closed when the test ends); optionally with a verified real
 * name and a linked dev wallet, both done through the API.
 */
async function user(opts: { realName?: boolean; wallet?: boolean; lang?: 'zh' | 'en' } = {}): Promise<User> {
  const token = await apiRegister(server, newMobile());
  const [, wallet] = await Promise.all([
    opts.realName ? verifyRealName(server, token) : undefined,
    opts.wallet ? linkDevWallet(server, token) : undefined,
  ]);
  const { ctx, page } = await openAs(browser, server, { token, wallet, lang: opts.lang });
  onTestFinished(() => ctx.close());
  return { token, wallet, ctx, page };
}

/** A trader (real name + wallet) owning a minted collectible of the release `projectId`. */
async function sellerWithCollectible(projectId?: number): Promise<User & { goodsId: number; tokenId: bigint }> {
  const seller = await user({ realName: true, wallet: true });
  const { goodsId, tokenId } = await grantCollectible(server, seller.token, projectId);
  await waitMinted(server, goodsId);
  return { ...seller, goodsId, tokenId };
}

async function stepStatus(page: Page, step: string) {
  return page.getByTestId(`flow-step-${step}`).getAttribute('data-status');
}

/** Every step of the dialog's flow: { key: status }. */
async function flowSteps(page: Page): Promise<Record<string, string>> {
  const steps = await page.getByTestId('market-dialog').locator('[data-testid^="flow-step-"][data-status]').evaluateAll((els) =>
    els.map((e) => [e.getAttribute('data-testid')!.slice('flow-step-'.length), e.getAttribute('data-status')!] as const),
  );
  return Object.fromEntries(steps);
}

/**
 * A finished flow: every step ended done or skipped (steps with nothing to do, e.g. no order to
 * cancel, are skipped), and the named steps were really done.
 */
async function expectFlowDone(page: Page, mustBeDone: string[]) {
  const steps = await flowSteps(page);
  for (const step of mustBeDone) expect(steps[step], step).toBe('done');
  for (const [step, status] of Object.entries(steps)) expect(['done', 'skipped'], `${step}: ${status}`).toContain(status);
}

/** Opens the sell dialog on the asset page and fills the price (the owner's view). */
async function openSellDialog(page: Page, goodsId: number, price: string) {
  await goto(page, `${server.base}/assets/${goodsId}`);
  await expect.poll(() => page.getByTestId('asset-market').getAttribute('data-viewer')).toBe('owner');
  await page.getByTestId('market-list-now').click();
  await page.getByTestId('market-dialog').waitFor();
  await page.getByTestId('sell-price').fill(price);
  await expect.poll(() => page.getByTestId('cost-preview').getAttribute('data-status')).toBe('ok');
}

/** Lists the collectible through the UI (the same flow the list-now test checks step by step). */
async function listNow(page: Page, goodsId: number, price: string) {
  await openSellDialog(page, goodsId, price);
  await page.getByTestId('sell-agree').check();
  await page.getByTestId('market-dialog-confirm').click();
  await expect.poll(() => page.getByTestId('market-dialog').getAttribute('data-phase'), { timeout: 60_000 }).toBe('done');
  await page.getByTestId('market-dialog-finish').click();
  await page.getByTestId('off-shelf-card').waitFor();
}

async function orderStatus(token: string, orderNo: string): Promise<string> {
  return (await server.api('/payment/nftOrder/V1/getNftOrderDetail', { orderNo }, { token })).data?.status;
}

describe('consignment market', () => {
  it('the real name in account settings: client checks, the sandbox KYC, the masked result; the dev wallet links from the header', async () => {
    const { token, page } = await user();
    await goto(page, server.base + '/personal-center/account-settings');
    const section = page.getByTestId('realname-section');
    await expect.poll(() => section.getAttribute('data-status')).toBe('unverified');

    // client-side checks: empty, bad checksum
    await page.getByTestId('realname-submit').click();
    await expect.poll(() => page.getByTestId('realname-name-error').innerText()).toBe('请输入真实姓名');
    expect(await page.getByTestId('realname-id-error').innerText()).toBe('请输入身份证号码');
    const good = adultId('201');
    await page.getByTestId('realname-name').fill('张三');
    await page.getByTestId('realname-id').fill(good.slice(0, 17) + (good[17] === '1' ? '2' : '1'));
    await page.getByTestId('realname-submit').click();
    await expect.poll(() => page.getByTestId('realname-id-error').innerText()).toBe('身份证号码校验位不正确，请核对后重新输入');

    // the sandbox KYC: a name starting with 错 is a mismatch (the server's reason is shown)
    await page.getByTestId('realname-name').fill('错误');
    await page.getByTestId('realname-id').fill(good);
    await page.getByTestId('realname-submit').click();
    await expect.poll(() => page.getByTestId('realname-error').innerText()).toBe('姓名与身份证号码不匹配');

    await page.getByTestId('realname-name').fill('张三');
    await page.getByTestId('realname-submit').click();
    await expect.poll(() => section.getAttribute('data-status')).toBe('verified');
    // masked: only the last character of the name; the first and last character of the ID number
    expect(await page.getByTestId('realname-masked-name').innerText()).toBe('*三');
    expect(await page.getByTestId('realname-masked-id').innerText()).toBe(`${good[0]}${'*'.repeat(16)}${good.slice(-1)}`);
    await expect.poll(() => page.getByTestId('security-realname').innerText()).toBe('已认证');

    // the dev wallet from the header (no Fluent in this browser: it connects at once)
    await page.getByTestId('header-link-wallet').click();
    await page.getByTestId('header-wallet').waitFor();
    const profile = (await server.api('/api/user/profile/v1/userprofile', {}, { token })).data;
    expect(profile.walletAddress).toMatch(/^cfx:/);
    expect(await page.getByTestId('header-wallet').getAttribute('data-address')).toBe(profile.walletAddress);
  });

  it('list now: the collectible minted to the linked wallet; cost preview, then approve → sign → openSale with each step visible', async () => {
    const seller = await sellerWithCollectible(1);
    const { page } = seller;
    expect(await tokenAddress('0x6352211e', seller.tokenId)).toBe(toHexAddress(seller.wallet!.address));

    await openSellDialog(page, seller.goodsId, '123.45');
    expect(await page.getByTestId('cost-item-commission').innerText()).toContain('-￥6.17');
    expect(await page.getByTestId('cost-income').innerText()).toBe('￥117.28');
    // the rules must be accepted first
    await page.getByTestId('market-dialog-confirm').click();
    await expect.poll(() => page.getByTestId('sell-price-error').innerText()).toBe('请先勾选确认交易规则');
    await page.getByTestId('sell-agree').check();
    await page.getByTestId('market-dialog-confirm').click();
    const dialog = page.getByTestId('market-dialog');
    await expect.poll(() => dialog.getAttribute('data-phase'), { timeout: 60_000 }).toBe('done');
    await expectFlowDone(page, ['prepare', 'approve', 'sign', 'submit', 'sync']);
    expect(await page.getByTestId('market-dialog-done').innerText()).toContain('￥123.45');
    await page.getByTestId('market-dialog-finish').click();
    await page.getByTestId('off-shelf-card').waitFor();
    await expect.poll(() => page.getByTestId('market-sale-price').innerText()).toBe('￥123.45');
    // on chain: the exchange is approved for the token
    expect(await tokenAddress('0x081812fc', seller.tokenId)).toBe(chainInfo.exchangeHex.toLowerCase());
  });

  it('the buyer finds it on /sales, buys now, pays in the sandbox cashier; settlement completes on chain', async () => {
    // Its own release (2), so the release + price filter finds exactly this listing.
    const [seller, buyer] = await Promise.all([sellerWithCollectible(2), user({ realName: true, wallet: true })]);
    await listNow(seller.page, seller.goodsId, '123.45');

    const { page } = buyer;
    await goto(page, `${server.base}/sales`);
    await page.getByTestId('market-filters').waitFor();
    await page.getByTestId('filter-project').selectOption('2');
    await page.getByTestId('filter-min').fill('200');
    await page.getByTestId('filter-max').fill('100');
    await page.getByTestId('filter-apply').click();
    await expect.poll(() => page.getByTestId('filter-error').innerText()).toBe('最低价不能高于最高价');
    await page.getByTestId('filter-min').fill('123.45');
    await page.getByTestId('filter-max').fill('123.45');
    await page.getByTestId('filter-apply').click();
    await page.waitForURL(/\/sales\?project=2&min=123\.45&max=123\.45/);
    const card = page.locator(`[data-testid="market-card"][data-id="${seller.goodsId}"]`);
    await card.waitFor();
    await expect.poll(() => page.getByTestId('market-card').count()).toBe(1);
    expect(await card.getByTestId('market-card-price').innerText()).toBe('￥123.45');
    // the filtered page is server-rendered
    const html = await (await fetch(`${server.base}/sales?project=2&min=123.45&max=123.45`)).text();
    expect(html).toContain(`data-id="${seller.goodsId}"`);

    await card.click();
    await page.waitForURL(new RegExp(`/assets/${seller.goodsId}$`));
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
    // the sandbox cashier (the server's page, no React), then back to /pay — a new document — and on to the status page
    await page.waitForURL(/\/payment\/sandbox\/cashier\?t=/);
    await page.locator('#pay').click();
    await landOn(page, /\/personal-center\/conmponents\/pamentSuccess\?orderNo=/);
    const status = page.getByTestId('payment-status');
    await expect.poll(() => status.getAttribute('data-status'), { timeout: 90_000 }).toBe('completed');
    expect(await page.getByTestId('payment-status-title').innerText()).toBe('交易完成');
    await expect
      .poll(() => page.getByTestId('order-event').evaluateAll((els) => els.map((e) => e.getAttribute('data-status'))))
      .toEqual(['created', 'paying', 'paid', 'settling', 'completed']);
    expect(await page.getByTestId('order-tx').innerText()).toMatch(/^0x[0-9a-f]{64}$/);

    // the new owner on chain
    expect(await tokenAddress('0x6352211e', seller.tokenId)).toBe(toHexAddress(buyer.wallet!.address));
  }, 150_000);

  it('after a sale both personal centers show it: assets, records, sold with proceeds, receipts, balance', async () => {
    const [seller, buyer] = await Promise.all([sellerWithCollectible(1), user({ realName: true, wallet: true })]);
    const kept = await grantCollectible(server, seller.token);
    await listNow(seller.page, seller.goodsId, '123.45');
    // The purchase through the API (its pages are the previous test's subject): buy now, pay from a sandbox top-up.
    const order = await server.api('/payment/nftOrder/V1/createOrder', { goodsId: seller.goodsId }, { token: buyer.token });
    expect(order.status, order.message).toBe('000000');
    expect((await server.api('/payment/sandbox/topup', { amount: 20_000 }, { token: buyer.token })).status).toBe('000000');
    const paid = await server.api('/payment/nftOrder/V1/pay', { orderNo: order.data.orderNo, method: 'balance' }, { token: buyer.token });
    expect(paid.status, paid.message).toBe('000000');
    await expect.poll(() => orderStatus(buyer.token, order.data.orderNo), { timeout: 90_000 }).toBe('completed');

    const b = buyer.page;
    await goto(b, `${server.base}/personal-center`);
    await b.locator(`[data-testid="asset-tile"][data-id="${seller.goodsId}"]`).waitFor();
    await expect.poll(() => b.getByTestId('head-total').innerText()).toBe('1');
    await goto(b, `${server.base}/personal-center/txn-details`);
    const row = b.locator('[data-testid="order-row"]').first();
    await row.waitFor();
    expect(await row.getAttribute('data-status')).toBe('completed');
    await row.getByTestId('order-row-detail').click();
    await b.getByTestId('order-detail').waitFor();
    await expect.poll(() => b.getByTestId('order-detail').getAttribute('data-status')).toBe('completed');

    const s = seller.page;
    await goto(s, `${server.base}/personal-center/my-sale?tab=sold`);
    const sold = s.locator(`[data-testid="sale-row"][data-goods-id="${seller.goodsId}"]`);
    await sold.waitFor();
    expect(await sold.getAttribute('data-status')).toBe('sold');
    expect(await sold.getByTestId('sale-income').innerText()).toBe('￥117.28');
    await goto(s, `${server.base}/personal-center/txn-details?tab=receipts`);
    const receipt = s.locator('[data-testid="receipt-row"]').first();
    await receipt.waitFor();
    expect(await receipt.getAttribute('data-side')).toBe('sell');
    await goto(s, `${server.base}/personal-center/payment`);
    await expect.poll(() => s.getByTestId('balance-available').innerText()).toBe('￥117.28');
    // the collectible left the seller's assets; the other one stays
    await goto(s, `${server.base}/personal-center`);
    await s.locator(`[data-testid="asset-tile"][data-id="${kept.goodsId}"]`).waitFor();
    expect(await s.locator(`[data-testid="asset-tile"][data-id="${seller.goodsId}"]`).count()).toBe(0);
  }, 150_000);

  it('the gate stops a buyer without a real name; off shelf from my sale: closeSale, then the wallet steps, the wallet refusing first (clear message), the retry finishing', async () => {
    const [seller, stranger] = await Promise.all([sellerWithCollectible(1), user()]);
    const { page } = seller;
    await listNow(page, seller.goodsId, '88');

    // a user without a verified real name cannot buy it: the server's gate message and the way out
    await goto(stranger.page, `${server.base}/object-buy?goodsId=${seller.goodsId}`);
    const refused = stranger.page.getByTestId('object-buy-error');
    await refused.waitFor();
    expect(await refused.getAttribute('data-code')).toBe('1011');
    expect(await refused.innerText()).toContain('请先完成实名认证');
    expect(await stranger.page.getByTestId('object-buy-verify').getAttribute('href')).toBe('/personal-center/account-settings#realname');

    await goto(page, `${server.base}/personal-center/my-sale`);
    const row = page.locator(`[data-testid="sale-row"][data-goods-id="${seller.goodsId}"]`);
    await row.waitFor();
    // The wallet refuses the first transaction it is asked to send (the RPC proxy answers 4001).
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
    // closeSale is the server's; the first wallet transaction after it is the refused one
    expect(await stepStatus(page, 'close')).toBe('done');
    const steps = Object.entries(await flowSteps(page));
    const failedAt = steps.findIndex(([, status]) => status === 'failed');
    expect(['cancel', 'revoke']).toContain(steps[failedAt]?.[0]);
    for (const [step, status] of steps.slice(0, failedAt)) expect(['done', 'skipped'], `${step}: ${status}`).toContain(status);
    for (const [step, status] of steps.slice(failedAt + 1)) expect(status, step).toBe('pending');
    expect(await page.getByTestId('flow-step-error').innerText()).toBe('您已在钱包中取消了本次操作');

    await page.unroute('**/mvapi/public/chain/v1/rpc');
    await page.getByTestId('flow-retry').click();
    await expect.poll(() => dialog.getAttribute('data-phase'), { timeout: 60_000 }).toBe('done');
    await expectFlowDone(page, ['close', 'revoke', 'sync']);
    await page.getByTestId('market-dialog-finish').click();
    expect(await tokenAddress('0x081812fc', seller.tokenId)).toBe(ZERO);
    await goto(page, `${server.base}/personal-center/my-sale?tab=closed`);
    await page.locator(`[data-testid="sale-row"][data-goods-id="${seller.goodsId}"]`).waitFor();
    await goto(page, `${server.base}/assets/${seller.goodsId}`);
    await page.getByTestId('list-now-card').waitFor();
  }, 150_000);

  it('bid → agree (approve → sign → agreeBargin) → the buyer pays from the balance → settled on chain', async () => {
    const [seller, buyer] = await Promise.all([sellerWithCollectible(1), user({ realName: true, wallet: true })]);
    const b = buyer.page;
    await goto(b, `${server.base}/assets/${seller.goodsId}`);
    await expect.poll(() => b.getByTestId('asset-market').getAttribute('data-viewer')).toBe('other');
    await b.getByTestId('market-not-for-sale').waitFor();
    await b.getByTestId('bid-amount-input').fill('66');
    await b.getByTestId('bid-days').selectOption('3');
    await b.getByTestId('bid-submit').click();
    const mine = b.locator('[data-testid="bid-row"][data-mine="true"]');
    await mine.waitFor();
    expect(await mine.getByTestId('bid-amount').innerText()).toBe('￥66.00');

    const s = seller.page;
    await goto(s, `${server.base}/assets/${seller.goodsId}`);
    await expect.poll(() => s.getByTestId('asset-market').getAttribute('data-viewer')).toBe('owner');
    const row = s.locator('[data-testid="bid-row"]').first();
    await row.waitFor();
    await row.getByTestId('bid-agree').click();
    const dialog = s.getByTestId('market-dialog');
    await expect.poll(() => dialog.getAttribute('data-kind')).toBe('agree');
    await expect.poll(() => s.getByTestId('cost-preview').getAttribute('data-status')).toBe('ok');
    await s.getByTestId('market-dialog-confirm').click();
    await expect.poll(() => dialog.getAttribute('data-phase'), { timeout: 60_000 }).toBe('done');
    await expectFlowDone(s, ['prepare', 'approve', 'sign', 'submit']);
    expect(await s.getByTestId('market-dialog-done').innerText()).toMatch(/BO\w+/);
    await s.getByTestId('market-dialog-finish').click();

    // the buyer: a sandbox top-up, then my offers → pay → platform balance
    expect((await server.api('/payment/sandbox/topup', { amount: 10_000 }, { token: buyer.token })).status).toBe('000000');
    await goto(b, `${server.base}/personal-center/txn-details?tab=bids`);
    const accepted = b.locator('[data-testid="bid-item"][data-status="accepted"]');
    await accepted.waitFor();
    await accepted.getByTestId('bid-item-pay').click();
    await b.waitForURL(/\/pay\?orderNo=BO\w+/);
    await b.getByTestId('pay-method-balance').click();
    await expect.poll(() => b.getByTestId('pay-methods').getAttribute('data-method')).toBe('balance');
    await b.getByTestId('pay-submit').click();
    await b.waitForURL(/\/personal-center\/conmponents\/pamentSuccess\?orderNo=BO/);
    await expect.poll(() => b.getByTestId('payment-status').getAttribute('data-status'), { timeout: 90_000 }).toBe('completed');
    expect(await tokenAddress('0x6352211e', seller.tokenId)).toBe(toHexAddress(buyer.wallet!.address));
    await goto(b, `${server.base}/personal-center/payment`);
    await expect.poll(() => b.getByTestId('balance-available').innerText()).toBe('￥34.00');
  }, 150_000);

  it('English: the market page and the asset pieces', async () => {
    const owner = await apiRegister(server, newMobile());
    const { goodsId } = await grantCollectible(server, owner);
    const { ctx, page } = await openAs(browser, server, { lang: 'en' }, '/sales?sort=priceAsc');
    onTestFinished(() => ctx.close());
    expect(await page.locator('h1').innerText()).toBe('Consignment market');
    expect(await page.getByTestId('market-sort-priceAsc').getAttribute('data-active')).toBe('true');
    await goto(page, `${server.base}/assets/${goodsId}`);
    expect(await page.getByTestId('market-notice').innerText()).toContain('no 7-day no-reason return');
  });
});
