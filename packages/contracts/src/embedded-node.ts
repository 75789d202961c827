// Embedded Conflux Core dev node (@xcfx/node) running in a child process.
//
// @xcfx/node allows one node per process and keeps native threads alive, so the node
// runs in a forked child (embedded-node-child.mjs) and this module only manages it:
// choose free ports, start, wait until the JSON-RPC answers, stop cleanly.
import { fork, type ChildProcess } from 'node:child_process';
import { createSocket } from 'node:dgram';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer as createNetServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { format, Transaction } from 'js-conflux-sdk';
import { loopbackBindShim } from './loopback-bind.ts';

export interface EmbeddedNodeOptions {
  /** Private keys (hex, with or without 0x) funded in the genesis block with 10 000 CFX each. */
  genesisSecrets: string[];
  /** Core space chain / network id. Default 1029 (the mainnet id the product requires). */
  chainId?: number;
  /** eSpace chain id. Default 1030. */
  evmChainId?: number;
  /** HTTP JSON-RPC port; a free port is chosen when omitted. */
  jsonrpcHttpPort?: number;
  /** P2P TCP port; a free port is chosen when omitted. */
  tcpPort?: number;
  /** Discovery UDP port; defaults to tcpPort (a free one is chosen when both are omitted). */
  udpPort?: number;
  /**
   * Pack every transaction immediately (receipt in ≈30–50 ms). Default true unless
   * devBlockIntervalMs is given. For throughput use devPackTxImmediately false and
   * devBlockIntervalMs 20.
   */
  devPackTxImmediately?: boolean;
  /** Produce a block every N ms instead of (or in addition to) packing immediately. */
  devBlockIntervalMs?: number;
  /**
   * Directory for the chain data. When given the chain persists across restarts
   * (confluxDataDir + blockDbType 'rocksdb', both needed). When omitted a temporary
   * directory is used and deleted by stop().
   */
  dataDir?: string;
  /** Print the node's own log to the child's stdout. Default false. */
  log?: boolean;
  /** How long to wait for the node to answer JSON-RPC. Default 60 s. */
  startTimeoutMs?: number;
  /**
   * Let the node listen on every interface. Default false: its JSON-RPC and P2P sockets are bound
   * to loopback (an LD_PRELOAD shim, see native/loopback-bind.c) and the public JSON-RPC serves
   * only the `safe` APIs (cfx, pubsub, txpool: no debug/test/trace).
   */
  allowPublicListen?: boolean;
}

export interface EmbeddedNode {
  /** http://127.0.0.1:<port> */
  rpcUrl: string;
  port: number;
  /** P2P TCP port. */
  p2pPort: number;
  chainId: number;
  /** Directory holding the chain data (temporary unless dataDir was given). */
  dataDir: string;
  /** Process id of the child running the node. */
  pid: number;
  /** Resolves with the child's exit code when it ends (after stop(), or if the node dies). */
  exited: Promise<number | null>;
  /** Stop the node and wait for the child to exit (idempotent). */
  stop(): Promise<void>;
}

const CHILD_SCRIPT = fileURLToPath(new URL('./embedded-node-child.mjs', import.meta.url));

/** Start a dev node in a child process and resolve once its JSON-RPC answers. */
export async function startEmbeddedNode(options: EmbeddedNodeOptions): Promise<EmbeddedNode> {
  const chainId = options.chainId ?? 1029;
  const persistent = options.dataDir !== undefined;
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'cfx-node-'));
  mkdirSync(dataDir, { recursive: true });

  const port = options.jsonrpcHttpPort ?? (await freeTcpPort());
  const tcpPort = options.tcpPort ?? (await freeTcpUdpPort([port]));
  const udpPort = options.udpPort ?? tcpPort;
  const devPackTxImmediately = options.devPackTxImmediately ?? options.devBlockIntervalMs === undefined;

  const config: Record<string, unknown> = {
    chainId,
    evmChainId: options.evmChainId ?? 1030,
    jsonrpcHttpPort: port,
    tcpPort,
    udpPort,
    genesisSecrets: options.genesisSecrets.map((k) => k.replace(/^0x/i, '')),
    devPackTxImmediately,
    confluxDataDir: dataDir,
    blockDbType: 'rocksdb',
    // By default @xcfx/node writes the generated PoS key into node_modules; keep it with the data.
    posPrivateKeyPath: join(dataDir, 'pos_key'),
    log: options.log ?? false,
    timeout: options.startTimeoutMs ?? 60_000,
    publicRpcApis: 'safe',
    // The node's default answers every JSON-RPC request with `connection: close`: a TCP connection
    // set up and torn down per call, on both sides (≈ 800 a second while a settlement backlog drains).
    jsonrpcHttpKeepAlive: true,
  };
  const preload = options.allowPublicListen ? undefined : loopbackBindShim();
  if (options.devBlockIntervalMs !== undefined) config.devBlockIntervalMs = options.devBlockIntervalMs;

  const child = fork(CHILD_SCRIPT, [], {
    cwd: dataDir, // relative paths of the node (pos logs) land in the data directory
    execArgv: [], // no TS loader / inspector flags from the parent
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
    env: preload ? { ...process.env, LD_PRELOAD: [preload, process.env.LD_PRELOAD].filter(Boolean).join(' ') } : process.env,
  });
  const output: string[] = [];
  const keep = (chunk: Buffer) => {
    output.push(chunk.toString());
    if (output.length > 200) output.shift();
  };
  child.stdout?.on('data', (c: Buffer) => (options.log ? process.stdout.write(c) : keep(c)));
  child.stderr?.on('data', (c: Buffer) => (options.log ? process.stderr.write(c) : keep(c)));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  // IPC to a child that died (killed, crashed) fails with EPIPE: recorded, never an unhandled error.
  child.on('error', (err) => keep(Buffer.from(`[embedded-node] ${String(err)}\n`)));

  let stopped: Promise<void> | undefined;
  const stop = () => {
    stopped ??= stopChild(child, exited).then(() => {
      if (!persistent) rmSync(dataDir, { recursive: true, force: true });
    });
    return stopped;
  };

  try {
    await waitReady(child, exited, config, options.startTimeoutMs ?? 60_000, () => output.join(''));
    const rpcUrl = `http://127.0.0.1:${port}`;
    const status = await waitServing(rpcUrl, options.startTimeoutMs ?? 60_000);
    if (Number(status.chainId) !== chainId) throw new Error(`node answered chainId ${status.chainId}, expected ${chainId}`);
    return { rpcUrl, port, p2pPort: tcpPort, chainId, dataDir, pid: child.pid ?? -1, exited, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}

/** Send the start message and wait for 'ready', an error, an early exit or the timeout. */
function waitReady(
  child: ChildProcess,
  exited: Promise<number | null>,
  config: Record<string, unknown>,
  timeoutMs: number,
  logTail: () => string,
): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`embedded node did not start in ${timeoutMs} ms\n${logTail()}`)), timeoutMs + 5_000);
    child.on('message', (msg: { type?: string; message?: string }) => {
      if (msg.type === 'ready') {
        clearTimeout(timer);
        resolve();
      } else if (msg.type === 'error') {
        clearTimeout(timer);
        reject(new Error(`embedded node failed to start: ${msg.message}\n${logTail()}`));
      }
    });
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`embedded node exited early (code ${code})\n${logTail()}`));
    });
    child.send({ type: 'start', config });
  });
}

/** A raw transaction for chain id 1 from a throwaway key: never valid on our chain. */
const CATCH_UP_PROBE = (() => {
  const tx = new Transaction({ to: '0x1000000000000000000000000000000000000000', nonce: 0, gasPrice: 1, gas: 21000, storageLimit: 0, epochHeight: 0, chainId: 1, value: 0, data: '0x' } as never);
  tx.sign(`0x${'11'.repeat(32)}`, 1);
  return format.hex(tx.serialize() as never) as string;
})();

/**
 * Polls the public (`safe`) JSON-RPC until the node accepts transactions (out of catch-up mode),
 * as @xcfx/node's own wait does through the `test` namespace we do not expose.
 */
async function waitServing(rpcUrl: string, timeoutMs: number): Promise<{ chainId: string }> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    try {
      const status = await rpcCall<{ chainId: string }>(rpcUrl, 'cfx_getStatus');
      // A node still catching up rejects every transaction with -32077 "catch up mode"; a ready
      // one rejects this probe (signed for another chain id, by a throwaway key) as invalid.
      await rpcCall<string>(rpcUrl, 'cfx_sendRawTransaction', [CATCH_UP_PROBE]).catch((err: Error) => {
        if (/-32077|catch.?up/i.test(err.message)) throw err;
      });
      return status;
    } catch (err) {
      if (Date.now() > until) throw new Error(`embedded node did not serve JSON-RPC in ${timeoutMs} ms: ${(err as Error).message}`, { cause: err });
      await new Promise((r) => setTimeout(r, 200));
    }
  }
}

/** Ask the child to stop the node; escalate to SIGTERM/SIGKILL if it hangs. */
async function stopChild(child: ChildProcess, exited: Promise<number | null>): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  if (child.connected) child.send({ type: 'stop' }, () => undefined);
  else child.kill('SIGTERM');
  const timeout = (ms: number) => new Promise<'timeout'>((r) => setTimeout(() => r('timeout'), ms).unref());
  if ((await Promise.race([exited, timeout(15_000)])) !== 'timeout') return;
  child.kill('SIGTERM');
  if ((await Promise.race([exited, timeout(5_000)])) !== 'timeout') return;
  child.kill('SIGKILL');
  await exited;
}

/** Minimal JSON-RPC call (used for the readiness check only). */
export async function rpcCall<T>(rpcUrl: string, method: string, params: unknown[] = []): Promise<T> {
  const res = await fetch(rpcUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  const body = (await res.json()) as { result?: T; error?: { code: number; message: string } };
  if (body.error) throw new Error(`${method}: ${body.error.message} (${body.error.code})`);
  return body.result as T;
}

/** A TCP port free on 127.0.0.1 right now (the OS picks it). */
export function freeTcpPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createNetServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '0.0.0.0', () => {
      const addr = srv.address();
      srv.close(() => (typeof addr === 'object' && addr ? resolve(addr.port) : reject(new Error('no port'))));
    });
  });
}

/** A port free for both TCP and UDP (P2P uses the same number for both by default). */
async function freeTcpUdpPort(exclude: number[]): Promise<number> {
  for (let attempt = 0; attempt < 20; attempt++) {
    const port = await freeTcpPort();
    if (exclude.includes(port)) continue;
    const udpFree = await new Promise<boolean>((resolve) => {
      const sock = createSocket('udp4');
      sock.once('error', () => resolve(false));
      sock.bind(port, '0.0.0.0', () => sock.close(() => resolve(true)));
    });
    if (udpFree) return port;
  }
  throw new Error('could not find a free TCP+UDP port');
}
