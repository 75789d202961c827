// CIP-23 typed data (Conflux's EIP-712) of the marketplace's sale orders.
//
// A seller lists a token by signing a `listOrder` with Fluent (`cfx_signTypedData_v4`);
// the platform operator later settles it with Exchange.executeOrder. The hashes here
// must equal the contract's (Exchange.hashListOrder / hashOrder) — checked against a
// real node with the golden vectors in cip23-vectors.json.
//
//   domainSeparator = hashStruct(CIP23Domain{name, version, chainId, verifyingContract})
//   digest          = keccak256(0x19 ‖ 0x01 ‖ domainSeparator ‖ hashStruct(message))
//
// Rules learnt from Fluent: the domain type is `CIP23Domain` (not EIP712Domain),
// `chainId` must be a JS number, and addresses inside typed data must be hex.
import { keccak_256 } from '@noble/hashes/sha3';
import { bytesToHex, concatBytes, hexToBytes, utf8ToBytes } from '@noble/hashes/utils';
import { toHexAddress, type HexAddress } from './address.ts';

export type Hex = `0x${string}`;
/** An unsigned integer as bigint, safe-integer number, decimal string or 0x-hex string. */
export type UintLike = bigint | number | string;

export interface TypedField {
  name: string;
  type: string;
}
export type TypedDataTypes = Record<string, readonly TypedField[]>;

export interface Cip23Domain {
  name: string;
  version: string;
  /** Must be a JS number (Fluent rejects strings / bigints). */
  chainId: number;
  verifyingContract: HexAddress;
}

/** The JSON object passed to `cfx_signTypedData_v4` (stringified). */
export interface Cip23TypedData<M = Record<string, unknown>> {
  types: { CIP23Domain: readonly TypedField[] } & TypedDataTypes;
  primaryType: string;
  domain: Cip23Domain;
  message: M;
}

// ---------------------------------------------------------------- order types

/** Domain name and version of the exchange ("Typed-signature domain for the exchange, version 1"). */
export const EXCHANGE_DOMAIN_NAME = '1';
export const EXCHANGE_DOMAIN_VERSION = '1';

export const CIP23_DOMAIN_FIELDS = [
  { name: 'name', type: 'string' },
  { name: 'version', type: 'string' },
  { name: 'chainId', type: 'uint256' },
  { name: 'verifyingContract', type: 'address' },
] as const satisfies readonly TypedField[];

/** The order a seller signs. `amount` is the asking price in fen. */
export const LIST_ORDER_FIELDS = [
  { name: 'seller', type: 'address' },
  { name: 'nftToken', type: 'address' },
  { name: 'tokenId', type: 'uint256' },
  { name: 'amount', type: 'uint256' },
  { name: 'sellerOrderId', type: 'string' },
] as const satisfies readonly TypedField[];

/** The executed order (listOrder + buyer). Type name spelled as in the spec: `excuteOrder`. */
export const EXECUTED_ORDER_FIELDS = [
  ...LIST_ORDER_FIELDS,
  { name: 'buyer', type: 'address' },
  { name: 'buyerOrderId', type: 'string' },
] as const satisfies readonly TypedField[];

export const LIST_ORDER_TYPE = 'listOrder';
export const EXECUTED_ORDER_TYPE = 'excuteOrder';

export interface ListOrder {
  /** Seller address, hex or base32. */
  seller: string;
  /** Collectible (ERC-721) contract address, hex or base32. */
  nftToken: string;
  tokenId: UintLike;
  /** Asking price in fen. */
  amount: UintLike;
  /** The platform's id of the seller's listing; single use on chain. */
  sellerOrderId: string;
}

export interface ExecutedOrder extends ListOrder {
  buyer: string;
  buyerOrderId: string;
}

/** listOrder message as put into typed data: hex addresses, decimal-string integers. */
export interface ListOrderMessage {
  seller: HexAddress;
  nftToken: HexAddress;
  tokenId: string;
  amount: string;
  sellerOrderId: string;
}

export interface ExecutedOrderMessage extends ListOrderMessage {
  buyer: HexAddress;
  buyerOrderId: string;
}

/** The exchange's domain on chain `chainId` (1029 mainnet) for contract `verifyingContract` (hex or base32). */
export function exchangeDomain(chainId: number, verifyingContract: string): Cip23Domain {
  if (typeof chainId !== 'number' || !Number.isSafeInteger(chainId) || chainId <= 0) {
    throw new TypeError(`chainId must be a positive JS number, got ${String(chainId)}`);
  }
  return {
    name: EXCHANGE_DOMAIN_NAME,
    version: EXCHANGE_DOMAIN_VERSION,
    chainId,
    verifyingContract: toHexAddress(verifyingContract),
  };
}

/** Canonical listOrder message (validates and normalises every field). */
export function listOrderMessage(order: ListOrder): ListOrderMessage {
  return {
    seller: toHexAddress(order.seller),
    nftToken: toHexAddress(order.nftToken),
    tokenId: toUint(order.tokenId, 256).toString(10),
    amount: toUint(order.amount, 256).toString(10),
    sellerOrderId: requireString(order.sellerOrderId, 'sellerOrderId'),
  };
}

/** Canonical excuteOrder message. */
export function executedOrderMessage(order: ExecutedOrder): ExecutedOrderMessage {
  return {
    ...listOrderMessage(order),
    buyer: toHexAddress(order.buyer),
    buyerOrderId: requireString(order.buyerOrderId, 'buyerOrderId'),
  };
}

/** Typed data of a listOrder, ready for `cfx_signTypedData_v4` (JSON.stringify it). */
export function listOrderTypedData(order: ListOrder, domain: Cip23Domain): Cip23TypedData<ListOrderMessage> {
  return {
    types: { CIP23Domain: CIP23_DOMAIN_FIELDS, [LIST_ORDER_TYPE]: LIST_ORDER_FIELDS },
    primaryType: LIST_ORDER_TYPE,
    domain: { ...domain, verifyingContract: toHexAddress(domain.verifyingContract) },
    message: listOrderMessage(order),
  };
}

/** Typed data of an executed order (excuteOrder). */
export function executedOrderTypedData(order: ExecutedOrder, domain: Cip23Domain): Cip23TypedData<ExecutedOrderMessage> {
  return {
    types: { CIP23Domain: CIP23_DOMAIN_FIELDS, [EXECUTED_ORDER_TYPE]: EXECUTED_ORDER_FIELDS },
    primaryType: EXECUTED_ORDER_TYPE,
    domain: { ...domain, verifyingContract: toHexAddress(domain.verifyingContract) },
    message: executedOrderMessage(order),
  };
}

/** hashStruct(listOrder) — equals Exchange.hashListOrder(order). */
export function hashListOrder(order: ListOrder): Hex {
  return hashStruct({ [LIST_ORDER_TYPE]: LIST_ORDER_FIELDS }, LIST_ORDER_TYPE, listOrderMessage(order));
}

/** hashStruct(excuteOrder). */
export function hashExecutedOrder(order: ExecutedOrder): Hex {
  return hashStruct({ [EXECUTED_ORDER_TYPE]: EXECUTED_ORDER_FIELDS }, EXECUTED_ORDER_TYPE, executedOrderMessage(order));
}

/** The digest the seller signs — equals Exchange.hashOrder(order), the order's on-chain identity. */
export function listOrderDigest(order: ListOrder, domain: Cip23Domain): Hex {
  return hashTypedData(listOrderTypedData(order, domain));
}

/** Digest of an executed order. */
export function executedOrderDigest(order: ExecutedOrder, domain: Cip23Domain): Hex {
  return hashTypedData(executedOrderTypedData(order, domain));
}

// ---------------------------------------------------------------- generic CIP-23

/** hashStruct(CIP23Domain) — the domain separator (Exchange.domainSeparator()). */
export function hashDomain(domain: Cip23Domain): Hex {
  return hashStruct({ CIP23Domain: CIP23_DOMAIN_FIELDS }, 'CIP23Domain', domain);
}

/** keccak256(0x1901 ‖ domainSeparator ‖ hashStruct(primaryType, message)) of any CIP-23 typed data. */
export function hashTypedData(typedData: Cip23TypedData<object>): Hex {
  const { types, primaryType, domain, message } = typedData;
  const domainHash = hashStruct(types, 'CIP23Domain', domain);
  const structHash = hashStruct(types, primaryType, message);
  return keccakHex(concatBytes(new Uint8Array([0x19, 0x01]), hexToBytes(domainHash.slice(2)), hexToBytes(structHash.slice(2))));
}

/** encodeType: `Name(type1 name1,…)` followed by referenced struct types sorted by name. */
export function encodeType(types: TypedDataTypes, primaryType: string): string {
  const deps = [...collectDependencies(types, primaryType, new Set())].filter((t) => t !== primaryType).sort();
  return [primaryType, ...deps]
    .map((name) => `${name}(${fieldsOf(types, name).map((f) => `${f.type} ${f.name}`).join(',')})`)
    .join('');
}

/** keccak256(encodeType(primaryType)). */
export function typeHash(types: TypedDataTypes, primaryType: string): Hex {
  return keccakHex(utf8ToBytes(encodeType(types, primaryType)));
}

/** hashStruct(s) = keccak256(typeHash ‖ encodeData(s)). */
export function hashStruct(types: TypedDataTypes, primaryType: string, data: object): Hex {
  return keccakHex(encodeData(types, primaryType, data));
}

function encodeData(types: TypedDataTypes, primaryType: string, data: object): Uint8Array {
  if (data === null || typeof data !== 'object') throw new TypeError(`${primaryType} must be an object`);
  const record = data as Record<string, unknown>;
  const parts: Uint8Array[] = [hexToBytes(typeHash(types, primaryType).slice(2))];
  for (const field of fieldsOf(types, primaryType)) {
    if (!(field.name in record)) throw new TypeError(`${primaryType}.${field.name} is missing`);
    parts.push(encodeValue(types, field.type, record[field.name], `${primaryType}.${field.name}`));
  }
  return concatBytes(...parts);
}

/** 32-byte encoding of one value (atomic, dynamic, array or struct). */
function encodeValue(types: TypedDataTypes, type: string, value: unknown, path: string): Uint8Array {
  const array = /^(.*)\[(\d*)\]$/.exec(type);
  if (array) {
    const [, inner, length] = array as unknown as [string, string, string];
    if (!Array.isArray(value)) throw new TypeError(`${path} must be an array`);
    if (length !== '' && value.length !== Number(length)) throw new TypeError(`${path} must have ${length} items`);
    return keccak_256(concatBytes(...value.map((v, i) => encodeValue(types, inner, v, `${path}[${i}]`))));
  }
  if (types[type]) return hexToBytes(hashStruct(types, type, value as object).slice(2));
  if (type === 'string') return keccak_256(utf8ToBytes(requireString(value, path)));
  if (type === 'bytes') return keccak_256(hexBytes(value, path));
  if (type === 'address') return leftPad(hexToBytes(toHexAddress(requireString(value, path)).slice(2)));
  if (type === 'bool') {
    if (typeof value !== 'boolean') throw new TypeError(`${path} must be a boolean`);
    return leftPad(new Uint8Array([value ? 1 : 0]));
  }
  const uint = /^uint(\d*)$/.exec(type);
  if (uint) return bigintWord(toUint(value as UintLike, Number(uint[1] || 256), path));
  const int = /^int(\d*)$/.exec(type);
  if (int) {
    const bits = Number(int[1] || 256);
    const n = toBigInt(value as UintLike, path);
    const limit = 1n << BigInt(bits - 1);
    if (n < -limit || n >= limit) throw new RangeError(`${path} does not fit ${type}`);
    return bigintWord(n < 0n ? (1n << 256n) + n : n);
  }
  const fixed = /^bytes(\d+)$/.exec(type);
  if (fixed) {
    const size = Number(fixed[1]);
    const bytes = hexBytes(value, path);
    if (bytes.length !== size) throw new TypeError(`${path} must be ${size} bytes`);
    const word = new Uint8Array(32);
    word.set(bytes);
    return word;
  }
  throw new TypeError(`${path}: unsupported type ${type}`);
}

function collectDependencies(types: TypedDataTypes, name: string, found: Set<string>): Set<string> {
  if (found.has(name) || !types[name]) return found;
  found.add(name);
  for (const field of types[name]) collectDependencies(types, field.type.replace(/(\[\d*\])+$/, ''), found);
  return found;
}

function fieldsOf(types: TypedDataTypes, name: string): readonly TypedField[] {
  const fields = types[name];
  if (!fields) throw new TypeError(`unknown type ${name}`);
  return fields;
}

// ---------------------------------------------------------------- value helpers

/** Parse an unsigned integer that must fit `bits` bits. */
export function toUint(value: UintLike, bits = 256, path = 'value'): bigint {
  const n = toBigInt(value, path);
  if (n < 0n || n >= 1n << BigInt(bits)) throw new RangeError(`${path} does not fit uint${bits}`);
  return n;
}

function toBigInt(value: UintLike, path: string): bigint {
  if (typeof value === 'bigint') return value;
  if (typeof value === 'number') {
    if (!Number.isSafeInteger(value)) throw new RangeError(`${path} must be a safe integer (use a string or bigint)`);
    return BigInt(value);
  }
  if (typeof value === 'string' && /^(0x[0-9a-fA-F]+|-?\d+)$/.test(value)) return BigInt(value);
  throw new TypeError(`${path} must be an integer, got ${String(value)}`);
}

function requireString(value: unknown, path: string): string {
  if (typeof value !== 'string') throw new TypeError(`${path} must be a string`);
  return value;
}

function hexBytes(value: unknown, path: string): Uint8Array {
  if (value instanceof Uint8Array) return value;
  if (value === '') return new Uint8Array(0); // some wallets send empty `bytes` as ''
  if (typeof value === 'string' && /^0x([0-9a-fA-F]{2})*$/.test(value)) return hexToBytes(value.slice(2));
  throw new TypeError(`${path} must be 0x-prefixed hex bytes`);
}

function leftPad(bytes: Uint8Array): Uint8Array {
  const word = new Uint8Array(32);
  word.set(bytes, 32 - bytes.length);
  return word;
}

function bigintWord(n: bigint): Uint8Array {
  return hexToBytes(n.toString(16).padStart(64, '0'));
}

function keccakHex(data: Uint8Array): Hex {
  return `0x${bytesToHex(keccak_256(data))}`;
}
