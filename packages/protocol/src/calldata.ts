import { keccak_256 } from '@noble/hashes/sha3';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils';

/**
 * Calldata of the few contract calls the browser's wallet sends itself (approve, transferFrom,
 * Exchange.cancelOrder), without bundling a whole ABI coder into the web app. Selectors are
 * computed from the canonical signatures (keccak256, first 4 bytes), never written by hand; the
 * web tests compare every builder with js-conflux-sdk's coder on the compiled ABIs.
 */

/** The 4-byte selector of a canonical function signature, e.g. `approve(address,uint256)`. */
export function selector(signature: string): string {
  return `0x${bytesToHex(keccak_256(utf8ToBytes(signature)).subarray(0, 4))}`;
}

const APPROVE = selector('approve(address,uint256)');
const TRANSFER_FROM = selector('transferFrom(address,address,uint256)');
const CANCEL_ORDER = selector('cancelOrder(string)');

const word = (hex: string) => hex.replace(/^0x/, '').toLowerCase().padStart(64, '0');
const HEX_ADDRESS = /^0x[0-9a-fA-F]{40}$/;
const TOKEN_ID = /^\d{1,78}$/;

/** `approve(address to, uint256 tokenId)`; `to` in hex. */
export function approveCalldata(toHex: string, tokenId: string): string {
  if (!HEX_ADDRESS.test(toHex)) throw new TypeError(`approve: not a hex address: ${toHex}`);
  if (!TOKEN_ID.test(tokenId)) throw new TypeError(`approve: bad token id: ${tokenId}`);
  return `${APPROVE}${word(toHex)}${word(BigInt(tokenId).toString(16))}`;
}

/** `transferFrom(address from, address to, uint256 tokenId)`; addresses in hex. */
export function transferFromCalldata(fromHex: string, toHex: string, tokenId: string): string {
  for (const a of [fromHex, toHex]) if (!HEX_ADDRESS.test(a)) throw new TypeError(`transferFrom: not a hex address: ${a}`);
  if (!TOKEN_ID.test(tokenId)) throw new TypeError(`transferFrom: bad token id: ${tokenId}`);
  return `${TRANSFER_FROM}${word(fromHex)}${word(toHex)}${word(BigInt(tokenId).toString(16))}`;
}

/** `Exchange.cancelOrder(string sellerOrderId)`: selector, offset 0x20, byte length, UTF-8 bytes padded to 32. */
export function cancelOrderCalldata(sellerOrderId: string): string {
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(sellerOrderId)) throw new TypeError(`cancelOrder: bad sellerOrderId: ${sellerOrderId}`);
  const bytes = utf8ToBytes(sellerOrderId);
  const hex = bytesToHex(bytes);
  return `${CANCEL_ORDER}${word('20')}${word(bytes.length.toString(16))}${hex.padEnd(Math.ceil(hex.length / 64) * 64, '0')}`;
}
