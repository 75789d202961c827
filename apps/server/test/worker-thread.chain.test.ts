import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Conflux } from 'js-conflux-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toBase32Address } from '@cfx/protocol/address.ts';
import { loadArtifact } from '@cfx/contracts/src/artifacts.ts';
import { loadConfig } from '../src/config.ts';
import { buildApp, type App } from '../src/app.ts';
import { insertRelease, insertTrader } from './fixtures/market-setup.ts';
import { freePort, waitFor } from './process-helpers.ts';

/**
 * WORKER_THREAD=1 on the embedded defaults (SQLite, embedded node): one real `main.ts` process whose
 * request thread never takes the worker lease and whose worker thread does — with a chain attached to
 * the node the main thread started. A pending collectible written beside it is minted by that
 * thread's mint worker and operator queue (the token's owner on chain is the buyer's wallet), and a
 * SIGTERM ends the thread and the process cleanly: exit 0, the lease released.
 * Skipped with TEST_PG_URL (that run is about PostgreSQL).
 */
const serverDir = path.resolve(import.meta.dirname, '..');

describe.skipIf(!!process.env.TEST_PG_URL)('WORKER_THREAD=1: the worker role in a thread of the server process', () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cfx-thread-chain-'));
  let child: ChildProcess;
  let out = '';
  let exit: Promise<number | null>;
  let port = 0;
  let rpcPort = 0;
  let tool: App;
  const env = { DEV_MODE: '1', CAPTCHA_PROVIDER: 'test', DEMO_DATA: '0', SERVE_WEB: '0', DATA_DIR: dataDir, PAYMENT_SANDBOX_SECRET: 'test-sandbox-secret', LOG_LEVEL: 'info', CHAIN_RECEIPT_INTERVAL_MS: '100' };

  /** Starts the server; its output so far on failure. A port taken meanwhile (another test's node) starts it again on new ports. */
  async function start(attempt = 1): Promise<void> {
    [port, rpcPort] = [await freePort(), await freePort()];
    out = '';
    child = spawn(process.execPath, ['--import', 'tsx', path.join(serverDir, 'src/main.ts')], {
      cwd: serverDir,
      env: { ...process.env, ...env, WORKER_THREAD: '1', PORT: String(port), HOST: '127.0.0.1', CHAIN_NODE_RPC_PORT: String(rpcPort), CHAIN_NODE_P2P_PORT: String(await freePort()) },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout!.on('data', (b: Buffer) => (out += b.toString('utf8')));
    child.stderr!.on('data', (b: Buffer) => (out += b.toString('utf8')));
    exit = new Promise((resolve) => child.on('exit', (code) => resolve(code)));
    const exited = () => child.exitCode !== null || child.signalCode !== null;
    try {
      await waitFor(async () => /worker thread ready/.test(out) || (exited() && 'exited'), 150_000, 'the worker thread');
    } catch (err) {
      if (!exited()) child.kill('SIGKILL');
      throw new Error(`${(err as Error).message}; the server's output:\n${out.slice(-4000)}`, { cause: err });
    }
    if (!exited()) return;
    if (attempt < 3 && /EADDRINUSE|address already in use/i.test(out)) return start(attempt + 1);
    throw new Error(`the server exited (${child.exitCode ?? child.signalCode}) before its worker thread was ready:\n${out.slice(-4000)}`);
  }

  beforeAll(async () => {
    await start();
    // Beside the server, the test's own view of the database (no chain, never the lease).
    tool = await buildApp(loadConfig({ ...env, CHAIN: 'off', MARKET_JOBS: '0' }, { dataDir, serveWeb: false }), { logger: false });
  }, 200_000);

  afterAll(async () => {
    if (child && child.exitCode === null) child.kill('SIGKILL');
    await tool?.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('the thread holds the lease and mints; the request thread answers and never takes the lease', async () => {
    const health = (await (await fetch(`http://127.0.0.1:${port}/healthz`)).json()) as { data: { worker: string; chain: string } };
    expect(health.data).toMatchObject({ worker: 'thread', chain: 'ok' });
    const lease = await tool.ctx.db.kysely.selectFrom('worker_lease').selectAll().where('id', '=', 1).executeTakeFirstOrThrow();
    expect(lease.holder?.split(':')[1]).toBe(String(child.pid));
    expect(out.match(/worker lease acquired/g)).toHaveLength(1);

    const db = tool.ctx.db.kysely;
    const collectible = (await db.selectFrom('chain_meta').select('value').where('key', '=', 'collectible_address').executeTakeFirstOrThrow()).value;
    const release = await insertRelease(tool.ctx);
    const buyer = await insertTrader(tool.ctx);
    const tokenId = 7_000_001;
    const now = Date.now();
    const goods = await db
      .insertInto('goods')
      .values({
        project_id: release.projectId, serial: 1, token_id: tokenId, contract: toBase32Address(collectible, 1029), chain_status: 'pending', mint_tx_hash: null, minted_at: null,
        owner_user_id: buyer.userId, name: '藏品', image: '/img.png', attributes: '[]', status: 'held', sale_price_fen: null, listed_at: null, last_price_fen: 9900, acquired_at: now, created_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const minted = await waitFor(async () => {
      const g = await db.selectFrom('goods').select(['chain_status', 'mint_tx_hash']).where('id', '=', goods.id).executeTakeFirstOrThrow();
      return g.chain_status === 'minted' && g;
    }, 60_000, 'the mint');
    expect(minted.mint_tx_hash).toMatch(/^0x[0-9a-f]{64}$/);
    const sdk = new Conflux({ url: `http://127.0.0.1:${rpcPort}`, networkId: 1029 });
    const c = sdk.Contract({ abi: (await loadArtifact('Collectible')).abi as never, address: toBase32Address(collectible, 1029) }) as unknown as { ownerOf(id: bigint): Promise<string> };
    expect(toBase32Address(await c.ownerOf(BigInt(tokenId)), 1029)).toBe(buyer.address);
    const txs = await db.selectFrom('chain_txs').select(['status', 'kind']).where('tx_hash', '=', minted.mint_tx_hash).execute();
    expect(txs).toEqual([{ status: 'confirmed', kind: 'mint' }]);
  }, 90_000);

  it('SIGTERM: the thread and the process end cleanly and the lease is released', async () => {
    child.kill('SIGTERM');
    expect(await Promise.race([exit, new Promise((r) => setTimeout(r, 40_000, 'timeout'))])).toBe(0);
    const lease = await tool.ctx.db.kysely.selectFrom('worker_lease').selectAll().where('id', '=', 1).executeTakeFirstOrThrow();
    expect(lease.holder).toBeNull();
    expect(out).toMatch(/SIGTERM: shutting down/);
  }, 60_000);
});
