import { UserPaths } from '@cfx/contract/routes.ts';
import { api } from '../../../lib/api.ts';

/** POST walletlogin {walletAddress, code} (code = the personal_sign signature of the challenge). */
export function walletLogin(walletAddress: string, code: string) {
  return api<{ walletAddress: string }>(UserPaths.walletlogin, { walletAddress, code });
}
