// The embedded dev node: child process, free ports, clean stop, persistence with a data dir.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createConflux, deployContracts } from '../src/deploy.ts';
import { rpcCall, startEmbeddedNode } from '../src/embedded-node.ts';
import { addressOfPrivateKey } from '../src/order-signature.ts';
import { KEYS } from './fixture.ts';

const dataDir = mkdtempSync(join(tmpdir(), 'cfx-node-persist-'));

afterAll(() => {
  rmSync(dataDir, { recursive: true, force: true });
});

/** One JSON-RPC call through `agent`: the answer's `connection` header and whether the socket was reused. */
function callOver(agent: http.Agent, url: string): Promise<{ connection: string | undefined; reused: boolean }> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: 'POST', agent, headers: { 'content-type': 'application/json' } }, (res) => {
      res.resume();
      res.on('end', () => resolve({ connection: res.headers.connection, reused: req.reusedSocket }));
    });
    req.on('error', reject);
    req.end(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'cfx_epochNumber', params: [] }));
  });
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe('embedded node', () => {
  it('persists the chain in dataDir across a restart and stops its child cleanly', async () => {
    const first = await startEmbeddedNode({ genesisSecrets: [KEYS.operator], dataDir });
    let collectible: string;
    let epochBefore: number;
    try {
      expect(first.rpcUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(first.pid).not.toBe(process.pid);
      const status = await rpcCall<{ chainId: string; ethereumSpaceChainId: string }>(first.rpcUrl, 'cfx_getStatus');
      expect(Number(status.chainId)).toBe(1029);
      expect(Number(status.ethereumSpaceChainId)).toBe(1030);
      // Keep-alive: the second call rides the first one's TCP connection (the node's default closes each).
      const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
      try {
        expect((await callOver(agent, first.rpcUrl)).connection).not.toBe('close');
        expect((await callOver(agent, first.rpcUrl)).reused).toBe(true);
      } finally {
        agent.destroy();
      }
      ({ collectible } = await deployContracts({ rpcUrl: first.rpcUrl, ownerPrivateKey: KEYS.operator, operator: addressOfPrivateKey(KEYS.stranger), sponsor: false }));
      expect(collectible).toMatch(/^cfx:ac/); // short base32 form of a 0x8… contract
      epochBefore = Number(await rpcCall<string>(first.rpcUrl, 'cfx_epochNumber', ['latest_state']));
    } finally {
      await first.stop();
    }
    expect(isAlive(first.pid)).toBe(false);
    expect(existsSync(dataDir)).toBe(true);

    const second = await startEmbeddedNode({ genesisSecrets: [KEYS.operator], dataDir });
    try {
      const epochAfter = Number(await rpcCall<string>(second.rpcUrl, 'cfx_epochNumber', ['latest_state']));
      expect(epochAfter).toBeGreaterThanOrEqual(epochBefore);
      const conflux = createConflux(second.rpcUrl);
      const code = await conflux.cfx.getCode(collectible);
      expect(code.length).toBeGreaterThan(100);
    } finally {
      await second.stop();
    }

    // The genesis accounts are part of the chain's identity: another genesisSecrets list on the
    // same dataDir starts a NEW chain (epoch 0, the contract gone). This is why the server keeps
    // the genesis list of an existing data dir (apps/server/src/chain/chain-service.ts).
    const third = await startEmbeddedNode({ genesisSecrets: [KEYS.operator, KEYS.owner], dataDir });
    try {
      expect(Number(await rpcCall<string>(third.rpcUrl, 'cfx_epochNumber', ['latest_state']))).toBeLessThan(epochBefore);
      expect(await rpcCall<string>(third.rpcUrl, 'cfx_getCode', [collectible, 'latest_state'])).toBe('0x');
    } finally {
      await third.stop();
    }
  });

  it('uses and removes a temporary data dir when none is given', async () => {
    const node = await startEmbeddedNode({ genesisSecrets: [KEYS.operator], devBlockIntervalMs: 100, devPackTxImmediately: false });
    expect(existsSync(node.dataDir)).toBe(true);
    // Blocks are produced on a timer without any transaction.
    const e1 = Number(await rpcCall<string>(node.rpcUrl, 'cfx_epochNumber', ['latest_mined']));
    await new Promise((r) => setTimeout(r, 600));
    const e2 = Number(await rpcCall<string>(node.rpcUrl, 'cfx_epochNumber', ['latest_mined']));
    expect(e2).toBeGreaterThan(e1);
    await node.stop();
    await node.stop(); // idempotent
    expect(existsSync(node.dataDir)).toBe(false);
    expect(isAlive(node.pid)).toBe(false);
  });
});

/** Listening TCP sockets of this machine as [address hex, port] from /proc/net/tcp and tcp6. */
function listeners(): { addr: string; port: number }[] {
  const out: { addr: string; port: number }[] = [];
  for (const f of ['/proc/net/tcp', '/proc/net/tcp6']) {
    if (!existsSync(f)) continue;
    for (const line of readFileSync(f, 'utf8').trim().split('\n').slice(1)) {
      const [, local, , st] = line.trim().split(/\s+/);
      if (st !== '0A') continue; // LISTEN
      const [addr, port] = local!.split(':');
      out.push({ addr: addr!, port: parseInt(port!, 16) });
    }
  }
  return out;
}

describe('embedded node exposure', () => {
  it('listens on loopback only (JSON-RPC and P2P) and serves no debug/test RPC', async () => {
    const node = await startEmbeddedNode({ genesisSecrets: [KEYS.operator] });
    try {
      const mine = listeners().filter((l) => l.port === node.port || l.port === node.p2pPort);
      expect(mine.map((l) => l.port).sort()).toEqual([node.port, node.p2pPort].sort());
      for (const l of mine) expect(['0100007F', '00000000000000000000000001000000'], `port ${l.port} bound to ${l.addr}`).toContain(l.addr);
      await expect(rpcCall(node.rpcUrl, 'debug_shutdown')).rejects.toThrow();
      await expect(rpcCall(node.rpcUrl, 'test_getBlockCount')).rejects.toThrow();
      expect(Number(await rpcCall<string>(node.rpcUrl, 'cfx_epochNumber'))).toBeGreaterThanOrEqual(0);
    } finally {
      await node.stop();
    }
  });
});
