// Shared setup of the chain tests: one real @xcfx/node dev node per test file,
// the contracts deployed and sponsored by the owner key (operator = a separate hot key),
// and small helpers.
import { randomBytes } from 'node:crypto';
import type { Conflux } from 'js-conflux-sdk';
import { toHexAddress, type HexAddress } from '@cfx/protocol/address.ts';
import { exchangeDomain, type Cip23Domain, type ListOrder } from '@cfx/protocol/cip23.ts';
import type { Consume } from '@cfx/protocol/consume.ts';
import { loadArtifact } from '../src/artifacts.ts';
import { createConflux, deployContracts, type DeployedContracts } from '../src/deploy.ts';
import { startEmbeddedNode, type EmbeddedNode } from '../src/embedded-node.ts';
import { addressOfPrivateKey, signListOrder } from '../src/order-signature.ts';
import { errorSelectors, simulateCall, type RevertInfo } from '../src/revert.ts';

/** Fixed test keys (funded with 10 000 CFX each in the genesis block). */
export const KEYS = {
  owner: '0x4e378ea72b0d850542928e9aa467550b4ff93a506fd0654f8b8e9148728aae48',
  operator: '0x90806a6b51cdbcd71289200220bd4b7b755fbf103d50a476f6c5fced54f531df',
  seller: '0x1018c6b8bd3bc833be135111c5cc3924354759e9df4ddfb2faba6fee7ced3c20',
  buyer: '0x68c947a9524efde7027841afe0926bcd80ea682d66f33ca9c5abe2206edd521f',
  stranger: '0x8ac5e4c46c07b50b34feeb046766783957d4800f0ecd106ff0e3d3cc449eff2d',
} as const;

export type Role = keyof typeof KEYS;

export interface Account {
  key: string;
  /** base32 (cfx:…) */
  address: string;
  hex: HexAddress;
}

/** Minimal shape of a js-conflux-sdk contract method call (MethodTransaction). */
export interface MethodTx {
  to: string;
  data: string;
  call(options?: object): Promise<unknown>;
  sendTransaction(options: object): { executed(options?: object): Promise<Receipt> } & PromiseLike<string>;
}

export interface Receipt {
  outcomeStatus: number;
  transactionHash: string;
  txExecErrorMsg: string | null;
  gasCoveredBySponsor: boolean;
  storageCoveredBySponsor: boolean;
  storageCollateralized: bigint;
  logs: { address: string; topics: string[]; data: string }[];
}

export interface TestChain {
  node: EmbeddedNode;
  conflux: Conflux;
  deployed: DeployedContracts;
  accounts: Record<Role, Account>;
  // js-conflux-sdk contracts are untyped (methods generated from the ABI).
  collectible: any;
  exchange: any;
  /** The live exchange domain: chain 1029, the deployed Exchange. */
  domain: Cip23Domain;
  /** Send and wait for the receipt; throws if outcomeStatus != 0. */
  send(tx: MethodTx, from: Account | string): Promise<Receipt>;
  /** Dry-run a call: the revert (custom error named) or null if it would succeed. */
  revertOf(tx: MethodTx, from: Account | string): Promise<RevertInfo | null>;
  /** Mint a fresh token id to `owner`. */
  mint(owner: Account): Promise<bigint>;
  /** A token id never minted in this file's chain (for mintIds). */
  nextId(): bigint;
  /** Mint a token to the seller, approve it to the exchange and sign an order for it. */
  listNew(seller?: Account, overrides?: Partial<ListOrder>): Promise<{ order: ListOrder; signature: `0x${string}` }>;
  /** Decode the logs of a receipt with both ABIs. */
  events(receipt: Receipt): { name: string; object: Record<string, unknown> }[];
  /** A new account holding no CFX at all. */
  freshAccount(): Account;
  stop(): Promise<void>;
}

let uniqueCounter = 0;
/** Unique order ids per test file run. */
export function uid(prefix: string): string {
  uniqueCounter += 1;
  return `${prefix}-${Date.now().toString(36)}-${uniqueCounter}`;
}

export async function startTestChain(): Promise<TestChain> {
  const node = await startEmbeddedNode({ genesisSecrets: Object.values(KEYS), devPackTxImmediately: true });
  try {
    const deployed = await deployContracts({
      rpcUrl: node.rpcUrl,
      ownerPrivateKey: KEYS.owner,
      operator: addressOfPrivateKey(KEYS.operator),
      baseURI: 'https://example.test/meta/',
    });
    const conflux = createConflux(node.rpcUrl);
    const accounts = Object.fromEntries(
      (Object.keys(KEYS) as Role[]).map((role) => {
        conflux.wallet.addPrivateKey(KEYS[role]);
        return [role, accountOf(KEYS[role])];
      }),
    ) as Record<Role, Account>;
    const [collectibleArtifact, exchangeArtifact] = await Promise.all([loadArtifact('Collectible'), loadArtifact('Exchange')]);
    const collectible = conflux.Contract({ abi: collectibleArtifact.abi, address: deployed.collectible });
    const exchange = conflux.Contract({ abi: exchangeArtifact.abi, address: deployed.exchange });
    const selectors = errorSelectors(collectibleArtifact.abi, exchangeArtifact.abi);
    const fromOf = (from: Account | string) => (typeof from === 'string' ? from : from.address);
    let nextTokenId = 1n;

    const chain: TestChain = {
      node,
      conflux,
      deployed,
      accounts,
      collectible,
      exchange,
      domain: exchangeDomain(1029, deployed.exchangeHex),
      send: (tx, from) => tx.sendTransaction({ from: fromOf(from) }).executed({ delta: 20, timeout: 30_000 }),
      async revertOf(tx, from) {
        const outcome = await simulateCall(node.rpcUrl, { from: fromOf(from), to: tx.to, data: tx.data }, selectors);
        return outcome.ok ? null : outcome.revert;
      },
      nextId: () => nextTokenId++,
      async mint(owner) {
        const tokenId = nextTokenId++;
        await chain.send(collectible.mint(owner.address, tokenId), accounts.operator);
        return tokenId;
      },
      async listNew(seller = accounts.seller, overrides = {}) {
        const tokenId = await chain.mint(seller);
        await chain.send(collectible.approve(deployed.exchange, tokenId), seller);
        const order: ListOrder = {
          seller: seller.hex,
          nftToken: deployed.collectibleHex,
          tokenId,
          amount: 9900n,
          sellerOrderId: uid('S'),
          ...overrides,
        };
        return { order, signature: signListOrder(seller.key, order, chain.domain) };
      },
      events(receipt) {
        return receipt.logs
          .map((log) => exchange.abi.decodeLog(log) ?? collectible.abi.decodeLog(log))
          .filter(Boolean)
          .map((e: { name: string; object: Record<string, unknown> }) => ({ name: e.name, object: e.object }));
      },
      freshAccount() {
        const key = `0x${randomBytes(32).toString('hex')}`;
        conflux.wallet.addPrivateKey(key);
        return accountOf(key);
      },
      stop: () => node.stop(),
    };
    return chain;
  } catch (err) {
    await node.stop();
    throw err;
  }
}

function accountOf(key: string): Account {
  const address = addressOfPrivateKey(key);
  return { key, address, hex: toHexAddress(address) };
}

/** The order as a js-conflux-sdk struct argument (the SDK accepts hex addresses in parameters). */
export function orderArg(order: ListOrder): Record<string, unknown> {
  return { ...order, tokenId: BigInt(order.tokenId), amount: BigInt(order.amount) };
}

/** A Consume as a js-conflux-sdk struct argument. */
export function consumeArg(c: Consume): Record<string, unknown> {
  return { owner: c.owner, burnIds: c.burnIds.map((id) => BigInt(id)), mintIds: c.mintIds.map((id) => BigInt(id)), flowId: c.flowId };
}

/** bytes32 from js-conflux-sdk as 0x-hex: call results are Buffers, decoded event topics are strings. */
export function hex32(value: unknown): string {
  if (typeof value === 'string') return value.toLowerCase();
  if (value instanceof Uint8Array) return `0x${Buffer.from(value).toString('hex')}`;
  throw new TypeError(`not bytes32: ${String(value)}`);
}
