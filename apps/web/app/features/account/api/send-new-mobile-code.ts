import { SecurityPaths } from '@cfx/contract/routes.ts';
import { api } from '../../../lib/api.ts';

/** Phone change step 2: a code (type 5) to the new phone; needs a fresh slider-captcha token. */
export function sendNewMobileCode(ticket: string, mobile: string, NECaptchaValidate: string) {
  return api<null>(SecurityPaths.mobileNewCode, { ticket, mobile, NECaptchaValidate });
}
