import { expect } from 'vitest';
import { ADMIN_BASE, AdminPaths, STAFF_TOKEN_HEADER, type StaffRole } from '@cfx/contract/admin-rules.ts';
import { base32Decode, totp } from '../src/modules/admin/totp.ts';
import { createStaffAccount } from '../src/tools/create-staff.ts';
import type { TestApp } from './helpers.ts';

/**
 * Helpers of the operations-console tests: calls under ADMIN_BASE with the staff token header, and
 * staff members signed in the real way — created by the CLI's function (one-time password), then
 * password → TOTP enrolment (codes computed with the RFC 6238 function) → a new password.
 */
export type AdminAnswer = { http: number; status: string; code: string | number; data: any; message: string; msg: string };

export async function adminCall(t: TestApp, path: string, body: unknown = {}, token?: string, opts: { ip?: string; headers?: Record<string, string> } = {}): Promise<AdminAnswer> {
  const res = await t.app.inject({
    method: 'POST',
    url: ADMIN_BASE + path,
    headers: { 'content-type': 'application/json', lang: 'en', ...(token ? { [STAFF_TOKEN_HEADER]: token } : {}), ...opts.headers },
    payload: JSON.stringify(body),
    remoteAddress: opts.ip,
  });
  return { http: res.statusCode, ...(res.json() as Omit<AdminAnswer, 'http'>) };
}

export async function adminGet(t: TestApp, pathWithQuery: string, token?: string) {
  return t.app.inject({ method: 'GET', url: ADMIN_BASE + pathWithQuery, headers: { lang: 'en', ...(token ? { [STAFF_TOKEN_HEADER]: token } : {}) } });
}

export interface Staff {
  id: number;
  username: string;
  password: string;
  secret: string;
  token: string;
  roles: StaffRole[];
}

let seq = 0;
export const NEW_PASSWORD = 'Console-pass-2025';

/** The code of `secret` at the app's business time (plus `offsetSteps` 30-second steps). */
export function codeAt(t: TestApp, secret: string, offsetSteps = 0): string {
  return totp(base32Decode(secret), t.clock.t + offsetSteps * 30_000);
}

/** Moves business time to the start of the next TOTP step (a fresh code for the next sign-in). */
export function nextStep(t: TestApp) {
  t.clock.t = (Math.floor(t.clock.t / 30_000) + 1) * 30_000 + 1_000;
}

/** A staff member with `roles`, fully signed in (enrolled, own password set). */
export async function makeStaff(t: TestApp, roles: StaffRole[], username = `st${process.pid % 1000}x${++seq}`): Promise<Staff> {
  const created = await createStaffAccount(t.ctx.db, { username, roles }, t.clock.t);
  const login = await adminCall(t, AdminPaths.login, { username, password: created.oneTimePassword });
  expect(login, login.message).toMatchObject({ status: '000000', data: { stage: 'enrol' } });
  const secret = login.data.enrol.secret as string;
  const code = await adminCall(t, AdminPaths.totp, { code: codeAt(t, secret) }, login.data.token);
  expect(code, code.message).toMatchObject({ status: '000000', data: { stage: 'password' } });
  const pw = await adminCall(t, AdminPaths.password, { password: NEW_PASSWORD }, code.data.token);
  expect(pw, pw.message).toMatchObject({ status: '000000', data: { stage: 'done' } });
  return { id: created.staff.id, username, password: NEW_PASSWORD, secret, token: pw.data.token, roles };
}

/** Signs an enrolled staff member in again (password, then the code of the next step). */
export async function signIn(t: TestApp, s: Staff): Promise<string> {
  nextStep(t);
  const login = await adminCall(t, AdminPaths.login, { username: s.username, password: s.password });
  expect(login, login.message).toMatchObject({ status: '000000', data: { stage: 'totp' } });
  const code = await adminCall(t, AdminPaths.totp, { code: codeAt(t, s.secret) }, login.data.token);
  expect(code, code.message).toMatchObject({ status: '000000', data: { stage: 'done' } });
  return code.data.token as string;
}

/** Audit rows written after `sinceId`, oldest first. */
export async function auditSince(t: TestApp, sinceId: number) {
  return t.ctx.db.kysely.selectFrom('audit_log').selectAll().where('id', '>', sinceId).orderBy('id').execute();
}
export async function lastAuditId(t: TestApp): Promise<number> {
  const r = await t.ctx.db.kysely.selectFrom('audit_log').select((e) => e.fn.max('id').as('m')).executeTakeFirst();
  return Number(r?.m ?? 0);
}
