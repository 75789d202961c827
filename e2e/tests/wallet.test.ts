import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { apiRegister, goto, launchBrowser, newMobile, reload, startServer, userContext, waitMinted, type Server } from '../lib.ts';
import { DevWalletProvider } from '../../apps/web/app/lib/wallet/dev-wallet/provider.ts';
import { DEV_WALLET_STORAGE, memoryStore } from '../../apps/web/app/lib/wallet/dev-wallet/keys.ts';
import { sendTransactionAndWait } from '../../apps/web/app/lib/wallet/tx.ts';

/**
 * Wallet linking in the browser against the real server WITH the embedded chain:
 * the dev wallet links from the header (personal_sign verified by the server), survives a reload,
 * opens its panel and disconnects; a wrong-network provider gets the spec message; linking needs a
 * login. Then the dev wallet's transaction path on the real node (sponsored approve from a 0-CFX
 * account) and the asset page's chain record of that token.
 */
let server: Server;
let browser: Browser;

beforeAll(async () => {
  [server, browser] = await Promise.all([
    // 120 demo collectibles (not the default 2000): the mint job mints them all at start, before this file's own.
    startServer({ CHAIN_INDEXER_INTERVAL_MS: '300', CHAIN_RECEIPT_INTERVAL_MS: '300', DEMO_GOODS: '120' }),
    launchBrowser(),
  ]);
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

const toastText = (page: Page) => page.getByTestId('toast-text').last();

async function loggedInPage(opts: { init?: () => void; lang?: 'zh' | 'en' } = {}): Promise<{ ctx: BrowserContext; page: Page; token: string }> {
  const token = await apiRegister(server, newMobile());
  const ctx = await userContext(browser, server, { token, lang: opts.lang });
  if (opts.init) await ctx.addInitScript(opts.init);
  const page = await ctx.newPage();
  await goto(page, server.base + '/');
  await page.getByTestId('header-user-menu').waitFor();
  return { ctx, page, token };
}

const walletStatus = async (token: string) => (await server.api('/api/user/v1/walletloginstatus', {}, { token })).data as { walletAddress: string; isLoginWallet: boolean };

/** A fake Fluent on the wrong network (testnet chain id 0x1); it also announces itself with conflux#initialized. */
function wrongNetworkFluent() {
  const w = window as unknown as { conflux: unknown; __walletCalls: string[] };
  w.__walletCalls = [];
  w.conflux = {
    isFluent: true,
    async request({ method }: { method: string }) {
      w.__walletCalls.push(method);
      if (method === 'cfx_requestAccounts' || method === 'cfx_accounts') return ['cfx:aak2rra2njvd77ezwjvx04kkds9fzagfe6ku8scz91'];
      if (method === 'cfx_chainId') return '0x1';
      if (method === 'wallet_revokePermissions') return null;
      throw Object.assign(new Error(`unsupported ${method}`), { code: 4200 });
    },
    on() {},
    removeListener() {},
  };
  setTimeout(() => window.dispatchEvent(new Event('conflux#initialized')), 50);
}

const word = (hex: string) => hex.replace(/^0x/, '').padStart(64, '0');

describe('wallet', () => {
  it('link wallet without a login shows 请先登录，再连接钱包', async () => {
    const page = await browser.newPage();
    await goto(page, server.base + '/');
    await page.getByTestId('header-login').waitFor();
    await page.getByTestId('header-link-wallet').click();
    await expect.poll(() => toastText(page).innerText()).toBe('请先登录，再连接钱包');
    expect(await page.getByTestId('toast').last().getAttribute('data-kind')).toBe('error');
    expect(await page.getByTestId('wallet-dialog').count()).toBe(0);
    await page.close();
  });

  it('a wallet on another network: 请在钱包里将网络切换到Conflux正式网 for about 1 s, connection cancelled', async () => {
    const { ctx, page, token } = await loggedInPage({ init: wrongNetworkFluent });
    const message = '请在钱包里将网络切换到Conflux正式网';
    // How long the message is on screen, measured in the page (a slow test runner cannot skew it).
    await page.evaluate((text) => {
      const seen = ((window as unknown as { __toast: { shown: number; gone: number } }).__toast = { shown: 0, gone: 0 });
      const present = () => [...document.querySelectorAll('[data-testid="toast-text"]')].some((e) => e.textContent === text);
      new MutationObserver(() => {
        if (!seen.shown && present()) seen.shown = performance.now();
        else if (seen.shown && !seen.gone && !present()) seen.gone = performance.now();
      }).observe(document.body, { childList: true, subtree: true, characterData: true });
    }, message);
    await page.getByTestId('header-link-wallet').click();
    // Fluent and the dev wallet are both available here: the dialog lets the user choose.
    await page.getByTestId('wallet-option-dev').waitFor();
    await page.getByTestId('wallet-option-fluent').click();
    await expect.poll(() => toastText(page).innerText()).toBe(message);
    expect(await page.getByTestId('wallet-step-network').getAttribute('data-status')).toBe('failed');
    expect(await page.getByTestId('wallet-step-authorize').getAttribute('data-status')).toBe('done');
    expect(await page.evaluate(() => (window as unknown as { __walletCalls: string[] }).__walletCalls)).toEqual(['cfx_requestAccounts', 'cfx_chainId']);
    // The message lasts 1 s: it goes by itself, after about a second on screen.
    await expect.poll(() => page.getByText(message, { exact: true }).and(page.getByTestId('toast-text')).count()).toBe(0);
    const seen = await page.evaluate(() => (window as unknown as { __toast: { shown: number; gone: number } }).__toast);
    expect(seen.shown).toBeGreaterThan(0);
    expect(seen.gone - seen.shown).toBeGreaterThanOrEqual(700);
    expect(seen.gone - seen.shown).toBeLessThanOrEqual(3000);
    expect(await walletStatus(token)).toEqual({ walletAddress: '', isLoginWallet: false });
    await page.getByTestId('wallet-dialog-close').click();
    await page.getByTestId('header-link-wallet').waitFor();
    await ctx.close();

    const en = await loggedInPage({ init: wrongNetworkFluent, lang: 'en' });
    await en.page.getByTestId('header-link-wallet').click();
    await en.page.getByTestId('wallet-option-fluent').click();
    await expect.poll(() => toastText(en.page).innerText()).toBe('please switch the wallet network to Conflux mainnet');
    await en.ctx.close();
  });

  it('links the dev wallet from the header, keeps it across a reload, opens its panel, disconnects; site logout clears it', async () => {
    const { ctx, page, token } = await loggedInPage();

    // Hold walletlogin to see the dialog mid-flow: the dev-wallet badge and each step's state.
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    const isLogin = (url: URL) => url.pathname.endsWith('/api/user/v1/walletlogin');
    await page.route(isLogin, async (route) => {
      await held;
      await route.continue();
    });
    await page.getByTestId('header-link-wallet').click();
    await page.getByTestId('wallet-dialog').waitFor();
    // No Fluent in this browser: only the dev wallet, so connecting starts at once.
    await expect.poll(() => page.getByTestId('wallet-step-link').getAttribute('data-status')).toBe('active');
    for (const step of ['authorize', 'network', 'address', 'sign']) {
      expect(await page.getByTestId(`wallet-step-${step}`).getAttribute('data-status'), step).toBe('done');
    }
    expect(await page.getByTestId('wallet-dialog').getByTestId('dev-wallet-badge').innerText()).toBe('开发钱包');
    release();
    await page.getByTestId('header-wallet').waitFor();
    await page.unroute(isLogin);
    await expect.poll(() => toastText(page).innerText()).toBe('钱包连接成功');
    expect(await page.getByTestId('header-link-wallet').count()).toBe(0);
    expect(await page.getByTestId('wallet-dialog').count()).toBe(0);

    const profile = (await server.api('/api/user/profile/v1/userprofile', {}, { token })).data;
    expect(profile.walletAddress).toMatch(/^cfx:/);
    const icon = page.getByTestId('header-wallet');
    expect(await icon.getAttribute('data-address')).toBe(profile.walletAddress);
    expect(await icon.getAttribute('data-kind')).toBe('dev');
    await icon.hover();
    const tip = await page.getByTestId('header-wallet-tooltip').innerText();
    expect(tip).toContain(profile.walletAddress.slice(0, 8));
    expect(tip).toContain(profile.walletAddress.slice(-4));
    expect(await walletStatus(token)).toEqual({ walletAddress: profile.walletAddress, isLoginWallet: true });

    // Reload: the status is asked again once the (dev) wallet is ready.
    await reload(page);
    await page.getByTestId('header-wallet').waitFor();
    expect(await page.getByTestId('header-link-wallet').count()).toBe(0);

    // The wallet home of the dev wallet: its panel.
    await page.getByTestId('header-wallet').click();
    const panel = page.getByTestId('wallet-panel');
    await panel.waitFor();
    expect(await panel.getByTestId('wallet-panel-address').innerText()).toBe(profile.walletAddress);
    expect(await panel.getByTestId('dev-wallet-badge').innerText()).toBe('开发钱包');
    await expect.poll(() => panel.getByTestId('wallet-panel-network').innerText()).toContain('1029');
    await panel.getByTestId('wallet-panel-disconnect').click();
    await page.getByTestId('header-link-wallet').waitFor();
    await expect.poll(() => toastText(page).innerText()).toBe('钱包已断开连接');
    expect(await walletStatus(token)).toEqual({ walletAddress: profile.walletAddress, isLoginWallet: false });

    // Link again (same key, same address), then log out of the site: the wallet state goes too.
    await page.getByTestId('header-link-wallet').click();
    await page.getByTestId('header-wallet').waitFor();
    expect(await walletStatus(token)).toMatchObject({ isLoginWallet: true });
    await page.getByTestId('header-user-menu').click();
    await page.getByTestId('menu-logout').click();
    await page.getByTestId('header-login').waitFor();
    expect(await page.getByTestId('header-wallet').count()).toBe(0);
    await page.getByTestId('header-link-wallet').click();
    await expect.poll(() => toastText(page).innerText()).toBe('请先登录，再连接钱包');
    await ctx.close();
  });

  it('the dev wallet sends a sponsored approve on the embedded chain; the asset page lists the chain record', async () => {
    const { ctx, page } = await loggedInPage();
    await page.getByTestId('header-link-wallet').click();
    await page.getByTestId('header-wallet').waitFor();
    const address = (await page.getByTestId('header-wallet').getAttribute('data-address'))!;
    const devKey = await page.evaluate((k) => localStorage.getItem(k), DEV_WALLET_STORAGE.key);
    expect(devKey).toMatch(/^0x[0-9a-f]{64}$/);

    const info = (await (await fetch(`${server.base}/mvapi/public/chain/v1/info`)).json()).data;
    expect(info).toMatchObject({ enabled: true, devWallet: true, networkId: 1029, rpcPath: '/mvapi/public/chain/v1/rpc' });
    const rpcUrl = server.base + info.rpcPath;
    const wallet = (key: string) =>
      new DevWalletProvider({ rpcUrl, networkId: 1029, store: memoryStore({ [DEV_WALLET_STORAGE.key]: key, [DEV_WALLET_STORAGE.authorized]: '1' }) });
    // A collectible for this user (dev chain route): the server's mint job mints it to the linked
    // dev-wallet address through the operator queue, like any collectible.
    const token = await page.evaluate(() => localStorage.getItem('token'));
    const granted = (await server.api('/dev/grant-collectible', {}, { token: token! })).data as { goodsId: number; tokenId: string };
    const tokenId = BigInt(granted.tokenId);
    await waitMinted(server, granted.goodsId);

    // The user's dev wallet in Node with the browser's key (same address), 0 CFX.
    const user = wallet(devKey!);
    expect(user.address).toBe(address);
    expect(await user.rpc('cfx_getBalance', [address])).toBe('0x0');
    const mintRecords = async () => (await (await fetch(`${server.base}/mvapi/public/goods/v1/list/chainRecord/?tokenId=${tokenId}`)).json()).data as { txHash: string }[];
    await expect.poll(async () => (await mintRecords()).length, { timeout: 20_000 }).toBeGreaterThanOrEqual(1);
    const mint = { hash: (await mintRecords())[0]!.txHash };

    // It puts the token on shelf: approve(exchange, tokenId), paid by the contract's sponsor.
    const approve = await sendTransactionAndWait(
      user,
      { from: address, to: info.collectible, data: `0x095ea7b3${word(info.exchangeHex)}${word(tokenId.toString(16))}` },
      { intervalMs: 300 },
    );
    expect(approve.status).toBe('success');
    if (approve.status === 'success') expect(approve.receipt).toMatchObject({ gasCoveredBySponsor: true, storageCoveredBySponsor: true });

    // Indexed → GET /goods/v1/list/chainRecord/ lists both (oldest first).
    const recordsUrl = `${server.base}/mvapi/public/goods/v1/list/chainRecord/?tokenId=${tokenId}`;
    await expect.poll(async () => (await (await fetch(recordsUrl)).json()).data.length, { timeout: 20_000 }).toBeGreaterThanOrEqual(2);
    const records = await (await fetch(recordsUrl)).json();
    expect(records.data.slice(0, 2)).toMatchObject([
      { event: 'Transfer', to: address, tokenId: String(tokenId), txHash: mint.hash },
      { event: 'Approval', from: address, tokenId: String(tokenId), txHash: approve.hash },
    ]);

    // The asset page of this very collectible shows them.
    await goto(page, `${server.base}/assets/${granted.goodsId}`);
    const rows = page.getByTestId('chain-record-row');
    await rows.first().waitFor();
    const events = await rows.evaluateAll((els) => els.map((e) => e.getAttribute('data-event')));
    expect(events.slice(0, 2)).toEqual(['mint', 'approve']);
    expect(await rows.nth(0).innerText()).toContain('铸造');
    expect(await rows.nth(1).innerText()).toContain('授权');
    expect(await rows.nth(1).innerText()).toMatch(/\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}/);
    const link = rows.nth(0).getByTestId('chain-record-tx');
    expect(await link.getAttribute('href')).toBe(`${info.explorerUrl}/transaction/${mint.hash}`);
    expect(await link.getAttribute('target')).toBe('_blank');
    await ctx.close();
  });

  it('chain record on the asset page: empty, and an error with retry', async () => {
    // A collectible of a user without a wallet is not minted yet: no chain records.
    const token = await apiRegister(server, newMobile());
    const goods = { id: ((await server.api('/dev/grant-collectible', {}, { token })).data as { goodsId: number }).goodsId };
    const page = await browser.newPage();
    await goto(page, `${server.base}/assets/${goods.id}`);
    await page.getByTestId('chain-record-empty').waitFor();
    expect(await page.getByTestId('chain-record-empty').innerText()).toBe('暂无链上记录');
    const isRecord = (url: URL) => url.pathname.endsWith('/goods/v1/list/chainRecord/');
    await page.route(isRecord, (route) => route.abort());
    await reload(page);
    await page.getByTestId('chain-record-error').waitFor();
    await page.unroute(isRecord);
    await page.getByTestId('chain-record-retry').click();
    await page.getByTestId('chain-record-empty').waitFor();
    await page.close();
  });
});
