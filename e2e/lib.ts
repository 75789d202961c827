import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { chromium, type Browser, type Page } from 'playwright-core';

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
  const port = await freePort();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cfx-e2e-'));
  const logFile = path.join(dataDir, 'server.log');
  const out = fs.openSync(logFile, 'a');
  const proc = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'apps/server/src/main.ts')], {
    cwd: root,
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'warn', NODE_ENV: 'production', DEV_MODE: '1', ...env },
    stdio: ['ignore', out, out],
  });
  const base = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (proc.exitCode !== null) throw new Error(`server exited: ${fs.readFileSync(logFile, 'utf8')}`);
    try {
      if ((await fetch(`${base}/healthz`)).ok) break;
    } catch { /* not yet */ }
    if (Date.now() > deadline) throw new Error('server did not become healthy');
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
      if (proc.exitCode === null) {
        proc.kill('SIGTERM');
        await new Promise((r) => proc.once('exit', r));
      }
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
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
  const ok = await server.api('/captcha/v1/check', { id: ch.data.id, x, track });
  const sent = await server.api('/api/user/v1/smscode', { mobile, type: '1', NECaptchaValidate: ok.data.NECaptchaValidate });
  if (sent.status !== '000000') throw new Error(`smscode: ${sent.message}`);
  const r = await server.api('/api/user/v1/regist', { mobile, pwd: Buffer.from(password).toString('base64'), smsCode: await server.smsCode(mobile) });
  if (r.status !== '000000') throw new Error(`regist: ${r.message}`);
  return r.data.token;
}
