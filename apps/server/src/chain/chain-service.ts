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
import { Indexer } from './indexer.ts';
import { createRpc } from './rpc.ts';
import { TxQueue } from './tx-queue.ts';

export interface Chain {
  networkId: number;
  rpcUrl: string;
  embedded: boolean;
  /** Process id of the embedded node's child process (embedded mode only). */
  nodePid?: number;
  operatorAddress: string;
  collectible: string;
  exchange: string;
  collectibleHex: string;
  exchangeHex: string;
  explorerUrl: string;
  queue: TxQueue;
  indexer: Indexer;
  /** js-conflux-sdk contract objects, for encoding calls and reading state. */
  contracts: { collectible: any; exchange: any };
  sdk: Conflux;
  stop(): Promise<void>;
}

type Log = (msg: string, extra?: unknown) => void;

/** The operator key: CHAIN_OPERATOR_KEY, else generated once and kept in DATA_DIR/operator.key (mode 600). */
export function operatorKey(config: Config): string {
  if (config.chain.operatorKey) return normalizeKey(config.chain.operatorKey);
  const file = path.join(config.dataDir, 'operator.key');
  if (fs.existsSync(file)) return normalizeKey(fs.readFileSync(file, 'utf8').trim());
  fs.mkdirSync(config.dataDir, { recursive: true });
  const key = `0x${crypto.randomBytes(32).toString('hex')}`;
  fs.writeFileSync(file, key, { mode: 0o600 });
  return key;
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
  let rpcUrl = cc.rpcUrl!;
  if (cc.mode === 'embedded') {
    const started = Date.now();
    node = await startEmbeddedNode({
      genesisSecrets: [key],
      chainId: cc.networkId,
      dataDir: path.join(config.dataDir, 'chain'),
      jsonrpcHttpPort: cc.nodeRpcPort,
      tcpPort: cc.nodeP2pPort,
      allowPublicListen: cc.nodePublicListen,
      ...(cc.blockIntervalMs ? { devBlockIntervalMs: cc.blockIntervalMs, devPackTxImmediately: false } : { devPackTxImmediately: true }),
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
      if (!deployed) {
        const epoch = Number(BigInt(await rpc.call<string>('cfx_epochNumber', ['latest_state'])));
        const d = await deployContracts({ rpcUrl, operatorPrivateKey: key, networkId: cc.networkId });
        collectible = d.collectible;
        exchange = d.exchange;
        await setMeta(db, 'collectible_address', collectible);
        await setMeta(db, 'exchange_address', exchange);
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
    const queue = new TxQueue(db, cc, rpcUrl, key, operatorAddress, log);
    await queue.start();
    const indexer = new Indexer(db, rpc, [
      { address: collectible, abi: collectibleArt.abi },
      { address: exchange, abi: exchangeArt.abi },
    ], cc.networkId, cc.indexerIntervalMs, log);
    indexer.start(Number((await getMeta(db, 'deploy_epoch')) ?? 0));
    return {
      networkId: cc.networkId,
      rpcUrl,
      embedded: cc.mode === 'embedded',
      nodePid: node?.pid,
      operatorAddress,
      collectible,
      exchange,
      collectibleHex: toHexAddress(collectible),
      exchangeHex: toHexAddress(exchange),
      explorerUrl: cc.explorerUrl,
      queue,
      indexer,
      contracts,
      sdk,
      async stop() {
        await queue.stop();
        await indexer.stop();
        await node?.stop();
      },
    };
  } catch (err) {
    await node?.stop();
    throw err;
  }
}
