/** The public face of modules/accounts: what other modules, flows and the app may use (docs/architecture.md, "Module map"). */
export { clientMeta, deviceSummary, maskIp } from './client-info.ts';
export type { ClientMeta } from './client-info.ts';
export { checkSmsCode } from './input.ts';
export { getInviteInfo } from './profile.ts';
export { rehashIfOld } from './rehash-password.ts';
export { findUserById } from './repo.ts';
export { accountRoutes } from './routes.ts';
export { recordSecurityEvent } from './security-log.ts';
export { findSessionUser, flushSessionTouches, primeSessions, runSessionLookup, sessionGeneration, sessionLookupSql, type SessionRow } from './sessions.ts';
export { consumeSmsCode, issueSmsCode } from './sms-codes.ts';
export { optionalUserId } from './viewer.ts';
export { requireUserId, tokenOf } from './require-user.ts';
