import { UserPaths } from '@cfx/contract/routes.ts';
import { api } from '../../../lib/api.ts';
import type { WalletChallenge } from './types.ts';

/** POST walletchallenge {walletAddress} → {message, expiresAt}: the text to sign with personal_sign. */
export function walletChallenge(walletAddress: string) {
  return api<WalletChallenge>(UserPaths.walletchallenge, { walletAddress });
}
