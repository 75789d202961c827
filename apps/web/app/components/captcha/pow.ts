import { searchPow } from '@cfx/protocol/pow.ts';

/**
 * The slider captcha's proof of work in the browser (the rule: @cfx/protocol/pow.ts): searched in
 * slices of ~8 ms, yielding to the page between them, so it stays responsive while the user drags.
 * Resolves to the nonce as a string; rejects with an AbortError when `signal` aborts (a new
 * challenge was loaded).
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
