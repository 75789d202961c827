import { UserPaths } from '@cfx/contract/routes.ts';
import { api } from '../../../lib/api.ts';
import type { WalletStatus } from './types.ts';

/** POST walletloginstatus → {walletAddress, isLoginWallet} of this session. Silent: a background check. */
export function walletLoginStatus() {
  return api<WalletStatus>(UserPaths.walletloginstatus, {}, { silent: true });
}
