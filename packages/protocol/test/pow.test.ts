import crypto from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { checkPow, leadingZeroBits, searchPow, solvePowNow } from '../src/pow.ts';

/** Leading zero bits by node:crypto, independent of the module under test. */
const zeros = (text: string) => {
  const d = crypto.createHash('sha256').update(text).digest();
  let n = 0;
  for (const b of d) { if (b === 0) { n += 8; continue; } return n + Math.clz32(b) - 24; }
  return n;
};

describe('captcha proof of work', () => {
  it('counts leading zero bits of a digest', () => {
    expect(leadingZeroBits(new Uint8Array([0, 0, 0x80]))).toBe(16);
    expect(leadingZeroBits(new Uint8Array([0x01, 0xff]))).toBe(7);
    expect(leadingZeroBits(new Uint8Array([0xff]))).toBe(0);
    expect(leadingZeroBits(new Uint8Array(4))).toBe(32);
  });

  it('solves with the first nonce that node:crypto agrees on, and checks like node:crypto', () => {
    for (const [id, bits] of [['q8Jx2mYcT0vLw3Rk5bNf9aHd', 10], ['验证-challenge', 8], ['x'.repeat(60), 6]] as const) {
      const nonce = solvePowNow(id, bits);
      expect(zeros(`${id}:${nonce}`)).toBeGreaterThanOrEqual(bits);
      for (let n = 0; n < Number(nonce); n++) expect(zeros(`${id}:${n}`)).toBeLessThan(bits);
      expect(checkPow(id, nonce, bits)).toBe(true);
      for (let n = 0; n < 50; n++) expect(checkPow(id, String(n), bits)).toBe(zeros(`${id}:${n}`) >= bits);
    }
  });

  it('refuses nonces that are not 1-32 decimal digits', () => {
    for (const bad of [undefined, '', '-1', '1e3', ' 1', '0x10', '1'.repeat(33)]) expect(checkPow('id', bad, 0)).toBe(false);
    expect(checkPow('id', '1'.repeat(32), 0)).toBe(true);
  });

  it('works in slices: a search out of time says where to go on', () => {
    const r = searchPow('slice-test', 30, 0, 0);
    expect(r.found).toBe(false);
    expect(r.nonce).toBeGreaterThan(0);
    const id = 'resume', bits = 9;
    let next = 0, found: { nonce: number; found: boolean } | undefined;
    while (!(found = searchPow(id, bits, next, 0)).found) next = found.nonce;
    expect(String(found.nonce)).toBe(solvePowNow(id, bits));
  });
});
