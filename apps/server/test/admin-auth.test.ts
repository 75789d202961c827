import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_BASE, AdminPaths, STAFF_TOKEN_HEADER } from '@cfx/contract/admin-rules.ts';
import { adminRoute, guardAdminScope } from '../src/modules/admin/admin-route.ts';
import { base32Decode, totp } from '../src/modules/admin/totp.ts';
import { createStaffAccount, main as createStaffCli, resetStaffAccount } from '../src/tools/create-staff.ts';
import { passwordChecks } from '../src/util/crypto.ts';
import { adminCall, codeAt, makeStaff, NEW_PASSWORD, nextStep, signIn } from './admin-helpers.ts';
import { makeApp, register, type TestApp } from './helpers.ts';

/**
 * Staff sign-in on a real app and database (SQLite, or PostgreSQL with TEST_PG_URL): the CLI's
 * one-time password, TOTP enrolment before anything else, the forced password change, codes
 * accepted once (replay refused), the lockout reserved before scrypt, idle and absolute session
 * ends, disabled accounts, and the console API's separation from the gateway (its own token header,
 * hidden from /mvapi/docs, envelope 404s).
 */
let t: TestApp;
beforeAll(async () => {
  t = await makeApp();
});
afterAll(async () => {
  await t?.close();
});

describe('first sign-in', () => {
  it('password → enrolment with the otpauth URI → code → new password → a full session', async () => {
    const created = await createStaffAccount(t.ctx.db, { username: 'Boss.One', roles: ['owner'] }, t.clock.t);
    expect(created.staff).toMatchObject({ username: 'boss.one', roles: ['owner'], totpEnabled: false, mustChangePassword: true });
    expect(created.oneTimePassword).toMatch(/^[a-z2-9]{4}(-[a-z2-9]{4}){3}$/);

    expect(await adminCall(t, AdminPaths.login, { username: 'boss.one', password: 'wrong-password-1' })).toMatchObject({ status: '1005', message: 'user name or password incorrect' });
    const login = await adminCall(t, AdminPaths.login, { username: ' BOSS.one ', password: created.oneTimePassword });
    expect(login).toMatchObject({ status: '000000', data: { stage: 'enrol', enrol: { secret: expect.stringMatching(/^[A-Z2-7]{32}$/) } } });
    // The otpauth library writes the issuer parameter first; the order of parameters means nothing to the apps.
    expect(login.data.enrol.uri).toBe(`otpauth://totp/CFX%20Art%20Admin:boss.one?issuer=CFX%20Art%20Admin&secret=${login.data.enrol.secret}&algorithm=SHA1&digits=6&period=30`);
    // The secret is stored sealed, never in clear.
    const row = await t.ctx.db.kysely.selectFrom('staff').select(['totp_secret', 'totp_enabled']).where('username', '=', 'boss.one').executeTakeFirstOrThrow();
    expect(row.totp_secret).toMatch(/^v1\./);
    expect(row.totp_secret).not.toContain(login.data.enrol.secret);
    expect(t.ctx.secrets.open(row.totp_secret!)).toBe(login.data.enrol.secret);

    // A pending session opens nothing but the code step.
    const pending = login.data.token as string;
    for (const p of [AdminPaths.me, AdminPaths.usersSearch, AdminPaths.staffList, AdminPaths.password]) {
      expect(await adminCall(t, p, {}, pending)).toMatchObject({ status: '1070', message: 'please sign in to the console' });
    }
    expect(await adminCall(t, AdminPaths.totp, { code: '000000' }, pending)).toMatchObject({ status: '1072', message: 'the authenticator code is wrong or expired' });
    const secret = login.data.enrol.secret as string;
    const code = await adminCall(t, AdminPaths.totp, { code: codeAt(t, secret) }, pending);
    expect(code).toMatchObject({ status: '000000', data: { stage: 'password' } });
    expect(code.data.token).not.toBe(pending);
    // The pending token is spent; the password-stage token opens only the password step.
    expect(await adminCall(t, AdminPaths.totp, { code: codeAt(t, secret, 1) }, pending)).toMatchObject({ status: '1070' });
    expect(await adminCall(t, AdminPaths.me, {}, code.data.token)).toMatchObject({ status: '1070' });
    expect(await adminCall(t, AdminPaths.password, { password: 'short1' }, code.data.token)).toMatchObject({ status: '1001', message: 'the password must be 10-64 characters with letters and digits' });
    expect(await adminCall(t, AdminPaths.password, { password: 'onlyletterspassword' }, code.data.token)).toMatchObject({ status: '1001' });
    expect(await adminCall(t, AdminPaths.password, { password: created.oneTimePassword }, code.data.token)).toMatchObject({ status: '1001', message: 'the new password must differ from the current one' });
    const done = await adminCall(t, AdminPaths.password, { password: NEW_PASSWORD }, code.data.token);
    expect(done).toMatchObject({ status: '000000', message: 'password changed', data: { stage: 'done', me: { username: 'boss.one', roles: ['owner'] } } });
    const me = await adminCall(t, AdminPaths.me, {}, done.data.token);
    expect(me.data.permissions).toContain('staff.manage');
    expect(me.data.sessionExpiresAt).toBe(t.clock.t + 8 * 3600_000);

    // The one-time password no longer works; the new one leads to the code step (no second enrolment).
    nextStep(t);
    expect(await adminCall(t, AdminPaths.login, { username: 'boss.one', password: created.oneTimePassword })).toMatchObject({ status: '1005' });
    const again = await adminCall(t, AdminPaths.login, { username: 'boss.one', password: NEW_PASSWORD });
    expect(again).toMatchObject({ status: '000000', data: { stage: 'totp' } });
    expect(again.data.enrol).toBeUndefined();
  });

  it('a staff member cannot skip TOTP: a code-step session never reaches the password step', async () => {
    const created = await createStaffAccount(t.ctx.db, { username: 'skipper', roles: ['support'] }, t.clock.t);
    const login = await adminCall(t, AdminPaths.login, { username: 'skipper', password: created.oneTimePassword });
    expect(await adminCall(t, AdminPaths.password, { password: NEW_PASSWORD }, login.data.token)).toMatchObject({ status: '1070' });
    expect(await adminCall(t, AdminPaths.logout, {}, login.data.token)).toMatchObject({ status: '1070' });
  });
});

describe('codes are accepted once', () => {
  it('refuses the same code again (also from a new login), accepts the next step', async () => {
    const s = await makeStaff(t, ['support']);
    nextStep(t);
    const a = await adminCall(t, AdminPaths.login, { username: s.username, password: s.password });
    const code = codeAt(t, s.secret);
    expect(await adminCall(t, AdminPaths.totp, { code }, a.data.token)).toMatchObject({ status: '000000', data: { stage: 'done' } });
    const b = await adminCall(t, AdminPaths.login, { username: s.username, password: s.password });
    expect(await adminCall(t, AdminPaths.totp, { code }, b.data.token)).toMatchObject({ status: '1072', message: 'this code was already used; wait for the next one' });
    // An earlier step's code (inside the ±1 window) is refused too: steps only move forward.
    expect(await adminCall(t, AdminPaths.totp, { code: codeAt(t, s.secret, -1) }, b.data.token)).toMatchObject({ status: '1072' });
    expect(await adminCall(t, AdminPaths.totp, { code: codeAt(t, s.secret, 1) }, b.data.token)).toMatchObject({ status: '000000' });
  });

  it('two requests racing with one code: exactly one wins', async () => {
    const s = await makeStaff(t, ['support']);
    nextStep(t);
    const logins = await Promise.all([1, 2, 3, 4].map(() => adminCall(t, AdminPaths.login, { username: s.username, password: s.password })));
    const code = codeAt(t, s.secret);
    const answers = await Promise.all(logins.map((l) => adminCall(t, AdminPaths.totp, { code }, l.data.token)));
    expect(answers.filter((a) => a.status === '000000')).toHaveLength(1);
    expect(answers.filter((a) => a.status === '1072')).toHaveLength(3);
  });
});

describe('lockout', () => {
  it('5 failures per name lock further tries without running scrypt; the window ends it', async () => {
    const s = await makeStaff(t, ['finance']);
    nextStep(t);
    const ip = '198.51.100.7';
    for (let i = 0; i < 5; i++) expect(await adminCall(t, AdminPaths.login, { username: s.username, password: `wrong-${i}-password` }, undefined, { ip })).toMatchObject({ status: '1005' });
    const before = passwordChecks.count;
    const locked = await adminCall(t, AdminPaths.login, { username: s.username, password: s.password }, undefined, { ip: '198.51.100.8' });
    expect(locked).toMatchObject({ status: '1072', message: 'too many login attempts, please try again in 15 minutes' });
    // Parallel guesses while locked cost no scrypt at all.
    await Promise.all(Array.from({ length: 20 }, () => adminCall(t, AdminPaths.login, { username: s.username, password: 'guess-123456' }, undefined, { ip })));
    expect(passwordChecks.count).toBe(before);
    t.clock.t += 15 * 60_000 + 1000;
    expect(await signIn(t, s)).toBeTruthy();
  });

  it('wrong TOTP codes count too', async () => {
    const s = await makeStaff(t, ['finance']);
    nextStep(t);
    const login = await adminCall(t, AdminPaths.login, { username: s.username, password: s.password });
    for (let i = 0; i < 5; i++) expect(await adminCall(t, AdminPaths.totp, { code: '000000' }, login.data.token)).toMatchObject({ status: '1072' });
    expect(await adminCall(t, AdminPaths.totp, { code: codeAt(t, s.secret) }, login.data.token)).toMatchObject({ status: '1072', message: 'too many login attempts, please try again in 15 minutes' });
    t.clock.t += 15 * 60_000 + 1000;
  });

  it('unknown names answer like wrong passwords, at the same scrypt cost', async () => {
    const before = passwordChecks.count;
    expect(await adminCall(t, AdminPaths.login, { username: 'nobody-here', password: 'whatever-123' })).toMatchObject({ status: '1005', message: 'user name or password incorrect' });
    expect(passwordChecks.count).toBe(before + 1);
  });
});

describe('session ends', () => {
  it('after 30 idle minutes, and 8 hours after sign-in whatever the activity', async () => {
    const s = await makeStaff(t, ['support']);
    t.clock.t += 29 * 60_000;
    expect(await adminCall(t, AdminPaths.me, {}, s.token)).toMatchObject({ status: '000000' });
    t.clock.t += 31 * 60_000;
    expect(await adminCall(t, AdminPaths.me, {}, s.token)).toMatchObject({ status: '1070' });

    const token = await signIn(t, s);
    for (let i = 0; i < 23; i++) {
      t.clock.t += 20 * 60_000;
      expect(await adminCall(t, AdminPaths.me, {}, token)).toMatchObject({ status: '000000' });
    }
    t.clock.t += 20 * 60_000 + 1;
    expect(await adminCall(t, AdminPaths.me, {}, token)).toMatchObject({ status: '1070' });
  });

  it('logout ends the session; a user token is never a staff token', async () => {
    const s = await makeStaff(t, ['support']);
    expect(await adminCall(t, AdminPaths.logout, {}, s.token)).toMatchObject({ status: '000000' });
    expect(await adminCall(t, AdminPaths.me, {}, s.token)).toMatchObject({ status: '1070' });
    const u = await register(t);
    expect(await adminCall(t, AdminPaths.me, {}, u.token)).toMatchObject({ status: '1070' });
    expect(await adminCall(t, AdminPaths.me, {}, undefined, { headers: { token: u.token } })).toMatchObject({ status: '1070' });
  });
});

describe('the CLI', () => {
  it('refuses bad arguments before touching a database', async () => {
    expect(await createStaffCli([])).toBe(2);
    expect(await createStaffCli(['--username', 'x'])).toBe(2);
    expect(await createStaffCli(['--username', 'abc', '--role', 'king'])).toBe(1);
    expect(await createStaffCli(['--username', 'abc', '--role', 'owner', '--reset'])).toBe(2);
  });

  it('refuses a taken name and a bad one; --reset gives a new one-time password and a new enrolment', async () => {
    const s = await makeStaff(t, ['owner']);
    await expect(createStaffAccount(t.ctx.db, { username: s.username, roles: ['support'] })).rejects.toMatchObject({ status: '1073', key: 'staffUsernameTaken' });
    await expect(createStaffAccount(t.ctx.db, { username: '9lives', roles: ['support'] })).rejects.toMatchObject({ status: '1001', key: 'staffBadUsername' });
    const r = await resetStaffAccount(t.ctx.db, s.username, t.clock.t);
    expect(await adminCall(t, AdminPaths.me, {}, s.token)).toMatchObject({ status: '1070' });
    nextStep(t);
    const login = await adminCall(t, AdminPaths.login, { username: s.username, password: r.oneTimePassword });
    expect(login).toMatchObject({ status: '000000', data: { stage: 'enrol' } });
    expect(login.data.enrol.secret).not.toBe(s.secret);
    const audit = await t.ctx.db.kysely.selectFrom('audit_log').selectAll().where('action', '=', 'staff.reset').where('target_id', '=', String(s.id)).executeTakeFirstOrThrow();
    expect(audit).toMatchObject({ staff_id: null, ip_masked: 'cli' });
    expect(audit.summary).not.toContain(r.oneTimePassword);
  });
});

describe('the console API', () => {
  it('is not in the public OpenAPI document', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/mvapi/docs/json' })).json() as { paths: Record<string, unknown> };
    expect(Object.keys(doc.paths).length).toBeGreaterThan(20);
    expect(Object.keys(doc.paths).filter((p) => p.startsWith(ADMIN_BASE))).toEqual([]);
  });

  it('answers unknown paths and bad input with the envelope', async () => {
    for (const method of ['GET', 'POST'] as const) {
      const res = await t.app.inject({ method, url: `${ADMIN_BASE}/no/such/thing` });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toMatchObject({ status: '1404' });
    }
    const s = await makeStaff(t, ['support']);
    const bad = await t.app.inject({ method: 'POST', url: ADMIN_BASE + AdminPaths.usersSearch, headers: { 'content-type': 'application/json', [STAFF_TOKEN_HEADER]: s.token }, payload: '{"pageNum":"x"' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ status: '1001' });
    const res = await t.app.inject({ method: 'POST', url: ADMIN_BASE + AdminPaths.me, headers: { [STAFF_TOKEN_HEADER]: s.token } });
    expect(res.headers['cache-control']).toBe('no-store');
  });

  it('a route registered without adminRoute stops the start-up', async () => {
    const app = Fastify({ logger: false });
    await expect(
      app.register(async (scope) => {
        guardAdminScope(scope);
        scope.post('/raw', async () => 'x');
      }),
    ).rejects.toThrow(/declares no access/);
    const ok = Fastify({ logger: false });
    await ok.register(async (scope) => {
      guardAdminScope(scope);
      adminRoute(scope, t.ctx, { path: '/declared', access: 'self', audit: false, handler: async () => null });
    });
    await ok.ready();
    await ok.close();
  });
});

describe('disabled accounts', () => {
  it('cannot sign in, and their sessions end at once', async () => {
    const owner = await makeStaff(t, ['owner']);
    const s = await makeStaff(t, ['support']);
    expect(await adminCall(t, AdminPaths.staffDisable, { staffId: s.id }, owner.token)).toMatchObject({ status: '000000', data: { disabledAt: t.clock.t } });
    expect(await adminCall(t, AdminPaths.me, {}, s.token)).toMatchObject({ status: '1070' });
    nextStep(t);
    expect(await adminCall(t, AdminPaths.login, { username: s.username, password: s.password })).toMatchObject({ status: '1005' });
    expect(await adminCall(t, AdminPaths.staffEnable, { staffId: s.id }, owner.token)).toMatchObject({ status: '000000', data: { disabledAt: null } });
    const code = totp(base32Decode(s.secret), t.clock.t);
    const login = await adminCall(t, AdminPaths.login, { username: s.username, password: s.password });
    expect(await adminCall(t, AdminPaths.totp, { code }, login.data.token)).toMatchObject({ status: '000000' });
  });
});
