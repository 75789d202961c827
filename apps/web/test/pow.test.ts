import crypto from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { solvePowNow } from '@cfx/protocol/pow.ts';
import { solvePow } from '../app/components/captcha/pow.ts';

/** The browser's sliced search of the slider captcha's proof of work (the rule itself is tested in packages/protocol). */
const zeros = (text: string) => {
  const d = crypto.createHash('sha256').update(text).digest();
  let n = 0;
  for (const b of d) { if (b === 0) { n += 8; continue; } return n + Math.clz32(b) - 24; }
  return n;
};

describe('captcha proof of work in the browser', () => {
  it('finds the first nonce the server accepts, across slices', async () => {
    const id = 'q8Jx2mYcT0vLw3Rk5bNf9aHd';
    const nonce = await solvePow(id, 14);
    expect(zeros(`${id}:${nonce}`)).toBeGreaterThanOrEqual(14);
    expect(nonce).toBe(solvePowNow(id, 14));
  });

  it('stops when aborted', async () => {
    const abort = new AbortController();
    const p = solvePow('never', 40, abort.signal);
    abort.abort();
    await expect(p).rejects.toMatchObject({ name: 'AbortError' });
  });
});
