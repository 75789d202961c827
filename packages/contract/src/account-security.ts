import { z } from 'zod';
import { goodsCard } from './catalog.ts';
import { envelope } from './envelope.ts';
import { paging, safeText } from './paging.ts';

/**
 * Security and privacy of the personal center (issue #11, docs/api.md "Security and privacy"):
 * change password, change phone (two codes), sessions, privacy switches, the public collection,
 * account cancellation with a cooling-off period and the personal-data export (PIPL).
 * Request schemas only refuse what is structurally impossible; the server checks the rules and
 * answers with the gateway's codes and messages.
 */
const str = (max = 200) => safeText(max);
const optStr = (max = 200) => safeText(max).optional().nullable();

/** change password: `oldPwd` (base64) when the account has a password, else a security code (type 4). */
export const changePasswordBody = z.object({
  oldPwd: optStr(200),
  newPwd: str(200),
  smsCode: optStr(16),
});

/** Step 1 of a phone change: the security code (type 4) sent to the current phone. */
export const mobileVerifyBody = z.object({ smsCode: str(16) });
export const mobileTicket = z.object({ ticket: z.string(), expiresAt: z.number().int() });
/** Step 2: a code (type 5) to the new phone, behind the slider captcha. */
export const mobileNewCodeBody = z.object({ ticket: str(200), mobile: str(32), NECaptchaValidate: str(512) });
/** Step 3: the ticket of step 1 and the code the new phone received. */
export const mobileChangeBody = z.object({ ticket: str(200), mobile: str(32), smsCode: str(16) });
export const mobileChanged = z.object({ mobile: z.string() });

/** One login session; `id` is a public id (never the token or its hash). */
export const sessionItem = z.object({
  id: z.string(),
  current: z.boolean(),
  /** "Chrome 126 · Windows" style summary of the user agent captured at login ('' when unknown). */
  device: z.string(),
  /** The login IP, masked (`203.0.*.*`). */
  ip: z.string(),
  createdAt: z.number().int(),
  lastSeenAt: z.number().int(),
  expiresAt: z.number().int(),
});
export type SessionItem = z.infer<typeof sessionItem>;
/** Revoke one session by id, or every session but the current one (`others: true`). */
export const revokeSessionsBody = z.object({ id: optStr(64), others: z.boolean().optional().nullable() });
export const revokeResult = z.object({ revoked: z.number().int() });

export const SECURITY_EVENT_KINDS = [
  'password_changed',
  'mobile_changed',
  'session_revoked',
  'sessions_revoked',
  'cancel_requested',
  'cancel_revoked',
  'cancel_blocked',
  'account_cancelled',
  'export_requested',
  'export_downloaded',
  'privacy_changed',
] as const;
export type SecurityEventKind = (typeof SECURITY_EVENT_KINDS)[number];
export const securityEvent = z.object({
  kind: z.enum(SECURITY_EVENT_KINDS),
  device: z.string(),
  ip: z.string(),
  at: z.number().int(),
});

/** The setter takes either switch (or both); the answer is the stored state. */
export const privacySetBody = z.object({
  showCollection: z.boolean().optional().nullable(),
  personalizedRecommend: z.boolean().optional().nullable(),
});

/** A user's collection on public pages (the creator page); hidden when the owner switched showCollection off. */
export const userCollectionBody = z.object({ accountId: str(32), ...paging });
export const userCollection = z.object({
  hidden: z.boolean(),
  list: z.array(goodsCard),
  total: z.number().int(),
  pageNum: z.number().int(),
  pageSize: z.number().int(),
});

/** What keeps an account from being cancelled (money or goods that would be lost). */
export const CANCEL_BLOCKER_KINDS = ['listed', 'unminted', 'orders', 'bids', 'balance', 'payouts', 'creator'] as const;
export type CancelBlockerKind = (typeof CANCEL_BLOCKER_KINDS)[number];
export const cancelBlocker = z.object({
  kind: z.enum(CANCEL_BLOCKER_KINDS),
  count: z.number().int(),
  /** balance only: the amount in fen. */
  amountFen: z.number().int().nullable(),
});
export type CancelBlocker = z.infer<typeof cancelBlocker>;
export const CANCEL_REQUEST_STATUSES = ['cooling', 'revoked', 'blocked', 'done'] as const;
export const cancelRequest = z.object({
  status: z.enum(CANCEL_REQUEST_STATUSES),
  requestedAt: z.number().int(),
  effectiveAt: z.number().int(),
  /** blocked: what was found when the cooling-off period ended. */
  blockers: z.array(cancelBlocker),
});
export const cancelStatus = z.object({
  coolingDays: z.number().int(),
  blockers: z.array(cancelBlocker),
  /** The latest request (cooling, or how the last one ended), null when there is none. */
  request: cancelRequest.nullable(),
  serverTime: z.number().int(),
});
/** Cancellation needs a fresh security code (type 4) and the user's explicit confirmation. */
export const cancelApplyBody = z.object({ smsCode: str(16), confirm: z.boolean() });
/** Refusal (status 1032): the same envelope with the blockers as data. */
export const cancelRefusal = z.object({ blockers: z.array(cancelBlocker) });

/**
 * Personal data export: without a code the real-name data is masked; with a fresh security code
 * (type 4) the owner's full name and ID number are included.
 */
export const exportApplyBody = z.object({ smsCode: optStr(16) });
export const exportTicket = z.object({
  downloadUrl: z.string(),
  expiresAt: z.number().int(),
  includesIdNumber: z.boolean(),
});

export const changePasswordResponse = envelope(z.null());
export const mobileTicketResponse = envelope(mobileTicket.nullable());
export const mobileChangedResponse = envelope(mobileChanged.nullable());
export const sessionsResponse = envelope(z.array(sessionItem).nullable());
export const revokeResponse = envelope(revokeResult.nullable());
export const securityEventsResponse = envelope(z.array(securityEvent).nullable());
export const userCollectionResponse = envelope(userCollection.nullable());
export const cancelStatusResponse = envelope(cancelStatus.nullable());
export const cancelApplyResponse = envelope(z.union([cancelRequest, cancelRefusal]).nullable());
export const exportTicketResponse = envelope(exportTicket.nullable());
