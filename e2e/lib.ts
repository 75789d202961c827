import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { chromium, type Browser, type BrowserContext, type Locator, type Page, type Response } from 'playwright-core';
import { expect } from 'vitest';
import { DevWalletProvider } from '../apps/web/app/lib/wallet/dev-wallet/provider.ts';
import { solvePowNow as solvePow } from '@cfx/protocol/pow.ts';
import { DEV_WALLET_STORAGE, memoryStore } from '../apps/web/app/lib/wallet/dev-wallet/keys.ts';
import { STORAGE } from '../apps/web/app/config.ts';

const root = path.resolve(import.meta.dirname, '..');

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const port = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(port));
    });
    s.on('error', reject);
  });
}

export interface Server {
  base: string;
  dataDir: string;
  proc: ChildProcess;
  stop(): Promise<void>;
  /** The sandbox outbox's newest code for a phone. */
  smsCode(mobile: string): Promise<string>;
  /** How many codes the sandbox outbox holds for a phone. */
  smsCount(mobile: string): Promise<number>;
  /** The hole offset of a slider challenge, read from the server's database (the test plays the human). */
  captchaAnswer(id: string): number;
  api(p: string, body?: unknown, headers?: Record<string, string>): Promise<any>;
}

/** Starts the real server (built web app, SQLite in a fresh DATA_DIR, sandbox SMS, slider captcha) on a free port. */
export async function startServer(env: Record<string, string> = {}): Promise<Server> {
  // A port picked free can be taken by another process (another server and its chain run beside
  // the tests) before the server binds it: start again on new ports, at most three times.
  for (let attempt = 1; ; attempt++) {
    try {
      return await startServerOnce(env);
    } catch (err) {
      if (attempt >= 3 || !(err instanceof PortTakenError)) throw err;
    }
  }
}

class PortTakenError extends Error {}

async function startServerOnce(env: Record<string, string>): Promise<Server> {
  const port = await freePort();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cfx-e2e-'));
  const logFile = path.join(dataDir, 'server.log');
  const out = fs.openSync(logFile, 'a');
  const proc = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'apps/server/src/main.ts')], {
    cwd: root,
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'warn', NODE_ENV: 'production', DEV_MODE: '1', ...env },
    stdio: ['ignore', out, out],
  });
  fs.closeSync(out);
  const base = `http://127.0.0.1:${port}`;
  // The embedded chain starts (and deploys its contracts) before the server listens: on a loaded
  // 2-core machine that can take a while.
  const deadline = Date.now() + 110_000;
  for (;;) {
    if (proc.exitCode !== null || proc.signalCode !== null) {
      const log = fs.readFileSync(logFile, 'utf8');
      removeDataDir(dataDir);
      if (/EADDRINUSE|address already in use/i.test(log)) throw new PortTakenError(`port taken: ${log.slice(-500)}`);
      throw new Error(`server exited: ${log}`);
    }
    try {
      if ((await fetch(`${base}/healthz`)).ok) break;
    } catch { /* not yet */ }
    if (Date.now() > deadline) {
      proc.kill('SIGKILL');
      throw new Error(`server did not become healthy: ${fs.readFileSync(logFile, 'utf8').slice(-2000)}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  let db: Database.Database | undefined;
  const api = async (p: string, body: unknown = {}, headers: Record<string, string> = {}) =>
    (await fetch(`${base}/mvapi/public${p}`, { method: 'POST', headers: { 'content-type': 'application/json', channel: 'pc', ...headers }, body: JSON.stringify(body) })).json();
  return {
    base,
    dataDir,
    proc,
    api,
    async smsCode(mobile) {
      const r = await (await fetch(`${base}/mvapi/public/dev/sms-outbox?mobile=${mobile}`)).json();
      return r.data[0]?.code ?? '';
    },
    async smsCount(mobile) {
      const r = await (await fetch(`${base}/mvapi/public/dev/sms-outbox?mobile=${mobile}`)).json();
      return r.data.length;
    },
    captchaAnswer(id) {
      db ??= new Database(path.join(dataDir, 'marketplace.sqlite'), { readonly: true, fileMustExist: true });
      const row = db.prepare('select answer_x from captcha_challenges where id = ?').get(id) as { answer_x: number } | undefined;
      if (!row) throw new Error(`no captcha challenge ${id}`);
      return row.answer_x;
    },
    async stop() {
      db?.close();
      // The server's own children (its embedded chain node) are known only while it runs.
      const children = proc.pid ? childPids(proc.pid) : [];
      if (proc.exitCode === null && proc.signalCode === null) {
        const exited = new Promise((r) => proc.once('exit', r));
        proc.kill('SIGTERM');
        // A clean stop ends the chain node too; never let a stuck shutdown hang the suite.
        const timer = setTimeout(() => proc.kill('SIGKILL'), 20_000);
        await exited;
        clearTimeout(timer);
      }
      // A server killed mid-shutdown leaves its chain node to stop on its own (it does when its
      // parent goes), writing into the data directory meanwhile: wait for it before removing it.
      await waitGone(children, 60_000);
      removeDataDir(dataDir);
    },
  };
}

/**
 * Removes a server's data directory once the server and its children have exited (`stop` waits
 * for them). The removal is still retried (Node waits 250 ms longer before each retry: ≈ 9 s in
 * all): two CI runs failed it with ENOTEMPTY while the chain node of a server killed mid-shutdown
 * still wrote its last files.
 */
function removeDataDir(dataDir: string) {
  fs.rmSync(dataDir, { recursive: true, force: true, maxRetries: 8, retryDelay: 250 });
}

/** A process: its pid and its start time (so that a pid reused by another process is not taken for it). */
interface Proc {
  pid: number;
  start: string;
}

/** Field 22 of /proc/<pid>/stat (the start time in clock ticks), or undefined when the process is gone. */
function startOf(pid: number): string | undefined {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
  } catch {
    return undefined;
  }
}

/** The children of a process, from Linux's /proc (none where it is missing). */
function childPids(pid: number): Proc[] {
  try {
    return fs
      .readdirSync(`/proc/${pid}/task`)
      .flatMap((tid) => fs.readFileSync(`/proc/${pid}/task/${tid}/children`, 'utf8').trim().split(/\s+/))
      .filter(Boolean)
      .map((c) => ({ pid: Number(c), start: startOf(Number(c)) ?? '' }))
      .filter((c) => c.start !== '');
  } catch {
    return [];
  }
}

const alive = (p: Proc) => startOf(p.pid) === p.start;

/** Waits until these processes have exited; after `ms`, kills what is left. */
async function waitGone(procs: Proc[], ms: number) {
  const deadline = Date.now() + ms;
  while (procs.some(alive) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
  for (const p of procs.filter(alive)) process.kill(p.pid, 'SIGKILL');
  while (procs.some(alive) && Date.now() < deadline + 5000) await new Promise((r) => setTimeout(r, 100));
}

export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage'],
  });
}

let seq = 0;
export function newMobile(): string {
  seq++;
  return `137${String(process.pid % 10000).padStart(4, '0')}${String(seq).padStart(4, '0')}`;
}

/** Solves the slider captcha that is open on the page by dragging the handle like a person. */
export async function solveSlider(page: Page, server: Server, challengeId: string) {
  const x = server.captchaAnswer(challengeId);
  const handle = page.getByTestId('captcha-handle');
  const bg = page.getByTestId('captcha-bg');
  await handle.waitFor();
  const hb = (await handle.boundingBox())!;
  const bgb = (await bg.boundingBox())!;
  const scale = bgb.width / 300; // image pixels -> CSS pixels
  const startX = hb.x + hb.width / 2, y = hb.y + hb.height / 2;
  await page.mouse.move(startX, y);
  await page.mouse.down();
  const steps = 24;
  for (let i = 1; i <= steps; i++) {
    await page.mouse.move(startX + (x * scale * i) / steps, y + (i % 2));
    // Pacing, not synchronisation: a human drag lasts longer than the server's minimum drag time.
    await page.waitForTimeout(15);
  }
  await page.mouse.up();
}

/** Waits for the next slider challenge the page fetches and returns its id. */
export function nextChallenge(page: Page): Promise<string> {
  return page
    .waitForResponse((r) => r.url().endsWith('/mvapi/public/captcha/v1/get'))
    .then(async (r) => (await r.json()).data.id as string);
}

/** Registers a user through the API (solving a slider challenge as the server expects) and returns the token. */
export async function apiRegister(server: Server, mobile: string, password = 'abc123!'): Promise<string> {
  const ch = await server.api('/captcha/v1/get');
  const x = server.captchaAnswer(ch.data.id);
  const track = Array.from({ length: 21 }, (_, i) => [i * 20, Math.round((x * i) / 20)]);
  const ok = await server.api('/captcha/v1/check', { id: ch.data.id, x, track, pow: solvePow(ch.data.id, ch.data.pow.bits) });
  const sent = await server.api('/api/user/v1/smscode', { mobile, type: '1', NECaptchaValidate: ok.data.NECaptchaValidate });
  if (sent.status !== '000000') throw new Error(`smscode: ${sent.message}`);
  const r = await server.api('/api/user/v1/regist', { mobile, pwd: Buffer.from(password).toString('base64'), smsCode: await server.smsCode(mobile) });
  if (r.status !== '000000') throw new Error(`regist: ${r.message}`);
  return r.data.token;
}

/* ───────────── navigation: every new document is used only once it is hydrated ───────────── */

/** The web app sets this on <html> once React has hydrated (root.tsx); client navigations keep it. */
export const HYDRATED = 'html[data-hydrated="1"]';

/** Waits until the page's current document is hydrated (after a navigation that loads a new document). */
export async function hydrated(page: Page): Promise<void> {
  await page.waitForSelector(HYDRATED, { state: 'attached', timeout: 30_000 });
}

/**
 * page.goto, then waits for the hydration marker, so no click can race React's hydration. Hydration
 * needs the parsed document and its module scripts, not every image: no wait for the load event.
 */
export async function goto(page: Page, url: string): Promise<Response | null> {
  const res = await page.goto(url, { waitUntil: 'domcontentloaded' });
  await hydrated(page);
  return res;
}

/** page.reload, then waits for the hydration marker of the new document. */
export async function reload(page: Page): Promise<Response | null> {
  const res = await page.reload({ waitUntil: 'domcontentloaded' });
  await hydrated(page);
  return res;
}

/**
 * Clicks something that reloads the page (the language switch sets its cookie and reloads), waits for the new
 * document's load event, then for its hydration. A poll on the old document's text alone races the reload: on a
 * loaded machine the new document can take longer than one poll's patience, and the old one is still there.
 */
export async function clickAndReload(page: Page, target: Locator, timeout = 60_000): Promise<void> {
  await Promise.all([page.waitForEvent('load', { timeout }), target.click()]);
  await page.waitForSelector(HYDRATED, { state: 'attached', timeout });
}

/** Waits for a URL that is reached by loading a new document (a redirect, a reload), then for hydration. */
export async function landOn(page: Page, url: string | RegExp, timeout = 30_000): Promise<void> {
  await page.waitForURL(url, { timeout });
  await hydrated(page);
}

/* ───────────── fixtures through the API (no SQL writes from the browser tests) ───────────── */

/** A valid GB 11643 number of an adult born on 1990-01-01 (region 110101); `seq` is 3 digits. */
export function adultId(seq: string): string {
  const first17 = `11010119900101${seq}`;
  const w = [7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2];
  const sum = [...first17].reduce((s, c, i) => s + Number(c) * w[i]!, 0);
  return first17 + '10X98765432'[sum % 11];
}

let idSeq = 300;
/**
 * A fresh adult ID number per call, so every test account is its own identity: purchase limits,
 * lottery entries and the accounts-per-identity cap (KYC_ACCOUNTS_PER_IDENTITY) count per ID number.
 */
export function nextAdultId(): string {
  if (++idSeq > 999) throw new Error('out of test ID numbers');
  return adultId(String(idSeq));
}

/** Verifies the user's real name through the API (the sandbox KYC). */
export async function verifyRealName(server: Server, token: string, name = '李四', idNumber = nextAdultId()): Promise<void> {
  const r = await server.api('/api/user/profile/v1/submitrealname', { name, idNumber }, { token });
  if (r.status !== '000000') throw new Error(`submitrealname: ${r.status} ${r.message}`);
}

export interface DevWallet {
  /** The dev wallet's private key, as the browser keeps it in localStorage. */
  key: string;
  /** Its cfx: address. */
  address: string;
}

/**
 * Links a new dev wallet to the user through the API, exactly as the browser does it (walletchallenge →
 * personal_sign with the dev wallet → walletlogin). Give the key to `userContext` to have the browser use it.
 */
export async function linkDevWallet(server: Server, token: string): Promise<DevWallet> {
  const info = (await (await fetch(`${server.base}/mvapi/public/chain/v1/info`)).json()).data;
  const store = memoryStore();
  const wallet = new DevWalletProvider({ rpcUrl: server.base + info.rpcPath, networkId: info.networkId, store });
  const [address] = (await wallet.request({ method: 'cfx_requestAccounts' })) as string[];
  const challenge = await server.api('/api/user/v1/walletchallenge', { walletAddress: address }, { token });
  if (challenge.status !== '000000') throw new Error(`walletchallenge: ${challenge.message}`);
  const code = (await wallet.request({ method: 'personal_sign', params: [challenge.data.message, address] })) as string;
  const linked = await server.api('/api/user/v1/walletlogin', { walletAddress: address, code }, { token });
  if (linked.status !== '000000') throw new Error(`walletlogin: ${linked.message}`);
  return { key: store.get(DEV_WALLET_STORAGE.key)!, address: linked.data?.walletAddress || address! };
}

/** GET /goods/v1/details/ of a collectible. */
export async function goodsDetails(server: Server, goodsId: number): Promise<any> {
  return (await (await fetch(`${server.base}/mvapi/public/goods/v1/details/?id=${goodsId}`)).json()).data;
}

/** A new collectible for the user (dev route): pending on chain until the mint job mints it to the linked wallet. */
export async function grantCollectible(server: Server, token: string, projectId?: number): Promise<{ goodsId: number; tokenId: bigint }> {
  const r = await server.api('/dev/grant-collectible', projectId === undefined ? {} : { projectId }, { token });
  if (r.status !== '000000') throw new Error(`grant-collectible: ${r.status} ${r.message}`);
  return { goodsId: r.data.goodsId, tokenId: BigInt(r.data.tokenId) };
}

/** Waits (through the API) until the mint job has minted the collectible. */
export async function waitMinted(server: Server, goodsId: number): Promise<void> {
  await expect.poll(async () => (await goodsDetails(server, goodsId))?.chainStatus, { timeout: 90_000, interval: 300 }).toBe('minted');
}

export interface UserContextOptions {
  token?: string;
  wallet?: DevWallet;
  lang?: 'zh' | 'en';
  viewport?: { width: number; height: number };
}

/**
 * A browser context as a returning user has it: the session token (and, with `wallet`, the dev wallet
 * linked last) already in localStorage before the first page script runs. Seeded once per context,
 * so a logout or a disconnect inside the test is not undone by the next navigation.
 */
export async function userContext(browser: Browser, server: Server, opts: UserContextOptions = {}): Promise<BrowserContext> {
  const ctx = await browser.newContext({ viewport: opts.viewport ?? { width: 1280, height: 900 } });
  if (opts.lang) await ctx.addCookies([{ name: 'lang', value: opts.lang, url: server.base }]);
  const seed: Record<string, string> = {};
  if (opts.token) seed[STORAGE.token] = opts.token;
  if (opts.wallet) {
    seed[DEV_WALLET_STORAGE.key] = opts.wallet.key;
    seed[DEV_WALLET_STORAGE.authorized] = '1';
    seed[STORAGE.walletKind] = 'dev';
  }
  if (Object.keys(seed).length) {
    await ctx.addInitScript((items) => {
      try {
        if (localStorage.getItem('e2e.seeded')) return;
        for (const [k, v] of Object.entries(items)) localStorage.setItem(k, v);
        localStorage.setItem('e2e.seeded', '1');
      } catch { /* about:blank has no storage */ }
    }, seed);
  }
  return ctx;
}

/**
 * A new context for the user (see `userContext`) with one page open at `path`, hydrated; with a token the
 * header has the user's menu, with a wallet it shows the linked wallet (walletloginstatus answered).
 */
export async function openAs(browser: Browser, server: Server, opts: UserContextOptions = {}, urlPath = '/'): Promise<{ ctx: BrowserContext; page: Page }> {
  const ctx = await userContext(browser, server, opts);
  const page = await ctx.newPage();
  await goto(page, server.base + urlPath);
  if (opts.token) await page.getByTestId('header-user-menu').waitFor();
  if (opts.wallet) await page.getByTestId('header-wallet').waitFor();
  return { ctx, page };
}

/* ───────────── bank cards ───────────── */

let cardSeq = 0;

/**
 * A fresh Luhn-valid 19-digit ICBC debit card number (BIN 622202), unique per call in this run. It never ends
 * in 0000 or 4444, the sandbox bank's refused and mismatching cards (docs/payouts.md).
 */
export function testCardNumber(): string {
  for (;;) {
    const body = `622202${String(Date.now()).slice(-7)}${String(process.pid % 10000).padStart(4, '0')}${cardSeq++ % 10}`;
    for (let d = 0; d <= 9; d++) {
      const digits = body + d;
      let sum = 0;
      for (let i = 0; i < digits.length; i++) {
        let x = Number(digits[digits.length - 1 - i]);
        if (i % 2 === 1) x = x * 2 > 9 ? x * 2 - 9 : x * 2;
        sum += x;
      }
      if (sum % 10 === 0 && !digits.endsWith('0000') && !digits.endsWith('4444')) return digits;
    }
  }
}
