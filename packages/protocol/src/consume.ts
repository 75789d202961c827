// CIP-23 typed data of a holder's consent to a compose or blind-box flow.
//
// The holder signs a `Consume` with Fluent (`cfx_signTypedData_v4`): "burn these token ids
// of mine and mint those ids to me, once, under this flow id". The platform operator then
// submits it with Collectible.consumeAndMint, which burns and mints atomically.
// Compose = burn N fragments -> mint the result; blind box = burn the box -> mint the drawn item.
//
// The domain is the Collectible's own (name "Collectible", version "1", the Collectible's
// address), with the same CIP-23 rules as the listOrder (cip23.ts): domain type `CIP23Domain`,
// `chainId` a JS number, addresses hex inside typed data. Arrays are encoded as CIP-23/EIP-712
// says: keccak256 of the concatenated 32-byte words. The hashes here must equal the contract's
// (Collectible.hashConsume / consumeDigest) — checked on a real node with consume-vectors.json.
import { toHexAddress, type HexAddress } from './address.ts';
import {
  CIP23_DOMAIN_FIELDS,
  hashStruct,
  hashTypedData,
  toUint,
  type Cip23Domain,
  type Cip23TypedData,
  type Hex,
  type TypedField,
  type UintLike,
} from './cip23.ts';

/** Domain name and version of the Collectible contract (Collectible.DOMAIN_NAME / DOMAIN_VERSION). */
export const COLLECTIBLE_DOMAIN_NAME = 'Collectible';
export const COLLECTIBLE_DOMAIN_VERSION = '1';

export const CONSUME_TYPE = 'Consume';

/** Field order and types of Collectible.CONSUME_TYPEHASH. */
export const CONSUME_FIELDS = [
  { name: 'owner', type: 'address' },
  { name: 'burnIds', type: 'uint256[]' },
  { name: 'mintIds', type: 'uint256[]' },
  { name: 'flowId', type: 'string' },
] as const satisfies readonly TypedField[];

export interface Consume {
  /** Holder of every burnId and receiver of every mintId, hex or base32. */
  owner: string;
  /** Token ids to burn (all held by `owner` when the operator submits). */
  burnIds: readonly UintLike[];
  /** Token ids to mint to `owner` (must not exist yet). */
  mintIds: readonly UintLike[];
  /** The platform's id of this compose / box-opening; single use per owner on chain. */
  flowId: string;
}

/** Consume message as put into typed data: hex address, decimal-string integers. */
export interface ConsumeMessage {
  owner: HexAddress;
  burnIds: string[];
  mintIds: string[];
  flowId: string;
}

/** The Collectible's domain on chain `chainId` (1029 mainnet) for contract `verifyingContract` (hex or base32). */
export function collectibleDomain(chainId: number, verifyingContract: string): Cip23Domain {
  if (typeof chainId !== 'number' || !Number.isSafeInteger(chainId) || chainId <= 0) {
    throw new TypeError(`chainId must be a positive JS number, got ${String(chainId)}`);
  }
  return {
    name: COLLECTIBLE_DOMAIN_NAME,
    version: COLLECTIBLE_DOMAIN_VERSION,
    chainId,
    verifyingContract: toHexAddress(verifyingContract),
  };
}

/** Canonical Consume message (validates and normalises every field). */
export function consumeMessage(c: Consume): ConsumeMessage {
  if (typeof c.flowId !== 'string') throw new TypeError('flowId must be a string');
  return {
    owner: toHexAddress(c.owner),
    burnIds: uintList(c.burnIds, 'burnIds'),
    mintIds: uintList(c.mintIds, 'mintIds'),
    flowId: c.flowId,
  };
}

/** Typed data of a Consume, ready for `cfx_signTypedData_v4` (JSON.stringify it). */
export function consumeTypedData(c: Consume, domain: Cip23Domain): Cip23TypedData<ConsumeMessage> {
  return {
    types: { CIP23Domain: CIP23_DOMAIN_FIELDS, [CONSUME_TYPE]: CONSUME_FIELDS },
    primaryType: CONSUME_TYPE,
    domain: { ...domain, verifyingContract: toHexAddress(domain.verifyingContract) },
    message: consumeMessage(c),
  };
}

/** hashStruct(Consume) — equals Collectible.hashConsume(c). */
export function hashConsume(c: Consume): Hex {
  return hashStruct({ [CONSUME_TYPE]: CONSUME_FIELDS }, CONSUME_TYPE, consumeMessage(c));
}

/** The digest the holder signs — equals Collectible.consumeDigest(c). */
export function consumeDigest(c: Consume, domain: Cip23Domain): Hex {
  return hashTypedData(consumeTypedData(c, domain));
}

function uintList(ids: readonly UintLike[], path: string): string[] {
  if (!Array.isArray(ids)) throw new TypeError(`${path} must be an array`);
  return ids.map((id, i) => toUint(id, 256, `${path}[${i}]`).toString(10));
}
