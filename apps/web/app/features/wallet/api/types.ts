import type { z } from 'zod';
import type { walletChallenge, walletStatus } from '@cfx/contract/user.ts';

/** Response types inferred from the contract's schemas (type-only: no zod in the bundle). */
export type WalletChallenge = z.infer<typeof walletChallenge>;
export type WalletStatus = z.infer<typeof walletStatus>;
