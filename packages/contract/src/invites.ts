import { z } from 'zod';
import { envelope } from './envelope.ts';
import { page, pageNum, pageSize } from './paging.ts';

/**
 * Invite records (issue #11, /personal-center/invite): the users I invited. Only what the inviter
 * needs to see — a masked phone, the nickname, when they registered and whether they finished the
 * real-name verification — never their name, ID number, wallet or anything else.
 */
export const inviteRecordsBody = z.object({ pageNum, pageSize });

export const inviteRecord = z.object({
  /** 138****1234 */
  mobile: z.string(),
  nickname: z.string(),
  registeredAt: z.number().int(),
  isRealname: z.enum(['0', '1']),
});
export type InviteRecord = z.infer<typeof inviteRecord>;

export const inviteRecordsPage = page(inviteRecord).extend({
  inviteCode: z.string(),
  /** All users I invited (the same number as getinvitecode's invitedCount). */
  invitedCount: z.number().int(),
  /** Of them, those who completed the real-name verification. */
  realnameCount: z.number().int(),
});
export type InviteRecordsPage = z.infer<typeof inviteRecordsPage>;
export const inviteRecordsResponse = envelope(inviteRecordsPage.nullable());
