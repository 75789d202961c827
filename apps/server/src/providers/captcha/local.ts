import type { Db } from '../../db/database.ts';
import type { CaptchaProvider } from './types.ts';
import { consumeCaptchaToken } from './local-token.ts';

/**
 * The self-hosted slider (default) and the test provider verify the same way:
 * the token must be one we issued, unused and unexpired. They differ in who may issue
 * tokens: the slider only after a solved challenge, `test` also from POST /dev/captcha-token.
 */
export function localCaptcha(name: 'slider' | 'test', db: Db, now: () => number): CaptchaProvider {
  return { name, verify: (token) => consumeCaptchaToken(db, token, now()) };
}
