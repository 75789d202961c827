import { UserPaths } from '@cfx/contract/routes.ts';
import { api } from '../../../lib/api.ts';

/** Forgot password step 1: checks the SMS code; data.token authorises the reset. */
export function checkMobile(mobile: string, smscode: string) {
  return api<{ token: string }>(UserPaths.checkmobile, { mobile, smscode });
}
