import { UserPaths } from '@cfx/contract/routes.ts';
import { api } from './api.ts';

/** mobile/smscode: a security code (type 4) to my own phone; needs a fresh slider-captcha token. */
export function sendSecurityCode(NECaptchaValidate: string) {
  return api<null>(UserPaths.mobileSmscode, { NECaptchaValidate });
}
