import { SecurityPaths } from '@cfx/contract/routes.ts';
import { api } from '../../../lib/api.ts';
import type { MobileTicket } from './types.ts';

/** Phone change step 1: the security code of the current phone → a ticket for steps 2 and 3. */
export function verifyCurrentMobile(smsCode: string) {
  return api<MobileTicket>(SecurityPaths.mobileVerify, { smsCode });
}
