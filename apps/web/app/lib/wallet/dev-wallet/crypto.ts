/**
 * Signing primitives of the dev wallet (Conflux Core), on @noble/curves + @noble/hashes. Loaded only
 * with the dev wallet (never in the initial bundle). Cross-checked against js-conflux-sdk in
 * test/dev-wallet.test.ts.
 *
 * - Address: keccak256(uncompressed public key without 0x04)[12..32], first nibble forced to 1 (user).
 * - personal_sign: keccak256("\x19Conflux Signed Message:\n" + byteLength + message) (as
 *   js-conflux-sdk PersonalMessage, which the server verifies with).
 * - Signatures: r ‖ s ‖ v, 65 bytes, low s, v = 0/1 (RFC 6979 deterministic).
 * - Transactions: the legacy Core encoding, rlp([nonce, gasPrice, gas, to, value, storageLimit,
 *   epochHeight, chainId, data]) signed, then rlp([[…fields], v, r, s]); hash = keccak256(raw).
 */
import { secp256k1 } from '@noble/curves/secp256k1';
import { keccak_256 } from '@noble/hashes/sha3';
import { bytesToHex, concatBytes, hexToBytes, utf8ToBytes } from '@noble/hashes/utils';

export type Hex = `0x${string}`;

export const PERSONAL_PREFIX = '\x19Conflux Signed Message:\n';

export function hex(bytes: Uint8Array): Hex {
  return `0x${bytesToHex(bytes)}`;
}

export function bytesOf(value: string): Uint8Array {
  const h = value.startsWith('0x') || value.startsWith('0X') ? value.slice(2) : value;
  if (!/^[0-9a-fA-F]*$/.test(h)) throw new TypeError(`not hex: ${value}`);
  return hexToBytes(h.length % 2 ? `0${h}` : h);
}

export function keccak(bytes: Uint8Array): Uint8Array {
  return keccak_256(bytes);
}

export function newPrivateKey(): Hex {
  return hex(secp256k1.utils.randomSecretKey());
}

export function isPrivateKey(value: unknown): value is Hex {
  if (typeof value !== 'string' || !/^0x[0-9a-fA-F]{64}$/.test(value)) return false;
  return secp256k1.utils.isValidSecretKey(bytesOf(value));
}

/** The Core hex address (0x1…) of a private key. */
export function privateKeyToHexAddress(privateKey: Hex): Hex {
  const pub = secp256k1.getPublicKey(bytesOf(privateKey), false).slice(1);
  const addr = keccak(pub).slice(-20);
  addr[0] = (addr[0]! & 0x0f) | 0x10;
  return hex(addr);
}

/**
 * Hash of a Conflux personal message, exactly as js-conflux-sdk's PersonalMessage.personalHash (what
 * the server verifies with): a string is taken as UTF-8; a 0x-hex string as those bytes, which are
 * then written as text (so the byte length counts the raw bytes, the body is their UTF-8 reading).
 */
export function personalMessageHash(message: string): Uint8Array {
  const isHex = /^0x[0-9a-fA-F]*$/.test(message);
  const raw = isHex ? bytesOf(message) : utf8ToBytes(message);
  const text = isHex ? new TextDecoder().decode(raw) : message;
  return keccak(utf8ToBytes(`${PERSONAL_PREFIX}${raw.length}${text}`));
}

export interface RawSignature {
  r: bigint;
  s: bigint;
  v: 0 | 1;
}

/** Signs a 32-byte digest: low s, v = recovery bit (0/1). */
export function signDigest(privateKey: Hex, digest: Uint8Array): RawSignature {
  if (digest.length !== 32) throw new TypeError('digest must be 32 bytes');
  const sig = secp256k1.sign(digest, bytesOf(privateKey), { lowS: true, prehash: false });
  return { r: sig.r, s: sig.s, v: sig.recovery as 0 | 1 };
}

/** r ‖ s ‖ v as 65-byte hex (the form personal_sign / cfx_signTypedData_v4 return). */
export function signatureHex({ r, s, v }: RawSignature): Hex {
  return `0x${r.toString(16).padStart(64, '0')}${s.toString(16).padStart(64, '0')}${v.toString(16).padStart(2, '0')}`;
}

export function personalSign(privateKey: Hex, message: string): Hex {
  return signatureHex(signDigest(privateKey, personalMessageHash(message)));
}

// ---------------------------------------------------------------- RLP

export type RlpInput = Uint8Array | RlpInput[];

function rlpLength(length: number, offset: number): Uint8Array {
  if (length <= 55) return new Uint8Array([offset + length]);
  const lenBytes = bigintBytes(BigInt(length));
  return concatBytes(new Uint8Array([offset + 55 + lenBytes.length]), lenBytes);
}

export function rlpEncode(input: RlpInput): Uint8Array {
  if (input instanceof Uint8Array) {
    if (input.length === 1 && input[0]! < 0x80) return input;
    return concatBytes(rlpLength(input.length, 0x80), input);
  }
  const body = concatBytes(...input.map(rlpEncode));
  return concatBytes(rlpLength(body.length, 0xc0), body);
}

/** Minimal big-endian bytes of a non-negative integer (0 → empty, as RLP wants). */
export function bigintBytes(n: bigint): Uint8Array {
  if (n < 0n) throw new RangeError('negative integer');
  if (n === 0n) return new Uint8Array(0);
  const h = n.toString(16);
  return hexToBytes(h.length % 2 ? `0${h}` : h);
}

// ---------------------------------------------------------------- transactions

/** A complete legacy Core transaction (every field filled). */
export interface CoreTransaction {
  nonce: bigint;
  gasPrice: bigint;
  gas: bigint;
  /** Hex address, or null for a contract creation. */
  to: Hex | null;
  value: bigint;
  storageLimit: bigint;
  epochHeight: bigint;
  chainId: bigint;
  data: Hex;
}

function txFields(tx: CoreTransaction): Uint8Array[] {
  return [
    bigintBytes(tx.nonce),
    bigintBytes(tx.gasPrice),
    bigintBytes(tx.gas),
    tx.to ? bytesOf(tx.to) : new Uint8Array(0),
    bigintBytes(tx.value),
    bigintBytes(tx.storageLimit),
    bigintBytes(tx.epochHeight),
    bigintBytes(tx.chainId),
    bytesOf(tx.data),
  ];
}

/** The unsigned encoding whose keccak256 is signed. */
export function encodeUnsignedTransaction(tx: CoreTransaction): Uint8Array {
  return rlpEncode(txFields(tx));
}

/** Signs a transaction: the raw bytes for cfx_sendRawTransaction and the transaction hash. */
export function signTransaction(privateKey: Hex, tx: CoreTransaction): { raw: Hex; hash: Hex } {
  const { r, s, v } = signDigest(privateKey, keccak(encodeUnsignedTransaction(tx)));
  const raw = rlpEncode([txFields(tx), bigintBytes(BigInt(v)), bigintBytes(r), bigintBytes(s)]);
  return { raw: hex(raw), hash: hex(keccak(raw)) };
}
