import { describe, expect, it } from 'vitest';
import { checkPow, solvePowNow } from '@cfx/protocol/pow.ts';
import { solvePow } from '../app/components/captcha/pow.ts';

/** The browser's sliced search of the slider captcha's proof of work (the rule itself is tested in packages/protocol). */

describe('captcha proof of work in the browser', () => {
  it('finds the first nonce the server accepts, across slices', async () => {
    const id = 'q8Jx2mYcT0vLw3Rk5bNf9aHd';
    const nonce = await solvePow(id, 14);
    expect(checkPow(id, nonce, 14)).toBe(true);
    expect(nonce).toBe(solvePowNow(id, 14));
  });

  it('stops when aborted', async () => {
    const abort = new AbortController();
    const p = solvePow('never', 40, abort.signal);
    abort.abort();
    await expect(p).rejects.toMatchObject({ name: 'AbortError' });
  });
});
