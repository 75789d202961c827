import { spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toBase32Address } from '@cfx/protocol/address.ts';
import { addressOfPrivateKey } from '@cfx/contracts/src/order-signature.ts';
import { deployContracts } from '@cfx/contracts/src/deploy.ts';
import { startEmbeddedNode } from '@cfx/contracts/src/embedded-node.ts';
import { loadConfig } from '../src/config.ts';
import { buildApp, type App } from '../src/app.ts';
import { Account, balanceOf, ledgerProblems } from '../src/modules/ledger/ledger.ts';
import { createDropRelease } from '../src/modules/drops/create-drop-release.ts';
import { call } from './helpers.ts';
import { insertGoods, insertRelease, insertTrader, type Trader } from './fixtures/market-setup.ts';
import { listOnChain, mintTo } from './fixtures/market-chain-flow.ts';
import { freePort, sleep, waitFor } from './process-helpers.ts';

/**
 * Any number of identical server processes (jobs/worker-lease.ts, worker-role.ts): three real
 * `main.ts` processes on one PostgreSQL database and ONE embedded @xcfx/node (CHAIN_RPC_URL), all
 * with the same configuration. The lease holder runs the worker role (fulfilment jobs, the mint job,
 * the operator queue). While paid drop orders are being fulfilled and minted:
 * - the holder is killed (SIGKILL): another process holds the lease within 10 s, every paid unit is
 *   minted exactly once (goods rows, ownerOf on chain), the operator's nonces have no gap and no
 *   double, no order completes twice, the ledger is clean;
 * - the holder is paused (SIGSTOP) past its lease, another takes over, then it resumes (SIGCONT): it
 *   sends no transaction and finishes no job after that;
 * - the holder is killed while paid resale (consignment) orders are being settled: each settles once
 *   (one executeOrder, the buyer owns the token, the seller is credited once).
 * The test process itself is a fourth process with MARKET_JOBS=0 (never takes the lease) that seeds
 * the drop, the buyers and places and pays the orders through its API.
 * Needs TEST_PG_URL and TEST_CHAIN=1.
 */
const PG = process.env.TEST_PG_URL;
const run = PG && process.env.TEST_CHAIN === '1';
const serverDir = path.resolve(import.meta.dirname, '..');

interface Server {
  pid: number;
  child: ChildProcess;
  lines: { time: number; msg: string; [k: string]: unknown }[];
  exited: boolean;
}

describe.skipIf(!run)('worker role failover: 3 server processes on PostgreSQL and one chain node', () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cfx-failover-'));
  const servers: Server[] = [];
  let node: Awaited<ReturnType<typeof startEmbeddedNode>>;
  let tool: App;
  let dbName = '';
  let projectId = 0;
  const orders: { orderNo: string; buyer: Trader; count: number }[] = [];
  const SALES = 8;
  const sellerKeys: string[] = [];

  beforeAll(async () => {
    const ownerKey = `0x${crypto.randomBytes(32).toString('hex')}`;
    const operatorKey = `0x${crypto.randomBytes(32).toString('hex')}`;
    // The resale sellers' wallets pay their own approve (the contracts are not sponsored here).
    for (let i = 0; i < SALES; i++) sellerKeys.push(`0x${crypto.randomBytes(32).toString('hex')}`);
    node = await startEmbeddedNode({ genesisSecrets: [ownerKey, operatorKey, ...sellerKeys], devPackTxImmediately: true });
    const d = await deployContracts({ rpcUrl: node.rpcUrl, ownerPrivateKey: ownerKey, operator: addressOfPrivateKey(operatorKey, 1029), sponsor: false });
    dbName = `t_${crypto.randomBytes(6).toString('hex')}`;
    const admin = new pg.Client({ connectionString: PG });
    await admin.connect();
    await admin.query(`create database ${dbName} template template0 encoding 'UTF8'`);
    await admin.end();
    const u = new URL(PG!);
    u.pathname = `/${dbName}`;
    const env: Record<string, string> = {
      DEV_MODE: '1', CAPTCHA_PROVIDER: 'test', DEMO_DATA: '0', SERVE_WEB: '0', DATABASE_URL: u.toString(), DATA_DIR: dataDir,
      CHAIN_RPC_URL: node.rpcUrl, CHAIN_OPERATOR_KEY: operatorKey, CHAIN_COLLECTIBLE_ADDRESS: d.collectible, CHAIN_EXCHANGE_ADDRESS: d.exchange,
      CHAIN_RECEIPT_INTERVAL_MS: '200', CHAIN_INDEXER_INTERVAL_MS: '200', PAYMENT_SANDBOX_SECRET: 'test-sandbox-secret',
      MAX_UNPAID_ORDERS: '1000', DROP_ATTEMPTS_PER_SECOND: '1000', LOG_LEVEL: 'info',
    };
    // The seeding process: migrates, never takes the lease (MARKET_JOBS=0).
    tool = await buildApp(loadConfig({ ...env, MARKET_JOBS: '0' }, { dataDir, serveWeb: false }), { logger: false });
    for (let i = 0; i < 3; i++) {
      const port = await freePort();
      const child = spawn(process.execPath, ['--import', 'tsx', path.join(serverDir, 'src/main.ts')], {
        cwd: serverDir,
        env: { ...process.env, ...env, PORT: String(port), HOST: '127.0.0.1' },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      const s: Server = { pid: child.pid!, child, lines: [], exited: false };
      let buf = '';
      child.stdout!.on('data', (chunk: Buffer) => {
        buf += chunk.toString('utf8');
        let nl;
        while ((nl = buf.indexOf('\n')) >= 0) {
          const line = buf.slice(0, nl);
          buf = buf.slice(nl + 1);
          try {
            s.lines.push(JSON.parse(line));
          } catch {
            /* not a log line */
          }
        }
      });
      child.stderr!.on('data', () => {});
      child.on('exit', () => (s.exited = true));
      servers.push(s);
    }
    await waitFor(async () => servers.every((s) => s.lines.some((l) => /listening/i.test(l.msg))), 120_000, 'the three servers to listen');
    ({ projectId } = await createDropRelease(tool.ctx, null, { supply: 1000, priceFen: 990, perIdentityLimit: 50, maxPerOrder: 5 }));
  }, 240_000);

  afterAll(async () => {
    for (const s of servers) {
      if (s.exited) continue;
      try {
        process.kill(s.pid, 'SIGCONT');
        process.kill(s.pid, 'SIGKILL');
      } catch {
        /* gone */
      }
    }
    await tool?.close();
    await node?.stop();
    if (dbName) {
      const c = new pg.Client({ connectionString: PG });
      await c.connect();
      await c.query(`drop database if exists ${dbName} with (force)`).catch(() => {});
      await c.end();
    }
    fs.rmSync(dataDir, { recursive: true, force: true });
  }, 60_000);

  const lease = () => tool.ctx.db.kysely.selectFrom('worker_lease').selectAll().where('id', '=', 1).executeTakeFirstOrThrow();
  const holderServer = async () => {
    const l = await lease();
    return l.holder ? servers.find((s) => l.holder!.split(':')[1] === String(s.pid)) : undefined;
  };

  /** A buyer orders `count` units and pays them from the balance (through the seeding process's API). */
  async function buyAndPay(count: number) {
    const buyer = await insertTrader(tool.ctx);
    const order = await call(tool, '/payment/nftOrder/V1/createOrder', { projectId, count }, buyer.h);
    expect(order.status, order.message).toBe('000000');
    const orderNo = order.data.orderNo as string;
    expect((await call(tool, '/payment/sandbox/topup', { amount: 990 * count }, buyer.h)).status).toBe('000000');
    const paid = await call(tool, '/payment/nftOrder/V1/pay', { orderNo, method: 'balance' }, buyer.h);
    expect(paid.data?.status, paid.message).toBe('paid');
    orders.push({ orderNo, buyer, count });
  }

  /** Every paid order completed, every unit minted once to its buyer, nonces continuous, no failed transaction, a clean ledger. */
  async function expectAllMintedOnce() {
    await waitFor(
      async () => {
        const rows = await tool.ctx.db.kysely.selectFrom('goods').select(['chain_status']).where('drop_order_no', 'in', orders.map((o) => o.orderNo)).execute();
        return rows.length === orders.reduce((n, o) => n + o.count, 0) && rows.every((g) => g.chain_status === 'minted');
      },
      120_000,
      'every paid unit minted',
    );
    const goods = await tool.ctx.db.kysely.selectFrom('goods').select(['id', 'token_id', 'drop_order_no', 'owner_user_id']).where('drop_order_no', 'in', orders.map((o) => o.orderNo)).execute();
    const tokenIds = goods.map((g) => Number(g.token_id));
    expect(new Set(tokenIds).size).toBe(goods.length);
    const collectible = tool.ctx.chain!.contracts.collectible;
    for (const o of orders) {
      const mine = goods.filter((g) => g.drop_order_no === o.orderNo);
      expect(mine, o.orderNo).toHaveLength(o.count);
      for (const g of mine) expect(toBase32Address(await collectible.ownerOf(BigInt(g.token_id!)), 1029)).toBe(o.buyer.address);
      const detail = await waitFor(async () => {
        const r = await call(tool, '/payment/nftOrder/V1/getNftOrderDetail', { orderNo: o.orderNo }, o.buyer.h);
        return r.data?.status === 'completed' && r.data;
      }, 30_000, `order ${o.orderNo} completed`);
      expect(detail.drop.items).toHaveLength(o.count);
    }
    // The operator's transactions: one row per nonce, no gap, no double, and the chain agrees.
    const txs = await tool.ctx.db.kysely.selectFrom('chain_txs').select(['nonce', 'status', 'error', 'kind']).where('nonce', 'is not', null).orderBy('nonce').execute();
    const nonces = txs.map((t) => Number(t.nonce));
    expect(nonces).toEqual(Array.from({ length: nonces.length }, (_, i) => nonces[0]! + i));
    expect(txs.filter((t) => t.status !== 'confirmed')).toEqual([]);
    const chainNonce = Number(await tool.ctx.chain!.sdk.cfx.getNextNonce(tool.ctx.chain!.operatorAddress));
    expect(chainNonce).toBe(nonces[nonces.length - 1]! + 1);
    // Each unit was minted by exactly one transaction: minting an existing token reverts, and none failed (above).
    const jobs = await tool.ctx.db.kysely.selectFrom('jobs').select(['status']).where('status', '!=', 'done').execute();
    expect(jobs.filter((j) => j.status === 'running')).toEqual([]);
    expect(await ledgerProblems(tool.ctx.db.kysely)).toEqual([]);
    return { txs: nonces.length };
  }

  it('the holder killed (SIGKILL) during a drop: another process holds the lease within 10 s, every paid unit minted exactly once', async () => {
    const first = await waitFor(holderServer, 30_000, 'a lease holder');
    // Orders paid before and during the failover (the mint job batches them into several transactions).
    for (let i = 0; i < 10; i++) await buyAndPay(3);
    await waitFor(async () => (await tool.ctx.db.kysely.selectFrom('goods').select('id').where('chain_status', '=', 'minted').limit(1).execute()).length > 0, 60_000, 'the first mint');
    for (let i = 0; i < 5; i++) await buyAndPay(2);
    const before = await lease();
    process.kill(first.pid, 'SIGKILL');
    const killedAt = Date.now();
    const pays = (async () => {
      for (let i = 0; i < 10; i++) await buyAndPay(2);
    })();
    const next = await waitFor(async () => {
      const l = await lease();
      return l.token > before.token && l.holder !== before.holder && l;
    }, 15_000, 'a new holder');
    const takeoverMs = Date.now() - killedAt;
    console.log(`takeover after SIGKILL: ${takeoverMs} ms (token ${before.token} → ${next.token})`);
    expect(takeoverMs).toBeLessThan(10_000);
    expect(servers.find((s) => next.holder!.split(':')[1] === String(s.pid))).toBeDefined();
    await pays;
    const { txs } = await expectAllMintedOnce();
    console.log(`${orders.length} orders, ${txs} operator transactions, nonces continuous`);
  }, 240_000);

  it('the holder paused (SIGSTOP) past its lease: another takes over; resumed (SIGCONT), it sends nothing and finishes no job', async () => {
    const old = await waitFor(holderServer, 30_000, 'a lease holder');
    const before = await lease();
    process.kill(old.pid, 'SIGSTOP');
    const stoppedAt = Date.now();
    const next = await waitFor(async () => {
      const l = await lease();
      return l.token > before.token && l;
    }, 15_000, 'a new holder');
    expect(Date.now() - stoppedAt).toBeLessThan(10_000);
    expect(next.holder).not.toBe(before.holder);
    // Work for the new holder while the old one is still paused…
    for (let i = 0; i < 5; i++) await buyAndPay(2);
    await sleep(1000);
    const contAt = Date.now();
    process.kill(old.pid, 'SIGCONT');
    // …and after it resumed.
    for (let i = 0; i < 5; i++) await buyAndPay(2);
    await expectAllMintedOnce();
    await sleep(3000);
    // The old holder learnt it lost the lease, and sent no transaction after it resumed.
    const after = old.lines.filter((l) => l.time >= contAt);
    expect(after.some((l) => /worker lease lost/.test(l.msg)), JSON.stringify(after.slice(0, 20))).toBe(true);
    expect(after.filter((l) => l.msg === 'operator transactions sent')).toEqual([]);
    // No job is recorded done under its token after it was paused.
    const doneLate = await tool.ctx.db.kysely.selectFrom('jobs').select(['job_key', 'updated_at']).where('lease_token', '=', before.token).where('status', '=', 'done').where('updated_at', '>=', stoppedAt).execute();
    expect(doneLate).toEqual([]);
    // The lease is still with the new holder (the old one did not take it back).
    expect((await lease()).token).toBe(next.token);
  }, 240_000);
  it('the holder killed while paid resale orders are being settled: each order settles exactly once', async () => {
    const ctx = tool.ctx;
    const release = await insertRelease(ctx);
    const price = 10_000;
    const sales: { goodsId: number; tokenId: number; seller: Trader; buyer: Trader; orderNo?: string }[] = [];
    // Minted through the current holder's queue, approved by the sellers' wallets, listed through the API.
    for (let i = 0; i < SALES; i++) {
      const seller = await insertTrader(ctx, 'trader', sellerKeys[i]);
      const tokenId = 90_000 + i;
      await mintTo(tool, seller.address, tokenId);
      const goodsId = await insertGoods(ctx, release, seller.userId, tokenId, { contract: ctx.chain!.collectible });
      await listOnChain(tool, seller, goodsId, tokenId, price);
      sales.push({ goodsId, tokenId, seller, buyer: await insertTrader(ctx) });
    }
    const payFor = async (sale: (typeof sales)[number]) => {
      const order = await call(tool, '/payment/nftOrder/V1/createOrder', { goodsId: sale.goodsId }, sale.buyer.h);
      expect(order.status, order.message).toBe('000000');
      sale.orderNo = order.data.orderNo as string;
      expect((await call(tool, '/payment/sandbox/topup', { amount: price }, sale.buyer.h)).status).toBe('000000');
      const paid = await call(tool, '/payment/nftOrder/V1/pay', { orderNo: sale.orderNo, method: 'balance' }, sale.buyer.h);
      expect(paid.data?.status, paid.message).toBe('paid');
    };
    const holder = await waitFor(holderServer, 30_000, 'a lease holder');
    const before = await lease();
    for (const sale of sales.slice(0, SALES / 2)) await payFor(sale);
    // Settlement under way (its job claimed or its transaction queued), then the holder dies.
    await waitFor(async () => (await ctx.db.kysely.selectFrom('chain_txs').select('id').where('kind', '=', 'settle').limit(1).execute()).length > 0, 30_000, 'a settlement transaction');
    process.kill(holder.pid, 'SIGKILL');
    const killedAt = Date.now();
    for (const sale of sales.slice(SALES / 2)) await payFor(sale);
    await waitFor(async () => {
      const l = await lease();
      return l.token > before.token && l.holder !== before.holder && l;
    }, 15_000, 'a new holder');
    expect(Date.now() - killedAt).toBeLessThan(10_000);
    const orderStatus = async (orderNo: string) => (await ctx.db.kysely.selectFrom('orders').select('status').where('order_no', '=', orderNo).executeTakeFirstOrThrow()).status;
    for (const sale of sales) await waitFor(async () => (await orderStatus(sale.orderNo!)) === 'completed', 90_000, `order ${sale.orderNo} completed`);
    for (const sale of sales) {
      expect(toBase32Address(await ctx.chain!.contracts.collectible.ownerOf(BigInt(sale.tokenId)), 1029)).toBe(sale.buyer.address);
      // Its settlement transaction (an executeOrders batch) confirmed, and one OrderExecuted for it on chain.
      const settle = await ctx.db.kysely.selectFrom('orders').innerJoin('chain_txs', 'chain_txs.id', 'orders.chain_tx_id').select(['chain_txs.status', 'chain_txs.kind']).where('orders.order_no', '=', sale.orderNo!).execute();
      expect(settle).toEqual([{ status: 'confirmed', kind: 'settle' }]);
      const executed = await waitFor(async () => {
        const recs = await ctx.db.kysely.selectFrom('chain_records').select('data').where('event', '=', 'OrderExecuted').execute();
        const mine = recs.filter((r) => r.data.includes(`"buyerOrderId":"${sale.orderNo!}"`));
        return mine.length > 0 && mine;
      }, 30_000, `OrderExecuted of ${sale.orderNo}`);
      expect(executed).toHaveLength(1);
      // Credited once: the price less the 5% fee.
      expect(await balanceOf(ctx.db.kysely, Account.user(sale.seller.userId))).toBe(price - 500);
    }
    const txs = await ctx.db.kysely.selectFrom('chain_txs').select(['nonce', 'status']).where('nonce', 'is not', null).orderBy('nonce').execute();
    const nonces = txs.map((t) => Number(t.nonce));
    expect(nonces).toEqual(Array.from({ length: nonces.length }, (_, i) => nonces[0]! + i));
    expect(txs.filter((t) => t.status !== 'confirmed')).toEqual([]);
    expect(Number(await ctx.chain!.sdk.cfx.getNextNonce(ctx.chain!.operatorAddress))).toBe(nonces[nonces.length - 1]! + 1);
    expect(await ledgerProblems(ctx.db.kysely)).toEqual([]);
  }, 240_000);
});
