import type { z } from 'zod';
import type { inviteInfo, privacySetting, profpic, securitySetting } from '@cfx/contract/user.ts';
import type { cancelRequest, cancelStatus, exportTicket, mobileTicket, securityEvent, sessionItem, userCollection } from '@cfx/contract/account-security.ts';

/** Response types inferred from the contract's schemas (type-only: no zod in the bundle). */
export type Profpic = z.infer<typeof profpic>;
export type InviteInfo = z.infer<typeof inviteInfo>;
export type SecuritySetting = z.infer<typeof securitySetting>;
export type PrivacySetting = z.infer<typeof privacySetting>;
export type SessionItem = z.infer<typeof sessionItem>;
export type SecurityEvent = z.infer<typeof securityEvent>;
export type MobileTicket = z.infer<typeof mobileTicket>;
export type CancelStatus = z.infer<typeof cancelStatus>;
export type CancelRequest = z.infer<typeof cancelRequest>;
export type CancelBlocker = CancelStatus['blockers'][number];
export type ExportTicket = z.infer<typeof exportTicket>;
export type UserCollection = z.infer<typeof userCollection>;
