import crypto from 'node:crypto';
import type { CaptchaProvider } from './types.ts';

export interface YidunOptions { captchaId: string; secretId: string; secretKey: string; endpoint: string }

/** NetEase Yidun signature: md5 of the parameters sorted by name, concatenated as key+value, then the secret key. */
export function yidunSignature(params: Record<string, string>, secretKey: string): string {
  const text = Object.keys(params).sort().map((k) => k + params[k]).join('') + secretKey;
  return crypto.createHash('md5').update(text, 'utf8').digest('hex');
}

/** Production adapter: the server-side second check against Yidun's verify API (v2). */
export function yidunCaptcha(opts: YidunOptions, fetchImpl: typeof fetch = fetch): CaptchaProvider {
  return {
    name: 'yidun',
    async verify(validate) {
      if (!validate || validate.length > 1024) return false;
      const params: Record<string, string> = {
        captchaId: opts.captchaId,
        validate,
        user: '',
        secretId: opts.secretId,
        version: 'v2',
        timestamp: String(Date.now()),
        nonce: crypto.randomBytes(16).toString('hex'),
      };
      params.signature = yidunSignature(params, opts.secretKey);
      try {
        const res = await fetchImpl(opts.endpoint, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams(params).toString(),
          signal: AbortSignal.timeout(5000),
        });
        const body = (await res.json()) as { result?: boolean; error?: number };
        return body.error === 0 && body.result === true;
      } catch {
        return false;
      }
    },
  };
}
