/**
 * The slider captcha's proof of work: find a nonce such that sha256(`${id}:${nonce}`) starts with
 * `bits` zero bits. Plain JavaScript SHA-256 (Web Crypto's digest is unavailable outside a secure
 * context and costs a promise per hash), run in slices of a few milliseconds so the page stays
 * responsive while the user drags.
 */

const K = new Uint32Array([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3,
  0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
  0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13,
  0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
  0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208,
  0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
]);

/** SHA-256 of bytes; returns the eight 32-bit words of the digest. */
export function sha256Words(bytes: Uint8Array): Uint32Array {
  const n = Math.ceil((bytes.length + 9) / 64) * 64;
  const msg = new Uint8Array(n);
  msg.set(bytes);
  msg[bytes.length] = 0x80;
  const bitLen = bytes.length * 8;
  msg[n - 4] = (bitLen >>> 24) & 0xff;
  msg[n - 3] = (bitLen >>> 16) & 0xff;
  msg[n - 2] = (bitLen >>> 8) & 0xff;
  msg[n - 1] = bitLen & 0xff;
  const h = new Uint32Array([0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19]);
  const w = new Uint32Array(64);
  for (let off = 0; off < n; off += 64) {
    for (let i = 0; i < 16; i++) w[i] = (msg[off + i * 4]! << 24) | (msg[off + i * 4 + 1]! << 16) | (msg[off + i * 4 + 2]! << 8) | msg[off + i * 4 + 3]!;
    for (let i = 16; i < 64; i++) {
      const a = w[i - 15]!, b = w[i - 2]!;
      const s0 = ((a >>> 7) | (a << 25)) ^ ((a >>> 18) | (a << 14)) ^ (a >>> 3);
      const s1 = ((b >>> 17) | (b << 15)) ^ ((b >>> 19) | (b << 13)) ^ (b >>> 10);
      w[i] = (w[i - 16]! + s0 + w[i - 7]! + s1) | 0;
    }
    let a = h[0]!, b = h[1]!, c = h[2]!, d = h[3]!, e = h[4]!, f = h[5]!, g = h[6]!, hh = h[7]!;
    for (let i = 0; i < 64; i++) {
      const S1 = ((e >>> 6) | (e << 26)) ^ ((e >>> 11) | (e << 21)) ^ ((e >>> 25) | (e << 7));
      const t1 = (hh + S1 + ((e & f) ^ (~e & g)) + K[i]! + w[i]!) | 0;
      const S0 = ((a >>> 2) | (a << 30)) ^ ((a >>> 13) | (a << 19)) ^ ((a >>> 22) | (a << 10));
      const t2 = (S0 + ((a & b) ^ (a & c) ^ (b & c))) | 0;
      hh = g; g = f; f = e; e = (d + t1) | 0; d = c; c = b; b = a; a = (t1 + t2) | 0;
    }
    h[0] = (h[0]! + a) | 0; h[1] = (h[1]! + b) | 0; h[2] = (h[2]! + c) | 0; h[3] = (h[3]! + d) | 0;
    h[4] = (h[4]! + e) | 0; h[5] = (h[5]! + f) | 0; h[6] = (h[6]! + g) | 0; h[7] = (h[7]! + hh) | 0;
  }
  return h;
}

/** Leading zero bits of a digest given as 32-bit words. */
export function leadingZeroBits(words: Uint32Array): number {
  let n = 0;
  for (const word of words) {
    if (word === 0) { n += 32; continue; }
    return n + Math.clz32(word);
  }
  return n;
}

const encoder = new TextEncoder();

/** Tries nonces from `start` for at most `budgetMs`; the nonce found, or the next one to try. */
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
      if (leadingZeroBits(sha256Words(buf.subarray(0, prefix.length + len))) >= bits) return { nonce, found: true };
    }
    if (performance.now() >= deadline) return { nonce, found: false };
  }
}

/**
 * Solves a challenge's puzzle in slices of ~8 ms, yielding to the page between them. Resolves to the
 * nonce as a string; rejects with an AbortError when `signal` aborts (a new challenge was loaded).
 */
export function solvePow(id: string, bits: number, signal?: AbortSignal): Promise<string> {
  return new Promise((resolve, reject) => {
    let next = 0;
    const step = () => {
      if (signal?.aborted) return reject(new DOMException('aborted', 'AbortError'));
      const r = searchPow(id, bits, next, 8);
      if (r.found) return resolve(String(r.nonce));
      next = r.nonce;
      setTimeout(step, 0);
    };
    setTimeout(step, 0);
  });
}
