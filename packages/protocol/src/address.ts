// Conflux Core address helpers: hex (0x…, what contracts and CIP-23 typed data use)
// <-> CIP-37 base32 (cfx:…, what wallets and users see).
//
// On Core the first hex nibble tells the kind of account: 0x1… user, 0x8… contract,
// 0x0… built-in (e.g. 0x0888…0001 SponsorWhitelistControl).
import cfxAddress from '@conflux-dev/conflux-address-js';

/** Network id of Conflux Core mainnet (base32 prefix `cfx:`). The product only accepts this network. */
export const MAINNET_NETWORK_ID = 1029;
/** Network id of Conflux Core testnet (base32 prefix `cfxtest:`). */
export const TESTNET_NETWORK_ID = 1;

export type HexAddress = `0x${string}`;

export const ZERO_HEX_ADDRESS: HexAddress = '0x0000000000000000000000000000000000000000';

const HEX_ADDRESS = /^0x[0-9a-fA-F]{40}$/;

/** `0x` + 40 hex digits (any case). */
export function isHexAddress(value: unknown): value is HexAddress {
  return typeof value === 'string' && HEX_ADDRESS.test(value);
}

/** A valid CIP-37 base32 address of any network (checksum verified). */
export function isBase32Address(value: unknown): value is string {
  return typeof value === 'string' && !value.startsWith('0x') && cfxAddress.isValidCfxAddress(value);
}

/** Network id encoded in a base32 address (throws if the address is invalid). */
export function networkIdOf(base32: string): number {
  return cfxAddress.decode(base32).netId;
}

/**
 * True for a valid mainnet base32 address: network 1029, `cfx:` prefix
 * (the verbose form `CFX:TYPE.USER:…` is accepted too).
 */
export function isMainnetAddress(value: unknown): boolean {
  if (typeof value !== 'string' || !value.toLowerCase().startsWith('cfx:')) return false;
  try {
    return cfxAddress.decode(value).netId === MAINNET_NETWORK_ID;
  } catch {
    return false;
  }
}

/**
 * Base32 decodes and encodes are costly (a polymod checksum each, ≈ 20–60 µs in the library's
 * big-integer arithmetic): both directions are memoised, bounded. A decoded address in its canonical
 * form (lower case, not verbose) is also remembered as the encoding of its hex: a buyer's address is
 * decoded for the mint transaction and its hex comes back in the Transfer log, which the indexer
 * turns into base32 again — one checksum per new buyer instead of two.
 */
const hexMemo = new Map<string, HexAddress>();
const base32Memo = new Map<string, string>();
/** How many checksums the codec computed (tests read it to see the memos work). */
export const addressCodecStats = { decodes: 0, encodes: 0 };
function remember<V>(memo: Map<string, V>, key: string, value: V): V {
  if (memo.size >= 20_000) memo.clear();
  memo.set(key, value);
  return value;
}
const base32Key = (hex: string, networkId: number, verbose: boolean) => `${hex}/${networkId}/${verbose ? 1 : 0}`;

/**
 * Lower-case hex form of a base32 or hex address. Throws on anything else.
 * Use it for everything that goes into typed data or contract calls.
 */
export function toHexAddress(address: string): HexAddress {
  if (isHexAddress(address)) return address.toLowerCase() as HexAddress;
  const known = hexMemo.get(address);
  if (known) return known;
  const { hex, netId } = decodeBase32(address);
  if (address === address.toLowerCase() && !address.includes('.')) remember(base32Memo, base32Key(hex, netId, false), address);
  return remember(hexMemo, address, hex);
}

function decodeBase32(address: string): { hex: HexAddress; netId: number } {
  let decoded: { hexAddress: Uint8Array; netId: number };
  addressCodecStats.decodes++;
  try {
    decoded = cfxAddress.decode(address);
  } catch (err) {
    throw new TypeError(`invalid Conflux address: ${address} (${(err as Error).message})`, { cause: err });
  }
  let hex = '0x';
  for (const byte of decoded.hexAddress) hex += byte.toString(16).padStart(2, '0');
  return { hex: hex as HexAddress, netId: decoded.netId };
}

/**
 * Base32 (CIP-37) form of a hex or base32 address for `networkId` (default mainnet),
 * e.g. `cfx:aak…`. A base32 input is re-encoded for the requested network.
 */
export function toBase32Address(address: string, networkId: number = MAINNET_NETWORK_ID, verbose = false): string {
  const hex = toHexAddress(address);
  const key = base32Key(hex, networkId, verbose);
  const known = base32Memo.get(key);
  if (known) return known;
  addressCodecStats.encodes++;
  return remember(base32Memo, key, cfxAddress.encode(hex, networkId, verbose) as string);
}

/** Whether two addresses (hex or base32, any case) denote the same account. */
export function sameAddress(a: string, b: string): boolean {
  try {
    return toHexAddress(a) === toHexAddress(b);
  } catch {
    return false;
  }
}

/** Short form for display: `cfx:aak…7dpe` (keeps the prefix). */
export function shortenAddress(address: string, head = 4, tail = 4): string {
  const colon = address.indexOf(':');
  const prefix = colon >= 0 ? address.slice(0, colon + 1) : address.slice(0, 2);
  const body = address.slice(prefix.length);
  if (body.length <= head + tail + 1) return address;
  return `${prefix}${body.slice(0, head)}…${body.slice(-tail)}`;
}
