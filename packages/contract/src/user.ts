import { z } from 'zod';
import { envelope } from './envelope.ts';

/**
 * Schemas of the user calls. Request schemas are deliberately lenient about types
 * (the server checks the semantics and answers with the spec's codes and messages);
 * they reject only what is structurally impossible.
 */
const str = (max = 200) => z.string().max(max);
const optStr = (max = 200) => z.string().max(max).optional().nullable();

/** '4': a security code to the logged-in user's own phone; '5': a code to the NEW phone of a phone change. */
export const SmsType = { REGISTER: '1', LOGIN: '2', FORGOT: '3', SECURITY: '4', NEW_MOBILE: '5' } as const;

export const smsCodeBody = z.object({
  mobile: str(32),
  type: z.union([z.string().max(2), z.number().int()]).transform(String),
  NECaptchaValidate: str(512),
});
export const mobileSmsCodeBody = z.object({
  type: z.union([z.string().max(2), z.number().int()]).transform(String).optional(),
  NECaptchaValidate: str(512),
});

export const registerBody = z.object({
  mobile: str(32),
  pwd: str(200),
  smsCode: str(16),
  inviteCode: optStr(32),
  registChannel: optStr(64),
});

export const loginBody = z.object({
  mobile: str(32),
  pwd: optStr(200),
  loginType: z.union([z.literal(1), z.literal(2), z.literal('1'), z.literal('2')]).transform(Number),
  smsCode: optStr(16),
});

export const checkMobileBody = z.object({ mobile: str(32), smscode: str(16) });
export const resetBody = z.object({ mobile: str(32), token: str(200), newPwd: str(200) });
export const changeProfpicBody = z.object({ id: z.union([z.string().max(64), z.number().int()]).transform(String) });
export const modifyNicknameBody = z.object({ nickname: str(200) });
export const walletLoginBody = z.object({ walletAddress: str(128), code: str(1024) });
export const walletChallengeBody = z.object({ walletAddress: str(128) });
export const walletChallenge = z.object({ message: z.string(), expiresAt: z.number().int() });
export const walletStatus = z.object({ walletAddress: z.string(), isLoginWallet: z.boolean() });

export const tokenData = z.object({ token: z.string() });
export const userProfile = z.object({
  profpicUrl: z.string(),
  nickname: z.string(),
  isRealname: z.enum(['0', '1']),
  walletAddress: z.string(),
  mobile: z.string(),
  isCreator: z.number().int(),
  accountId: z.string(),
});
export type UserProfile = z.infer<typeof userProfile>;
export const profpic = z.object({ id: z.string(), url: z.string() });
export const inviteInfo = z.object({ inviteCode: z.string(), invitedCount: z.number().int() });
export const securitySetting = z.object({
  mobile: z.string(),
  hasPassword: z.boolean(),
  isRealname: z.enum(['0', '1']),
  walletAddress: z.string(),
});
export const privacySetting = z.object({
  showCollection: z.boolean(),
  personalizedRecommend: z.boolean(),
});

export const tokenResponse = envelope(tokenData.nullable());
export const profileResponse = envelope(userProfile.nullable());
export const emptyResponse = envelope(z.null());

/** Self-hosted slider captcha. */
export const captchaChallenge = z.object({
  id: z.string(),
  /** PNG data URL of the background (the hole and decoy cuts drawn into it). */
  bg: z.string(),
  /** PNG data URL of the piece: `pieceSize` wide, the background's full height, transparent but for the piece at its row. */
  piece: z.string(),
  width: z.number().int(),
  height: z.number().int(),
  pieceSize: z.number().int(),
  /** Proof of work to send with `check`: a nonce such that sha256(`${id}:${nonce}`) starts with `bits` zero bits. */
  pow: z.object({ algorithm: z.literal('sha256'), bits: z.number().int() }),
});
export const captchaCheckBody = z.object({
  id: str(64),
  /** Final left offset of the piece in challenge-image pixels. */
  x: z.number().finite(),
  /** Drag trace: [elapsed ms since drag start, x] samples. */
  track: z.array(z.tuple([z.number().finite(), z.number().finite()])).max(2000),
  /** The proof-of-work nonce (decimal digits); checked before the drop. */
  pow: z.string().max(32).optional(),
});
export const captchaToken = z.object({ NECaptchaValidate: z.string() });

export const smsOutboxItem = z.object({ mobile: z.string(), type: z.string(), code: z.string(), createdAt: z.string() });

export const realnameBody = z.object({ name: str(64), idNumber: str(32) });
export const realnameInfo = z.object({
  isRealname: z.enum(['0', '1']),
  name: z.string(),
  idNumber: z.string(),
  verifiedAt: z.number().int().nullable(),
});
