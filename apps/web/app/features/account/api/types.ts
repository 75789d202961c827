import type { z } from 'zod';
import type { inviteInfo, privacySetting, profpic, securitySetting } from '@cfx/contract/user.ts';

/** Response types inferred from the contract's schemas (type-only: no zod in the bundle). */
export type Profpic = z.infer<typeof profpic>;
export type InviteInfo = z.infer<typeof inviteInfo>;
export type SecuritySetting = z.infer<typeof securitySetting>;
export type PrivacySetting = z.infer<typeof privacySetting>;
