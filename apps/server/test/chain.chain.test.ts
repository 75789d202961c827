import { spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { format, sign } from 'js-conflux-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addressOfPrivateKey } from '@cfx/contracts/src/order-signature.ts';
import { loadArtifact } from '@cfx/contracts/src/artifacts.ts';
import { createConflux, deployContracts, setOperatorOf } from '@cfx/contracts/src/deploy.ts';
import { startEmbeddedNode } from '@cfx/contracts/src/embedded-node.ts';
import { loadConfig } from '../src/config.ts';
import { buildApp, type App } from '../src/app.ts';
import { API } from './helpers.ts';

/**
 * The chain side on a real embedded @xcfx/node: deployment, the operator's durable queue,
 * the indexer and the chain-record API — and a crash between signing/sending and the receipt.
 */
const newAddress = () => format.address(sign.privateKeyToAddress(crypto.randomBytes(32)), 1029);

async function start(dataDir: string): Promise<App> {
  const config = loadConfig({ DEV_MODE: '1', CAPTCHA_PROVIDER: 'test', DEMO_DATA: '0', CHAIN_RECEIPT_INTERVAL_MS: '200', CHAIN_INDEXER_INTERVAL_MS: '100' }, { dataDir, serveWeb: false });
  return buildApp(config, { logger: false });
}

async function waitFor<T>(f: () => Promise<T | undefined>, ms = 30_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await f();
    if (v) return v;
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('operator queue and indexer on the embedded node', () => {
  let t: App;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cfx-chain-'));
  beforeAll(async () => { t = await start(dataDir); });
  afterAll(async () => { await t?.close(); fs.rmSync(dataDir, { recursive: true, force: true }); });

  it('mints through the queue, indexes the Transfer and serves it as a chain record', async () => {
    const chain = t.ctx.chain!;
    const to = newAddress();
    const id = await chain.queue.enqueue({ key: 'mint:1001', kind: 'mint', to: chain.collectible, data: chain.contracts.collectible.mint(to, 1001n).data });
    expect(await chain.queue.enqueue({ key: 'mint:1001', kind: 'mint', to: chain.collectible, data: '0x' })).toBe(id);
    const row = await chain.queue.waitFor(id);
    expect(row).toMatchObject({ status: 'confirmed', outcome_status: 0 });
    expect(format.address(await chain.contracts.collectible.ownerOf(1001n), 1029)).toBe(to);

    const res = await waitFor(async () => {
      const r = (await t.app.inject({ method: 'GET', url: `${API}/goods/v1/list/chainRecord/?tokenId=1001` })).json();
      return r.data?.length ? r : undefined;
    });
    expect(res.status).toBe('000000');
    expect(res.data[0]).toMatchObject({ event: 'Transfer', tokenId: '1001', to, from: format.address('0x0000000000000000000000000000000000000000', 1029) });
    expect(res.data[0].txHash).toBe(row.tx_hash);
    expect(res.data[0].explorerUrl).toBe(`https://confluxscan.io/transaction/${row.tx_hash}`);
  });

  it('a reverting call is reported failed, and later transactions still go through', async () => {
    const chain = t.ctx.chain!;
    const to = newAddress();
    const a = await chain.queue.enqueue({ key: 'mint:2001', kind: 'mint', to: chain.collectible, data: chain.contracts.collectible.mint(to, 2001n).data });
    expect((await chain.queue.waitFor(a)).status).toBe('confirmed');
    const dup = await chain.queue.enqueue({ key: 'mint:2001-again', kind: 'mint', to: chain.collectible, data: chain.contracts.collectible.mint(to, 2001n).data });
    const failed = await chain.queue.waitFor(dup);
    expect(failed.status).toBe('failed');
    expect(failed.error).toBeTruthy();
    const b = await chain.queue.enqueue({ key: 'mint:2002', kind: 'mint', to: chain.collectible, data: chain.contracts.collectible.mint(to, 2002n).data });
    expect((await chain.queue.waitFor(b)).status).toBe('confirmed');
  });

  it('many concurrent mints get consecutive nonces and all confirm', async () => {
    const chain = t.ctx.chain!;
    const to = newAddress();
    const ids = await Promise.all(Array.from({ length: 60 }, (_, i) =>
      chain.queue.enqueue({ key: `mint:${3000 + i}`, kind: 'mint', to: chain.collectible, data: chain.contracts.collectible.mint(to, BigInt(3000 + i)).data })));
    const rows = await Promise.all(ids.map((id) => chain.queue.waitFor(id)));
    expect(rows.every((r) => r.status === 'confirmed')).toBe(true);
    expect(Number(await chain.contracts.collectible.balanceOf(to))).toBe(60);
  });

  it('deploys with a separate owner key: owner() is DATA_DIR/owner.key (mode 600), operator() the hot key', async () => {
    const chain = t.ctx.chain!;
    const ownerFile = path.join(dataDir, 'owner.key');
    expect(fs.statSync(ownerFile).mode & 0o777).toBe(0o600);
    expect(fs.statSync(path.join(dataDir, 'operator.key')).mode & 0o777).toBe(0o600);
    const ownerAddress = addressOfPrivateKey(fs.readFileSync(ownerFile, 'utf8').trim(), 1029);
    expect(ownerAddress).not.toBe(chain.operatorAddress);
    expect(chain.ownerAddress).toBe(ownerAddress);
    for (const contract of [chain.contracts.collectible, chain.contracts.exchange]) {
      expect(format.address(await contract.owner(), 1029)).toBe(ownerAddress);
      expect(format.address(await contract.operator(), 1029)).toBe(chain.operatorAddress);
    }
    // The owner key is the contracts' admin and sponsor; the operator key is neither.
    expect(format.address(await chain.sdk.cfx.getAdmin(chain.collectible), 1029)).toBe(ownerAddress);
    const row = await t.ctx.db.kysely.selectFrom('chain_meta').select('value').where('key', '=', 'owner_address').executeTakeFirst();
    expect(row?.value).toBe(ownerAddress);
    // The hot key cannot change the operator.
    const setOperator = chain.contracts.collectible.setOperator(chain.operatorAddress);
    await expect(chain.sdk.cfx.call({ from: chain.operatorAddress, to: chain.collectible, data: setOperator.data })).rejects.toThrow();
  });

  it('the chain-record call validates its input', async () => {
    const r = await t.app.inject({ method: 'GET', url: `${API}/goods/v1/list/chainRecord/?tokenId=abc` });
    expect(r.statusCode).toBe(400);
    expect(r.json().status).toBe('1001');
  });

  it('the dev-wallet RPC proxy forwards only allowed methods', async () => {
    const ok = (await t.app.inject({ method: 'POST', url: `${API}/chain/v1/rpc`, payload: { jsonrpc: '2.0', id: 1, method: 'cfx_epochNumber', params: ['latest_state'] } })).json();
    expect(ok.result).toMatch(/^0x/);
    const no = (await t.app.inject({ method: 'POST', url: `${API}/chain/v1/rpc`, payload: { jsonrpc: '2.0', id: 2, method: 'debug_shutdown', params: [] } })).json();
    expect(no.error.code).toBe(-32601);
  });
});

describe('crash safety of the operator queue', () => {
  for (const phase of ['sign', 'send'] as const) {
    it(`killed (SIGKILL) after ${phase === 'sign' ? 'signing' : 'sending'}: after restart the mint is confirmed once and recorded once`, async () => {
      const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cfx-crash-'));
      const to = newAddress();
      const tokenId = phase === 'sign' ? '7001' : '7002';
      try {
        const child = spawn(process.execPath, ['--import', 'tsx', path.join(import.meta.dirname, 'fixtures/crash-runner.ts'), phase, to, tokenId], {
          env: { ...process.env, DATA_DIR: dataDir, CHAIN_RECEIPT_INTERVAL_MS: '200' },
          stdio: ['ignore', 'pipe', 'inherit'],
        });
        let out = '';
        child.stdout.on('data', (d) => (out += d));
        const signal = await new Promise((r) => child.once('exit', (_c, s) => r(s)));
        expect(signal).toBe('SIGKILL');
        expect(out).toMatch(/HALTED \d+/);
        // The node child notices its parent died and stops; wait until its data dir is free.
        await waitFor(async () => {
          const { execSync } = await import('node:child_process');
          return !execSync('ps -eo args').toString().includes(dataDir) || undefined;
        }, 30_000).catch(() => undefined);

        // What the dead process left behind: the raw transaction, stored before any send.
        const Sqlite = (await import('better-sqlite3')).default;
        const file = new Sqlite(path.join(dataDir, 'marketplace.sqlite'), { readonly: true });
        const row = file.prepare('select * from chain_txs where idempotency_key = ?').get(`mint:${tokenId}`) as { id: number; status: string; tx_hash: string; nonce: number; raw_tx: string };
        file.close();
        expect(row.status).toBe(phase === 'sign' ? 'signed' : 'sent');
        expect(row.raw_tx).toMatch(/^0x/);

        const t = await start(dataDir);
        try {
          const chain = t.ctx.chain!;
          const done = await chain.queue.waitFor(Number(row.id));
          expect(done.status).toBe('confirmed');
          expect(done.tx_hash).toBe(row.tx_hash);
          expect(await t.ctx.db.kysely.selectFrom('chain_txs').select('id').execute()).toHaveLength(1);
          expect(format.address(await chain.contracts.collectible.ownerOf(BigInt(tokenId)), 1029)).toBe(to);
          // Exactly one operator transaction after deployment: the next nonce is the mint's + 1.
          const next = Number(await chain.sdk.cfx.getNextNonce(chain.operatorAddress));
          expect(next).toBe(Number(row.nonce) + 1);
          const records = await waitFor(async () => {
            const r = await t.ctx.db.kysely.selectFrom('chain_records').selectAll().where('token_id', '=', tokenId).where('event', '=', 'Transfer').execute();
            return r.length ? r : undefined;
          });
          await new Promise((r) => setTimeout(r, 500));
          const again = await t.ctx.db.kysely.selectFrom('chain_records').selectAll().where('token_id', '=', tokenId).where('event', '=', 'Transfer').execute();
          expect(records).toHaveLength(1);
          expect(again).toHaveLength(1);
        } finally {
          await t.close();
        }
      } finally {
        fs.rmSync(dataDir, { recursive: true, force: true });
      }
    }, 120_000);
  }
});

describe('a data dir deployed before key roles (operator = owner)', () => {
  it('keeps its chain and contracts: same genesis, no redeploy, mints still work', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cfx-legacy-'));
    try {
      // What an older server left behind: operator.key, a chain whose genesis funds only the
      // operator, contracts deployed (and owned) by the operator, their addresses in chain_meta.
      const opKey = `0x${crypto.randomBytes(32).toString('hex')}`;
      fs.writeFileSync(path.join(dir, 'operator.key'), opKey, { mode: 0o600 });
      const opAddress = addressOfPrivateKey(opKey, 1029);
      const node = await startEmbeddedNode({ genesisSecrets: [opKey], dataDir: path.join(dir, 'chain') });
      let old: Awaited<ReturnType<typeof deployContracts>>;
      try {
        old = await deployContracts({ rpcUrl: node.rpcUrl, ownerPrivateKey: opKey, operator: opAddress });
      } finally {
        await node.stop();
      }
      const off = await buildApp(loadConfig({ DEV_MODE: '1', CAPTCHA_PROVIDER: 'test', DEMO_DATA: '0', CHAIN: 'off' }, { dataDir: dir, serveWeb: false }), { logger: false });
      await off.ctx.db.kysely.insertInto('chain_meta').values([
        { key: 'collectible_address', value: old.collectible },
        { key: 'exchange_address', value: old.exchange },
      ]).execute();
      await off.close();

      const t = await start(dir);
      try {
        const chain = t.ctx.chain!;
        expect(chain.collectible).toBe(old.collectible);
        expect(chain.exchange).toBe(old.exchange);
        expect(chain.operatorAddress).toBe(opAddress);
        expect(chain.ownerAddress).toBe(opAddress); // reported (and warned about), still working
        expect(fs.existsSync(path.join(dir, 'owner.key'))).toBe(false);
        const to = newAddress();
        const id = await chain.queue.enqueue({ key: 'mint:8001', kind: 'mint', to: chain.collectible, data: chain.contracts.collectible.mint(to, 8001n).data });
        expect((await chain.queue.waitFor(id)).status).toBe('confirmed');
        expect(format.address(await chain.contracts.collectible.ownerOf(8001n), 1029)).toBe(to);
      } finally {
        await t.close();
      }
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 180_000);
});

describe('rotating the operator key (CHAIN_RPC_URL, contracts deployed by the owner)', () => {
  it('after the owner’s setOperator, a server with the new key mints from the new key’s own nonce', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cfx-rotate-'));
    const [ownerKey, oldKey, newKey] = Array.from({ length: 3 }, () => `0x${crypto.randomBytes(32).toString('hex')}`) as [string, string, string];
    const node = await startEmbeddedNode({ genesisSecrets: [ownerKey, oldKey, newKey], devPackTxImmediately: true });
    try {
      const d = await deployContracts({ rpcUrl: node.rpcUrl, ownerPrivateKey: ownerKey, operator: addressOfPrivateKey(oldKey, 1029), sponsor: false });
      const env = (operatorKey: string) => ({
        DEV_MODE: '1', CAPTCHA_PROVIDER: 'test', DEMO_DATA: '0', CHAIN_RECEIPT_INTERVAL_MS: '200', CHAIN_INDEXER_INTERVAL_MS: '100',
        CHAIN_RPC_URL: node.rpcUrl, CHAIN_OPERATOR_KEY: operatorKey, CHAIN_COLLECTIBLE_ADDRESS: d.collectible, CHAIN_EXCHANGE_ADDRESS: d.exchange,
      });
      const mint = async (t: App, tokenId: bigint) => {
        const chain = t.ctx.chain!;
        const id = await chain.queue.enqueue({ key: `mint:${tokenId}`, kind: 'mint', to: chain.collectible, data: chain.contracts.collectible.mint(newAddress(), tokenId).data });
        return chain.queue.waitFor(id, 30_000);
      };
      // The server never holds the owner key, and refuses to be given one in RPC mode.
      expect(() => loadConfig({ ...env(oldKey), CHAIN_OWNER_KEY: ownerKey })).toThrow(/CHAIN_OWNER_KEY/);
      // And on the embedded chain the two roles must be two keys.
      expect(() => loadConfig({ CHAIN_OPERATOR_KEY: oldKey, CHAIN_OWNER_KEY: oldKey.slice(2).toUpperCase() })).toThrow(/different keys/);

      const first = await buildApp(loadConfig(env(oldKey), { dataDir: dir, serveWeb: false }), { logger: false });
      try {
        expect(first.ctx.chain!.ownerAddress).toBe(d.owner);
        for (let i = 0n; i < 3n; i++) expect((await mint(first, 8100n + i)).status).toBe('confirmed');
      } finally {
        await first.close();
      }

      // The old key leaked: the owner (offline) points the contracts at the new key.
      await setOperatorOf({ rpcUrl: node.rpcUrl, ownerPrivateKey: ownerKey, contracts: [d.collectible, d.exchange], operator: addressOfPrivateKey(newKey, 1029) });
      const second = await buildApp(loadConfig(env(newKey), { dataDir: dir, serveWeb: false }), { logger: false });
      try {
        expect((await mint(second, 8200n)).status).toBe('confirmed');
        expect(Number(await second.ctx.chain!.sdk.cfx.getNextNonce(second.ctx.chain!.operatorAddress))).toBe(1);
      } finally {
        await second.close();
      }
      // The old key is powerless now.
      const sdk = createConflux(node.rpcUrl);
      const oldAddress = addressOfPrivateKey(oldKey, 1029);
      const collectible = sdk.Contract({ abi: (await loadArtifact('Collectible')).abi, address: d.collectible }) as any;
      await expect(sdk.cfx.call({ from: oldAddress, to: d.collectible, data: collectible.mint(oldAddress, 8300n).data })).rejects.toThrow();
    } finally {
      await node.stop();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 180_000);
});

describe('health of the chain', () => {
  it('/healthz answers ok with a live node and 503 in the envelope once the node is gone', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cfx-health-'));
    const a = await start(dir);
    try {
      const health = () => a.app.inject({ method: 'GET', url: '/healthz' });
      const live = await health();
      expect(live.statusCode).toBe(200);
      expect(live.json()).toMatchObject({ status: '000000', data: { chain: 'ok' } });
      process.kill(a.ctx.chain!.nodePid!, 'SIGKILL');
      const dead = await waitFor(async () => {
        const r = await health();
        return r.statusCode === 503 ? r : undefined;
      }, 20_000);
      expect(dead.json()).toMatchObject({ status: '1018', data: { chain: 'down' } });
      // Other errors while the node is gone are envelopes too, never a crash.
      const info = await a.app.inject({ method: 'GET', url: `${API}/chain/v1/info` });
      expect(info.statusCode).toBeLessThan(500);
    } finally {
      await a.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
