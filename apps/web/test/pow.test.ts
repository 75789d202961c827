import crypto from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { leadingZeroBits, searchPow, sha256Words, solvePow } from '../app/components/captcha/pow.ts';

/** The slider captcha's proof of work in the browser: the same SHA-256 and rule as the server. */
const zeros = (text: string) => {
  const d = crypto.createHash('sha256').update(text).digest();
  let n = 0;
  for (const b of d) { if (b === 0) { n += 8; continue; } return n + Math.clz32(b) - 24; }
  return n;
};

describe('captcha proof of work', () => {
  it('hashes like node crypto (one and two blocks)', () => {
    for (const text of ['', 'abc', 'x'.repeat(55), 'y'.repeat(56), 'Zk3mVb2x9QwErTyUiOpAsD:123456', '验证'.repeat(30)]) {
      const words = sha256Words(new TextEncoder().encode(text));
      const hex = Array.from(words, (w) => (w >>> 0).toString(16).padStart(8, '0')).join('');
      expect(hex).toBe(crypto.createHash('sha256').update(text).digest('hex'));
      expect(leadingZeroBits(words)).toBe(zeros(text));
    }
  });

  it('finds a nonce the server accepts, and the first one', async () => {
    const id = 'q8Jx2mYcT0vLw3Rk5bNf9aHd';
    const nonce = await solvePow(id, 10);
    expect(zeros(`${id}:${nonce}`)).toBeGreaterThanOrEqual(10);
    for (let n = 0; n < Number(nonce); n++) expect(zeros(`${id}:${n}`)).toBeLessThan(10);
  });

  it('works in slices: a search out of time says where to go on', () => {
    const r = searchPow('slice-test', 30, 0, 0);
    expect(r.found).toBe(false);
    expect(r.nonce).toBeGreaterThan(0);
  });

  it('stops when aborted', async () => {
    const abort = new AbortController();
    const p = solvePow('never', 40, abort.signal);
    abort.abort();
    await expect(p).rejects.toMatchObject({ name: 'AbortError' });
  });
});
