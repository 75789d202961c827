import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Conflux } from 'js-conflux-sdk';
import { startEmbeddedNode, type EmbeddedNode } from '@cfx/contracts/src/embedded-node.ts';
import { deployContracts } from '@cfx/contracts/src/deploy.ts';
import { loadArtifact } from '@cfx/contracts/src/artifacts.ts';
import { addressOfPrivateKey } from '@cfx/contracts/src/order-signature.ts';
import { toBase32Address, toHexAddress } from '@cfx/protocol/address.ts';
import type { Config } from '../config.ts';
import type { Db } from '../db/database.ts';
import { readOrCreateSecretFile } from '../util/private-files.ts';
import { Indexer } from './indexer.ts';
import { createRpc } from './rpc.ts';
import { TxQueue } from './tx-queue.ts';
import { startPaceKeeper } from './pace-keeper.ts';

export interface Chain {
  networkId: number;
  rpcUrl: string;
  embedded: boolean;
  /** Process id of the embedded node's child process (embedded mode only). */
  nodePid?: number;
  operatorAddress: string;
  /**
   * The contracts' owner as the Collectible reports it (base32), undefined if it could not be read.
   * It is a separate key from the operator, except on embedded data dirs deployed before key roles.
   */
  ownerAddress?: string;
  collectible: string;
  exchange: string;
  collectibleHex: string;
  exchangeHex: string;
  explorerUrl: string;
  /**
   * Embedded node only: it makes a block at least every `paceMs` ms, transactions or not
   * (CHAIN_PACE_MS, or CHAIN_BLOCK_INTERVAL_MS in interval mode); undefined when blocks come only
   * with transactions or the chain is not ours (CHAIN_RPC_URL).
   */
  paceMs?: number;
  queue: TxQueue;
  indexer: Indexer;
  /** js-conflux-sdk contract objects, for encoding calls and reading state. */
  contracts: { collectible: any; exchange: any };
  sdk: Conflux;
  /**
   * Starts the chain workers of the worker role (worker-role.ts): the operator's transaction queue
   * (nonce sync, then its send/receipt loop) and the event indexer. startChain does not start them.
   */
  startWorkers(): Promise<void>;
  stop(): Promise<void>;
}

type Log = (msg: string, extra?: unknown) => void;

/** The operator (hot) key: CHAIN_OPERATOR_KEY, else generated once and kept in DATA_DIR/operator.key (mode 600). */
export function operatorKey(config: Config): string {
  return roleKey(config, config.chain.operatorKey, 'operator.key');
}

/**
 * The owner key of the embedded chain: CHAIN_OWNER_KEY, else generated once and kept in
 * DATA_DIR/owner.key (mode 600). It deploys, owns and sponsors the contracts and is never
 * used by the operator queue. With CHAIN_RPC_URL the server never reads it.
 */
export function ownerKey(config: Config): string {
  return roleKey(config, config.chain.ownerKey, 'owner.key');
}

function roleKey(config: Config, fromEnv: string | undefined, fileName: string): string {
  if (fromEnv) return normalizeKey(fromEnv);
  return normalizeKey(readOrCreateSecretFile(path.join(config.dataDir, fileName), () => `0x${crypto.randomBytes(32).toString('hex')}`));
}

/** Written into the chain dir before its first start: the genesis accounts of that chain, in order. */
const GENESIS_FILE = 'genesis-accounts.json';

interface Genesis {
  /** Private keys funded in the genesis block (the node's genesisSecrets). */
  secrets: string[];
  /** The owner key, when it is funded in genesis (not on a chain dir from before key roles). */
  ownerKey?: string;
}

/**
 * The genesis accounts of the embedded chain. A new chain funds the operator and the owner key.
 * A chain dir from before key roles (no GENESIS_FILE) keeps its genesis [operator]: @xcfx/node
 * starts a NEW chain when the genesis accounts change, which would drop its contracts and tokens.
 */
function embeddedGenesis(config: Config, chainDir: string, opKey: string, log: Log): Genesis {
  const marker = path.join(chainDir, GENESIS_FILE);
  const hasData = fs.existsSync(chainDir) && fs.readdirSync(chainDir).length > 0;
  if (hasData && !fs.existsSync(marker)) return { secrets: [opKey] };
  const owner = ownerKey(config);
  const accounts = [opKey, owner].map((k) => addressOfPrivateKey(k, config.chain.networkId));
  if (hasData) {
    let recorded: string[] = [];
    try {
      recorded = (JSON.parse(fs.readFileSync(marker, 'utf8')) as { accounts?: string[] }).accounts ?? [];
    } catch {
      // unreadable: rewritten below
    }
    if (recorded.join() !== accounts.join()) {
      log('warning: the operator or owner key changed, so the embedded node starts a new chain (the old contracts and tokens are gone)');
    }
  }
  fs.mkdirSync(chainDir, { recursive: true });
  fs.writeFileSync(marker, `${JSON.stringify({ accounts }, null, 2)}\n`);
  return { secrets: [opKey, owner], ownerKey: owner };
}

/**
 * How the embedded node makes blocks. Default: every transaction is packed at once (its receipt in
 * tens of milliseconds), and the pace keeper (pace-keeper.ts) adds blocks when the chain is idle,
 * about one epoch per CHAIN_PACE_MS (500 ms, mainnet's ≈ 2 epochs a second), so a lottery's draw
 * epoch or a box's reveal epoch arrives without other activity. The node's own block timer is not
 * used with packing at once: the two together hang the node (see pace-keeper.ts).
 * CHAIN_PACE_MS=0: blocks only for transactions. CHAIN_BLOCK_INTERVAL_MS (throughput mode for
 * benchmarks): one block every interval carrying the waiting transactions, nothing packed at once.
 */
export function embeddedBlockOptions(cc: Config['chain']): { devPackTxImmediately: boolean; devBlockIntervalMs?: number } {
  if (cc.blockIntervalMs) return { devBlockIntervalMs: cc.blockIntervalMs, devPackTxImmediately: false };
  return { devPackTxImmediately: true };
}

/** The embedded chain's pace in ms per epoch when idle, undefined when it makes blocks only for transactions. */
function embeddedPaceMs(cc: Config['chain']): number | undefined {
  if (cc.blockIntervalMs) return cc.blockIntervalMs;
  return cc.paceMs > 0 ? cc.paceMs : undefined;
}

const normalizeKey = (k: string) => (k.startsWith('0x') ? k : `0x${k}`);

async function getMeta(db: Db, key: string) {
  return (await db.kysely.selectFrom('chain_meta').select('value').where('key', '=', key).executeTakeFirst())?.value;
}
async function setMeta(db: Db, key: string, value: string) {
  await db.kysely.insertInto('chain_meta').values({ key, value }).onConflict((oc) => oc.column('key').doUpdateSet({ value })).execute();
}

/**
 * Starts the chain side: the embedded @xcfx/node (unless CHAIN_RPC_URL is set), contracts
 * (deployed and sponsored on first start, addresses kept in the database), the operator's
 * transaction queue and the event indexer.
 */
export async function startChain(config: Config, db: Db, log: Log): Promise<Chain | undefined> {
  const cc = config.chain;
  if (cc.mode === 'off') return undefined;
  const key = operatorKey(config);
  const operatorAddress = addressOfPrivateKey(key, cc.networkId);
  let node: EmbeddedNode | undefined;
  let paceKeeper: { stop(): Promise<void> } | undefined;
  let rpcUrl = cc.rpcUrl!;
  let genesis: Genesis | undefined;
  // A worker thread's chain (cc.attach): the main thread's node, already started and deployed on.
  const attached = cc.mode === 'embedded' ? cc.attach : undefined;
  if (attached) {
    rpcUrl = attached.rpcUrl;
  } else if (cc.mode === 'embedded') {
    const started = Date.now();
    const chainDir = path.join(config.dataDir, 'chain');
    genesis = embeddedGenesis(config, chainDir, key, log);
    node = await startEmbeddedNode({
      genesisSecrets: genesis.secrets,
      chainId: cc.networkId,
      dataDir: chainDir,
      jsonrpcHttpPort: cc.nodeRpcPort,
      tcpPort: cc.nodeP2pPort,
      allowPublicListen: cc.nodePublicListen,
      ...embeddedBlockOptions(cc),
    });
    rpcUrl = node.rpcUrl;
    log(`embedded Conflux node ready at ${rpcUrl} in ${Date.now() - started} ms`);
  }
  try {
    const rpc = createRpc(rpcUrl);
    let collectible = cc.collectibleAddress, exchange = cc.exchangeAddress;
    if (cc.mode === 'embedded') {
      collectible = await getMeta(db, 'collectible_address');
      exchange = await getMeta(db, 'exchange_address');
      const deployed = collectible && exchange && (await rpc.call<string>('cfx_getCode', [collectible]).catch(() => '0x')) !== '0x';
      if (!deployed && attached) throw new Error('the embedded chain this thread attaches to has no contracts deployed');
      if (!deployed) {
        const epoch = Number(BigInt(await rpc.call<string>('cfx_epochNumber', ['latest_state'])));
        const owner = genesis!.ownerKey ?? ownerKey(config);
        // A pre-key-roles chain whose contracts are gone: its genesis funded only the operator.
        if (!genesis!.ownerKey) await fundFromOperator(rpcUrl, cc.networkId, key, addressOfPrivateKey(owner, cc.networkId));
        const d = await deployContracts({ rpcUrl, ownerPrivateKey: owner, operator: operatorAddress, networkId: cc.networkId });
        collectible = d.collectible;
        exchange = d.exchange;
        await setMeta(db, 'collectible_address', collectible);
        await setMeta(db, 'exchange_address', exchange);
        await setMeta(db, 'owner_address', d.owner);
        await setMeta(db, 'deploy_epoch', String(epoch));
        // A fresh chain: forget the nonce and checkpoint of a previous one.
        await db.kysely.deleteFrom('chain_meta').where('key', 'in', ['operator_nonce', 'indexer_epoch']).execute();
        log(`contracts deployed and sponsored: collectible ${collectible}, exchange ${exchange}`);
      }
    }
    collectible = toBase32Address(collectible!, cc.networkId);
    exchange = toBase32Address(exchange!, cc.networkId);
    const [collectibleArt, exchangeArt] = await Promise.all([loadArtifact('Collectible'), loadArtifact('Exchange')]);
    const sdk = new Conflux({ url: rpcUrl, networkId: cc.networkId, timeout: 60_000 });
    const contracts = {
      collectible: sdk.Contract({ abi: collectibleArt.abi as any, address: collectible }),
      exchange: sdk.Contract({ abi: exchangeArt.abi as any, address: exchange }),
    };
    const ownerAddress = await contracts.collectible.owner().then((a: string) => toBase32Address(a, cc.networkId)).catch(() => undefined);
    if (ownerAddress === operatorAddress) {
      log('warning: the operator key owns the contracts (deployed before key roles): a leaked operator key could change the operator and the base URI; see docs/operations.md, Key roles');
    } else if (!ownerAddress) {
      log(`warning: could not read owner() of the Collectible at ${collectible}`);
    }
    const onChainOperator = await contracts.collectible.operator().then((a: string) => toBase32Address(a, cc.networkId)).catch(() => undefined);
    if (onChainOperator && onChainOperator !== operatorAddress) {
      log(`warning: the contracts' operator is ${onChainOperator}, not this server's key ${operatorAddress}: its transactions will revert (NotOperator) until the owner runs setOperator`);
    }
    // A rotated operator key starts from its own chain nonce, not the old key's counter.
    const previousOperator = await getMeta(db, 'operator_address');
    if (previousOperator && previousOperator !== operatorAddress) {
      await db.kysely.deleteFrom('chain_meta').where('key', '=', 'operator_nonce').execute();
      log(`operator key changed from ${previousOperator} to ${operatorAddress}: nonce counter taken from the chain`);
    }
    await setMeta(db, 'operator_address', operatorAddress);
    if (attached) {
      // The main thread keeps the pace (and warned if it cannot).
    } else if (cc.mode === 'embedded' && !cc.blockIntervalMs && cc.paceMs > 0 && !genesis!.ownerKey) {
      // A chain dir from before key roles funds only the operator in genesis, and the operator's nonces
      // belong to its queue: there is no key to fund the keeper from, and none is made up for it.
      log('warning: the embedded chain keeps no pace (blocks only with transactions): its genesis, from before key roles, funds no owner key');
    } else if (cc.mode === 'embedded' && !cc.blockIntervalMs && cc.paceMs > 0) {
      // Funded by the owner key (funded in genesis). Not fatal: without it the chain only moves with transactions.
      paceKeeper = await startPaceKeeper({ rpcUrl, networkId: cc.networkId, funderKey: genesis!.ownerKey!, paceMs: cc.paceMs, log }).catch((err: unknown) => {
        log(`warning: the embedded chain keeps no pace (blocks only with transactions): ${String((err as Error)?.message ?? err).slice(0, 200)}`);
        return undefined;
      });
    }
    const queue = new TxQueue(db, cc, rpcUrl, key, operatorAddress, log);
    const indexer = new Indexer(db, rpc, [
      { address: collectible, abi: collectibleArt.abi },
      { address: exchange, abi: exchangeArt.abi },
    ], cc.networkId, cc.indexerIntervalMs, log);
    const deployEpoch = Number((await getMeta(db, 'deploy_epoch')) ?? 0);
    return {
      networkId: cc.networkId,
      rpcUrl,
      embedded: cc.mode === 'embedded',
      nodePid: node?.pid ?? attached?.nodePid,
      operatorAddress,
      ownerAddress,
      collectible,
      exchange,
      collectibleHex: toHexAddress(collectible),
      exchangeHex: toHexAddress(exchange),
      explorerUrl: cc.explorerUrl,
      paceMs: attached ? attached.paceMs : cc.mode === 'embedded' && (paceKeeper || cc.blockIntervalMs) ? embeddedPaceMs(cc) : undefined,
      queue,
      indexer,
      contracts,
      sdk,
      async startWorkers() {
        await queue.start();
        indexer.start(deployEpoch);
      },
      async stop() {
        await paceKeeper?.stop();
        await queue.stop();
        await indexer.stop();
        await node?.stop();
      },
    };
  } catch (err) {
    await paceKeeper?.stop();
    await node?.stop();
    throw err;
  }
}

/** Embedded chain only: give the owner key CFX from the operator for deploying and sponsoring. */
async function fundFromOperator(rpcUrl: string, networkId: number, opKey: string, to: string): Promise<void> {
  const sdk = new Conflux({ url: rpcUrl, networkId, timeout: 60_000 });
  const from = sdk.wallet.addPrivateKey(opKey).address;
  const need = 1_200n * 10n ** 18n; // 2 × (20 CFX gas + 500 CFX collateral) + gas
  const balance = BigInt(await sdk.cfx.getBalance(to));
  if (balance >= need) return;
  await sdk.cfx.sendTransaction({ from, to, value: need - balance }).executed({ delta: 100, timeout: 60_000 });
}
