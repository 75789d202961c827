import { toHexAddress, type HexAddress } from '@cfx/protocol/address.ts';

/**
 * Memoised base32 → hex conversion for the hot paths (settlement, the chain watcher): decoding a
 * CIP-37 address costs a checksum over big integers, and the same few addresses (contracts,
 * active wallets) come back for every order.
 */
const cache = new Map<string, HexAddress>();
export function hexOf(address: string): HexAddress {
  let h = cache.get(address);
  if (h === undefined) {
    h = toHexAddress(address);
    if (cache.size > 50_000) cache.clear();
    cache.set(address, h);
  }
  return h;
}

export function sameAddr(a: string | null | undefined, b: string | null | undefined): boolean {
  if (!a || !b) return false;
  try {
    return hexOf(a) === hexOf(b);
  } catch {
    return false;
  }
}
