// Deploy the marketplace contracts with the OWNER key and sponsor them, so that users
// with 0 CFX can `approve` (list / unlist), `cancelOrder` and `burn`.
//
// Key roles (docs/operations.md "Key roles"): the owner key deploys, is Ownable owner,
// Conflux contract admin and sponsor, and is the only key that can `setOperator` /
// `setBaseURI`; it can stay offline. The operator key is the server's hot wallet (mint,
// executeOrder, consumeAndMint) and can be rotated by the owner with setOperatorOf.
//
//   const c = await deployContracts({ rpcUrl, ownerPrivateKey, operator });
//   c.collectible / c.exchange   base32 (cfx:…) addresses; c.*Hex the hex forms
import { Conflux } from 'js-conflux-sdk';
import { networkIdOf, toBase32Address, toHexAddress, type HexAddress } from '@cfx/protocol/address.ts';
import { loadArtifact, type ContractName } from './artifacts.ts';

/** Built-in SponsorWhitelistControl contract (Core space). */
export const SPONSOR_CONTROL_ADDRESS = '0x0888000000000000000000000000000000000001';
export const ZERO_ADDRESS = '0x0000000000000000000000000000000000000000';

const CFX = 10n ** 18n;

export interface SponsorOptions {
  /** Max gas fee (gas × price, in Drip) sponsored per transaction. Default 0.01 CFX (10M gas at 1 GDrip). */
  gasUpperBound?: bigint;
  /** CFX (in Drip) deposited for gas; must be ≥ 1000 × gasUpperBound. Default 20 CFX. */
  gasBalance?: bigint;
  /** CFX (in Drip) deposited for storage collateral (1 CFX per KiB stored). Default 500 CFX. */
  collateralBalance?: bigint;
}

export interface DeployOptions {
  rpcUrl: string;
  /** Deployer = owner = Conflux contract admin = sponsor. Keep it offline; it never operates. */
  ownerPrivateKey: string;
  /** Operator address (hex or base32): the server's hot key. Should differ from the owner's. */
  operator: string;
  /** Core network id. Default 1029. */
  networkId?: number;
  name?: string;
  symbol?: string;
  baseURI?: string;
  /** Sponsorship amounts, or false to skip sponsoring. */
  sponsor?: SponsorOptions | false;
}

export interface DeployedContracts {
  networkId: number;
  /** base32 addresses (cfx:… on mainnet id 1029) */
  collectible: string;
  exchange: string;
  /** hex addresses (0x8…), as used inside CIP-23 typed data */
  collectibleHex: HexAddress;
  exchangeHex: HexAddress;
  /** base32 address of the operator */
  operator: string;
  /** base32 address of the owner (= deployer, contract admin, sponsor) */
  owner: string;
  /** Same as owner (kept for callers that say deployer). */
  deployer: string;
}

/** A js-conflux-sdk client with the given key in its wallet. */
export function createConflux(rpcUrl: string, networkId = 1029): Conflux {
  return new Conflux({ url: rpcUrl, networkId, timeout: 60_000 });
}

/** Deploy Collectible + Exchange from the owner key, point both at the operator and sponsor them for all users. */
export async function deployContracts(options: DeployOptions): Promise<DeployedContracts> {
  const networkId = options.networkId ?? 1029;
  const conflux = createConflux(options.rpcUrl, networkId);
  const deployer = conflux.wallet.addPrivateKey(normalizeKey(options.ownerPrivateKey));
  if (!options.operator) throw new Error('deployContracts: operator address is required');
  const operator: string = toBase32Address(options.operator, networkId);

  const collectible = await deployContract(conflux, deployer.address, 'Collectible', [
    options.name ?? 'Digital Collectible',
    options.symbol ?? 'DC',
    options.baseURI ?? '',
    operator,
  ]);
  const exchange = await deployContract(conflux, deployer.address, 'Exchange', [operator]);

  if (options.sponsor !== false) {
    for (const contract of [collectible, exchange]) {
      await sponsorContract(conflux, deployer.address, contract, options.sponsor ?? {});
    }
  }

  return {
    networkId,
    collectible,
    exchange,
    collectibleHex: toHexAddress(collectible),
    exchangeHex: toHexAddress(exchange),
    operator,
    owner: deployer.address,
    deployer: deployer.address,
  };
}

export interface OwnerCallOptions {
  rpcUrl: string;
  /** The owner key (the deployer's). */
  ownerPrivateKey: string;
  /** Contracts to act on (base32 or hex), e.g. [collectible, exchange]. */
  contracts: string[];
  networkId?: number;
}

/**
 * Rotate the operator of every given contract (owner key only): e.g. after the hot key
 * leaked, or to move the server to a new key. Returns the transaction hashes.
 */
export async function setOperatorOf(options: OwnerCallOptions & { operator: string }): Promise<string[]> {
  const networkId = options.networkId ?? 1029;
  const operator = toBase32Address(options.operator, networkId);
  return ownerCalls(options, (contract) => contract.setOperator(operator));
}

/** Change the Collectible's token URI prefix (owner key only). */
export async function setBaseURIOf(options: OwnerCallOptions & { baseURI: string }): Promise<string[]> {
  return ownerCalls(options, (contract) => contract.setBaseURI(options.baseURI));
}

async function ownerCalls(options: OwnerCallOptions, call: (contract: any) => any): Promise<string[]> {
  const networkId = options.networkId ?? 1029;
  const conflux = createConflux(options.rpcUrl, networkId);
  const owner = conflux.wallet.addPrivateKey(normalizeKey(options.ownerPrivateKey));
  // The Collectible's ABI serves both: Exchange.setOperator(address) has the same selector.
  const { abi } = await loadArtifact('Collectible');
  const hashes: string[] = [];
  for (const address of options.contracts) {
    const contract = conflux.Contract({ abi, address: toBase32Address(address, networkId) });
    const receipt = await executedOnce(() => call(contract).sendTransaction({ from: owner.address }), { delta: 100, timeout: 60_000 });
    if (receipt.outcomeStatus !== 0) throw new Error(`${address}: owner call failed (tx ${receipt.transactionHash}): ${receipt.txExecErrorMsg ?? ''}`);
    hashes.push(receipt.transactionHash);
  }
  return hashes;
}

/** Deploy one artifact; returns the (short, lower-case) base32 address of the new contract. */
export async function deployContract(conflux: Conflux, from: string, name: ContractName, args: unknown[]): Promise<string> {
  const { abi, bytecode } = await loadArtifact(name);
  const factory = conflux.Contract({ abi, bytecode });
  const receipt = await executedOnce(() => factory.constructor(...args).sendTransaction({ from }), { delta: 100, timeout: 60_000 });
  const created = receipt.contractCreated as string | null;
  if (!created) throw new Error(`${name}: no contract created (tx ${receipt.transactionHash})`);
  // The node answers in the verbose form (CFX:TYPE.CONTRACT:…); return the short one (cfx:…).
  return toBase32Address(created, networkIdOf(created));
}

/**
 * Sponsor gas and storage collateral of `contract` for every user (whitelist the zero
 * address). `from` must be the contract's admin (its deployer) and hold the CFX.
 */
export async function sponsorContract(conflux: Conflux, from: string, contract: string, options: SponsorOptions = {}): Promise<void> {
  const gasUpperBound = options.gasUpperBound ?? CFX / 100n;
  const gasBalance = options.gasBalance ?? 20n * CFX;
  const collateralBalance = options.collateralBalance ?? 500n * CFX;
  if (gasBalance < gasUpperBound * 1000n) throw new Error('gasBalance must be at least 1000 × gasUpperBound');

  const control = conflux.InternalContract('SponsorWhitelistControl');
  const wait = { delta: 100, timeout: 60_000 };
  await executedOnce(() => control.setSponsorForGas(contract, gasUpperBound).sendTransaction({ from, value: gasBalance }), wait);
  await executedOnce(() => control.setSponsorForCollateral(contract).sendTransaction({ from, value: collateralBalance }), wait);
  await executedOnce(() => control.addPrivilegeByAdmin(contract, [ZERO_ADDRESS]).sendTransaction({ from }), wait);
}

/**
 * Sends one setup transaction and waits for its execution, trying again (up to 5 times, 0.5–2 s
 * apart) while the node answers "Invalid parameters": seen once on a fresh dev chain under load,
 * where cfx_estimateGasAndCollateral refused the very first deployment. Such an answer comes before
 * the transaction is accepted (estimate, or a refused cfx_sendRawTransaction), so trying again sends
 * it at most once. The last error carries the node's detail (error.data) in its message.
 */
async function executedOnce(send: () => any, wait: { delta: number; timeout: number }): Promise<any> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await send().executed(wait);
    } catch (err: any) {
      const refused = /Invalid parameters/i.test(String(err?.message));
      if (!refused || attempt >= 5) {
        if (refused && err?.data !== undefined) err.message += ` (${typeof err.data === 'string' ? err.data : JSON.stringify(err.data)})`;
        throw err;
      }
      await new Promise((r) => setTimeout(r, 500 * attempt));
    }
  }
}

function normalizeKey(key: string): string {
  return key.startsWith('0x') ? key : `0x${key}`;
}
