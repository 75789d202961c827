import { z } from 'zod';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { envelope } from '@cfx/contract/envelope.ts';
import { UserPaths } from '@cfx/contract/routes.ts';
import * as U from '@cfx/contract/user.ts';
import type { AppContext } from '../../context.ts';
import { requireUserId, tokenOf } from './require-user.ts';
import { ApiError, ok } from '../../http/envelope.ts';
import { Status } from '@cfx/contract/envelope.ts';
import { loginUser } from './login-user.ts';
import { changeProfpic, getInviteInfo, getProfile, getSecuritySetting, listProfpics, modifyNickname } from './profile.ts';
import { registerUser } from './register-user.ts';
import { checkResetMobile, resetPassword } from './reset-password.ts';
import { sendOwnSmsCode, sendSmsCode } from './send-sms-code.ts';
import { listSessions, revokeMySessions, revokeSession } from './sessions.ts';
import * as A from '@cfx/contract/account-security.ts';
import { SecurityPaths } from '@cfx/contract/routes.ts';
import { changeMobile, sendNewMobileCode, verifyCurrentMobile } from './change-mobile.ts';
import { changePassword } from './change-password.ts';
import { clientMeta } from './client-info.ts';
import { listSecurityEvents } from './security-log.ts';

const empty = { 200: U.emptyResponse };
const tags = ['user'];

export function accountRoutes(app: FastifyInstance, ctx: AppContext) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.post(UserPaths.smscode, { schema: { tags, body: U.smsCodeBody, response: empty } }, async (req) => {
    await sendSmsCode(ctx, req.body, req.ip);
    return ok(req, null, 'smsSent');
  });
  r.post(UserPaths.register, { schema: { tags, body: U.registerBody, response: { 200: U.tokenResponse } } }, async (req) => {
    return ok(req, await registerUser(ctx, req.body, clientMeta(req)), 'registerOk');
  });
  r.post(UserPaths.login, { schema: { tags, body: U.loginBody, response: { 200: U.tokenResponse } } }, async (req) => {
    return ok(req, await loginUser(ctx, req.body, clientMeta(req)), 'loginOk');
  });
  r.post(UserPaths.logout, { schema: { tags, response: empty } }, async (req) => {
    const token = tokenOf(req);
    if (!token || !(await revokeSession(ctx, token))) throw new ApiError(Status.SESSION_LOST, 'sessionLost');
    return ok(req, null, 'logoutOk');
  });
  r.post(UserPaths.userprofile, { schema: { tags, response: { 200: U.profileResponse } } }, async (req) => {
    return ok(req, await getProfile(ctx, tokenOf(req)));
  });
  r.post(UserPaths.checkmobile, { schema: { tags, body: U.checkMobileBody, response: { 200: U.tokenResponse } } }, async (req) => {
    return ok(req, await checkResetMobile(ctx, req.body), 'codeVerified');
  });
  r.post(UserPaths.reset, { schema: { tags, body: U.resetBody, response: empty } }, async (req) => {
    await resetPassword(ctx, req.body);
    return ok(req, null, 'resetOk');
  });
  r.post(UserPaths.profpicList, { schema: { tags, response: { 200: envelope(z.array(U.profpic).nullable()) } } }, async (req) => {
    await requireUserId(ctx, req);
    return ok(req, await listProfpics(ctx));
  });
  r.post(UserPaths.changeprofpic, { schema: { tags, body: U.changeProfpicBody, response: empty } }, async (req) => {
    await changeProfpic(ctx, await requireUserId(ctx, req), req.body.id);
    return ok(req, null);
  });
  r.post(UserPaths.modifynickname, { schema: { tags, body: U.modifyNicknameBody, response: empty } }, async (req) => {
    await modifyNickname(ctx, await requireUserId(ctx, req), req.body.nickname);
    return ok(req, null);
  });
  r.post(UserPaths.getinvitecode, { schema: { tags, response: { 200: envelope(U.inviteInfo.nullable()) } } }, async (req) => {
    return ok(req, await getInviteInfo(ctx, await requireUserId(ctx, req)));
  });
  r.post(UserPaths.securitySetting, { schema: { tags, response: { 200: envelope(U.securitySetting.nullable()) } } }, async (req) => {
    return ok(req, await getSecuritySetting(ctx, await requireUserId(ctx, req)));
  });
  r.post(UserPaths.mobileSmscode, { schema: { tags, body: U.mobileSmsCodeBody, response: empty } }, async (req) => {
    await sendOwnSmsCode(ctx, await requireUserId(ctx, req), req.body, req.ip);
    return ok(req, null, 'smsSent');
  });

  // Security of the personal center (issue #11, docs/api.md "Security and privacy").
  r.post(SecurityPaths.changePassword, { schema: { tags, body: A.changePasswordBody, response: { 200: A.changePasswordResponse } } }, async (req) => {
    const userId = await requireUserId(ctx, req);
    await changePassword(ctx, userId, tokenOf(req)!, req.body, clientMeta(req));
    return ok(req, null, 'passwordChanged');
  });
  r.post(SecurityPaths.sessions, { schema: { tags, response: { 200: A.sessionsResponse } } }, async (req, reply) => {
    const userId = await requireUserId(ctx, req);
    reply.header('cache-control', 'private, no-store');
    return ok(req, await listSessions(ctx, userId, tokenOf(req)!));
  });
  r.post(SecurityPaths.revokeSessions, { schema: { tags, body: A.revokeSessionsBody, response: { 200: A.revokeResponse } } }, async (req) => {
    const userId = await requireUserId(ctx, req);
    return ok(req, await revokeMySessions(ctx, userId, tokenOf(req)!, req.body, clientMeta(req)), 'sessionsRevoked');
  });
  r.post(SecurityPaths.events, { schema: { tags, response: { 200: A.securityEventsResponse } } }, async (req, reply) => {
    const userId = await requireUserId(ctx, req);
    reply.header('cache-control', 'private, no-store');
    return ok(req, await listSecurityEvents(ctx, userId));
  });
  r.post(SecurityPaths.mobileVerify, { schema: { tags, body: A.mobileVerifyBody, response: { 200: A.mobileTicketResponse } } }, async (req) => {
    return ok(req, await verifyCurrentMobile(ctx, await requireUserId(ctx, req), req.body), 'mobileVerified');
  });
  r.post(SecurityPaths.mobileNewCode, { schema: { tags, body: A.mobileNewCodeBody, response: empty } }, async (req) => {
    await sendNewMobileCode(ctx, await requireUserId(ctx, req), req.body, req.ip);
    return ok(req, null, 'smsSent');
  });
  r.post(SecurityPaths.mobileChange, { schema: { tags, body: A.mobileChangeBody, response: { 200: A.mobileChangedResponse } } }, async (req) => {
    const userId = await requireUserId(ctx, req);
    return ok(req, await changeMobile(ctx, userId, tokenOf(req)!, req.body, clientMeta(req)), 'mobileChanged');
  });
}
