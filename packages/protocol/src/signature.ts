// Shape checks of secp256k1 signatures as produced by Conflux wallets (r ‖ s ‖ v, 65 bytes).
//
// Fluent and js-conflux-sdk sign with v = 0/1 (Ethereum tools use 27/28); the Exchange
// contract accepts both and rejects high-s (malleable) signatures. The server should run
// checkSignatureShape before accepting a listing, so a bad signature fails at listing
// time rather than at settlement.

/** secp256k1 group order n. */
export const SECP256K1_N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;
/** n / 2: a canonical (low-s) signature has 0 < s <= n / 2. */
export const SECP256K1_HALF_N = SECP256K1_N >> 1n;

export interface SignatureParts {
  r: `0x${string}`;
  s: `0x${string}`;
  /** As signed: 0/1 (Conflux) or 27/28 (Ethereum style). */
  v: number;
}

/** Split a 65-byte hex signature. Throws if it is not 0x + 130 hex digits. */
export function splitSignature(signature: string): SignatureParts {
  if (!/^0x[0-9a-fA-F]{130}$/.test(signature)) throw new TypeError('signature must be 65 bytes of 0x-prefixed hex');
  return {
    r: `0x${signature.slice(2, 66)}`,
    s: `0x${signature.slice(66, 130)}`,
    v: parseInt(signature.slice(130, 132), 16),
  };
}

export type SignatureProblem = 'length' | 'v' | 'high-s' | 'zero';

/**
 * Why the Exchange would reject this signature's shape, or null if the shape is fine
 * (65 bytes, v in {0,1,27,28}, 0 < r, 0 < s <= n/2). Whether it was made by the
 * seller is a separate check (recovery), done by the contract / js-conflux-sdk.
 */
export function checkSignatureShape(signature: string): SignatureProblem | null {
  let parts: SignatureParts;
  try {
    parts = splitSignature(signature);
  } catch {
    return 'length';
  }
  if (![0, 1, 27, 28].includes(parts.v)) return 'v';
  const r = BigInt(parts.r);
  const s = BigInt(parts.s);
  if (r === 0n || s === 0n || r >= SECP256K1_N) return 'zero';
  if (s > SECP256K1_HALF_N) return 'high-s';
  return null;
}

/**
 * The malleated twin of a signature: (r, n - s, v flipped). Signs the same digest for the
 * same key, which is why fill state must never be keyed by signature bytes. Used by tests.
 */
export function malleateSignature(signature: string): `0x${string}` {
  const { r, s, v } = splitSignature(signature);
  const flippedS = (SECP256K1_N - BigInt(s)).toString(16).padStart(64, '0');
  const flippedV = v === 0 || v === 1 ? 1 - v : v === 27 ? 28 : 27;
  return `${r}${flippedS}${flippedV.toString(16).padStart(2, '0')}`;
}
