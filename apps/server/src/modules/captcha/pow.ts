import crypto from 'node:crypto';

/**
 * The slider's proof of work: a nonce (1–32 decimal digits) such that sha256(`${id}:${nonce}`)
 * starts with `bits` zero bits. It makes every attempt cost the client about 2^bits hashes
 * (the web app finds one while the user drags); checking costs the server one hash.
 */
export function verifyPow(id: string, nonce: string | undefined, bits: number): boolean {
  if (nonce === undefined || !/^[0-9]{1,32}$/.test(nonce)) return false;
  return leadingZeroBits(crypto.createHash('sha256').update(`${id}:${nonce}`).digest()) >= bits;
}

export function leadingZeroBits(digest: Uint8Array): number {
  let n = 0;
  for (const byte of digest) {
    if (byte === 0) { n += 8; continue; }
    return n + Math.clz32(byte) - 24;
  }
  return n;
}

/** Finds a nonce by brute force (tests, scripts and browser-test helpers playing the client). */
export function solvePow(id: string, bits: number): string {
  for (let nonce = 0; ; nonce++) if (verifyPow(id, String(nonce), bits)) return String(nonce);
}
