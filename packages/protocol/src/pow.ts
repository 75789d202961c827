import { sha256 } from '@noble/hashes/sha2';

/**
 * The slider captcha's proof of work, one rule for the server (check), the web app (search while
 * the user drags) and the tests (solve): a nonce of 1–32 decimal digits such that
 * sha256(`${id}:${nonce}`) starts with `bits` zero bits. An attempt costs the client about 2^bits
 * hashes and the server one. SHA-256 comes from @noble/hashes (Web Crypto's digest is missing
 * outside a secure context and costs a promise per hash).
 */

const encoder = new TextEncoder();

/** Leading zero bits of a digest. */
export function leadingZeroBits(digest: Uint8Array): number {
  let n = 0;
  for (const byte of digest) {
    if (byte === 0) { n += 8; continue; }
    return n + Math.clz32(byte) - 24;
  }
  return n;
}

/** Whether `nonce` solves the puzzle of challenge `id` at `bits`. */
export function checkPow(id: string, nonce: string | undefined, bits: number): boolean {
  if (nonce === undefined || !/^[0-9]{1,32}$/.test(nonce)) return false;
  return leadingZeroBits(sha256(encoder.encode(`${id}:${nonce}`))) >= bits;
}

/** Tries nonces from `start` for at most `budgetMs` (Infinity: until found); the nonce found, or the next one to try. */
export function searchPow(id: string, bits: number, start: number, budgetMs: number): { nonce: number; found: boolean } {
  const deadline = performance.now() + budgetMs;
  const prefix = encoder.encode(`${id}:`);
  const buf = new Uint8Array(prefix.length + 16);
  buf.set(prefix);
  let nonce = start;
  for (;;) {
    for (let k = 0; k < 512; k++, nonce++) {
      // The nonce's decimal digits after the prefix (no string per try).
      let len = 0;
      for (let v = nonce; ; v = Math.floor(v / 10)) { len++; if (v < 10) break; }
      for (let v = nonce, i = len - 1; i >= 0; i--, v = Math.floor(v / 10)) buf[prefix.length + i] = 48 + (v % 10);
      if (leadingZeroBits(sha256(buf.subarray(0, prefix.length + len))) >= bits) return { nonce, found: true };
    }
    if (performance.now() >= deadline) return { nonce, found: false };
  }
}

/** Finds the first nonce at once (tests, scripts and browser-test helpers playing the client). */
export function solvePowNow(id: string, bits: number): string {
  return String(searchPow(id, bits, 0, Infinity).nonce);
}
