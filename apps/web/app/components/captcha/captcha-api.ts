import type { z } from 'zod';
import type { captchaChallenge } from '@cfx/contract/user.ts';
import { CaptchaPaths } from '@cfx/contract/routes.ts';
import { api } from '../../lib/api.ts';

export type CaptchaChallenge = z.infer<typeof captchaChallenge>;

export function getCaptcha() {
  return api<CaptchaChallenge>(CaptchaPaths.get, {}, { silent: true });
}

/**
 * x in image pixels; track = [[elapsedMs, x], …]; pow = the challenge's proof-of-work nonce
 * (components/captcha/pow.ts over @cfx/protocol/pow.ts). Success gives the one-time NECaptchaValidate.
 */
export function checkCaptcha(id: string, x: number, track: [number, number][], pow: string) {
  return api<{ NECaptchaValidate: string }>(CaptchaPaths.check, { id, x, track, pow }, { silent: true });
}
