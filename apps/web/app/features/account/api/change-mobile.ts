import { SecurityPaths } from '@cfx/contract/routes.ts';
import { api } from '../../../lib/api.ts';

/** Phone change step 3: the ticket, the new phone and its code. */
export function changeMobile(ticket: string, mobile: string, smsCode: string) {
  return api<{ mobile: string }>(SecurityPaths.mobileChange, { ticket, mobile, smsCode });
}
