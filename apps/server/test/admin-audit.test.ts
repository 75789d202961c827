import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AdminPaths } from '@cfx/contract/admin-rules.ts';
import { adminRouteTable } from '../src/modules/admin/admin-route.ts';
import { cleanSummary, withTxHook } from '../src/modules/admin/audit.ts';
import { inTx } from '../src/db/tx.ts';
import { createStaffAccount } from '../src/tools/create-staff.ts';
import { adminCall, adminGet, auditSince, codeAt, lastAuditId, makeStaff, NEW_PASSWORD, nextStep, type Staff } from './admin-helpers.ts';
import { paidOrder, submittedApplication, ticketWithShot, unpaidOrder } from './admin-fixtures.ts';
import { catalogAuditScenarios, someCreatorId } from './admin-catalog-helpers.ts';
import { register } from './helpers.ts';
import { makeMarketApp, makeTrader, topup, type FakeChain } from './market-helpers.ts';
import { openAccount, verifiedUser } from './payouts-helpers.ts';
import { createWithdrawal } from '../src/modules/payout/withdraw.ts';
import type { TestApp } from './helpers.ts';

/**
 * Every mutating console route writes its audit row: one scenario per route that the app declares
 * `audit: true` (the test fails when a new mutating route has no scenario), each run for real and
 * checked for the row's action, staff member, target and masked IP — and for the absence of
 * secrets and clear personal data in the summary. A refused action writes nothing.
 */
let t: TestApp & { chain: FakeChain };
let owner: Staff;
const IP = '203.0.113.77';

beforeAll(async () => {
  t = await makeMarketApp();
  owner = await makeStaff(t, ['owner']);
});
afterAll(async () => {
  await t?.close();
});

type Scenario = { action: string | RegExp; staffId?: () => number | null; targetId?: () => string | null; run: () => Promise<{ status: string; message?: string } | { statusCode: number }>; secrets?: () => string[] };

/** The scenarios need a little state between set-up and the call (made lazily, inside the test). */
async function scenarios(): Promise<Record<string, Scenario>> {
  const created = await createStaffAccount(t.ctx.db, { username: 'auditee', roles: ['support'] }, t.clock.t);
  let pending = '';
  let pwToken = '';
  let secret = '';
  const login = async () => {
    nextStep(t);
    const r = await adminCall(t, AdminPaths.login, { username: 'auditee', password: created.oneTimePassword }, undefined, { ip: IP });
    pending = r.data.token;
    secret = r.data.enrol.secret;
    return r;
  };
  const u = await register(t);
  const uid = Number((await t.ctx.db.kysely.selectFrom('users').select('id').where('mobile', '=', u.mobile).executeTakeFirstOrThrow()).id);
  const kycUser = await makeTrader(t);
  const app = await submittedApplication(t);
  const ticket = await ticketWithShot(t);
  const unpaid = await unpaidOrder(t);
  const paid = await paidOrder(t);
  const payee = await verifiedUser(t);
  await openAccount(t, payee);
  await topup(t, { h: payee.h } as never, 10_000);
  const withdrawNo = await createWithdrawal(t.ctx, payee.userId, 5_000);
  const target = await createStaffAccount(t.ctx.db, { username: 'target', roles: ['finance'] }, t.clock.t);
  const tid = () => String(target.staff.id);
  const o = () => owner.token;
  const as = (path: string, body: unknown) => () => adminCall(t, path, body, o(), { ip: IP });
  let logoutToken = '';
  let creatorId = 0;
  const appCreator = async () =>
    (creatorId = Number((await t.ctx.db.kysely.selectFrom('creators').select('id').where('application_id', '=', app.id).executeTakeFirstOrThrow()).id));
  const submittedDraft = async () => {
    const now = t.clock.t;
    const d = await t.ctx.db.kysely
      .insertInto('release_drafts')
      .values({
        creator_id: await someCreatorId(t), state: 'submitted', title: '审计发售', story_html: '<p>审计</p>', cover_key: 'public/img/202601/00000000000000000000000000000000.png',
        media_kind: null, media_key: null, supply: 10, price_fen: 990, sale_start_at: now + 7_200_000, per_identity_limit: 2, holding_days: 0, royalty_permille: 50,
        review_reason: null, reviewer_staff_id: null, project_id: null, created_at: now, updated_at: now, submitted_at: now, reviewed_at: null,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return Number(d.id);
  };
  return {
    [AdminPaths.login]: { action: 'auth.password', staffId: () => created.staff.id, run: login, secrets: () => [created.oneTimePassword, secret] },
    [AdminPaths.totp]: { action: 'auth.totp_enrol', staffId: () => created.staff.id, run: async () => { const r = await adminCall(t, AdminPaths.totp, { code: codeAt(t, secret) }, pending, { ip: IP }); pwToken = r.data.token; return r; }, secrets: () => [secret] },
    [AdminPaths.password]: { action: 'auth.password_change', staffId: () => created.staff.id, run: async () => { const r = await adminCall(t, AdminPaths.password, { password: NEW_PASSWORD }, pwToken, { ip: IP }); logoutToken = r.data.token; return r; }, secrets: () => [NEW_PASSWORD] },
    [AdminPaths.logout]: { action: 'auth.logout', staffId: () => created.staff.id, run: () => adminCall(t, AdminPaths.logout, {}, logoutToken, { ip: IP }) },
    [AdminPaths.userReveal]: { action: 'user.reveal_mobile', targetId: () => String(uid), run: as(AdminPaths.userReveal, { userId: uid }), secrets: () => [u.mobile] },
    [AdminPaths.userFreeze]: { action: 'user.freeze', targetId: () => String(uid), run: as(AdminPaths.userFreeze, { userId: uid, reason: `欺诈嫌疑，来电 ${u.mobile}` }), secrets: () => [u.mobile] },
    [AdminPaths.userUnfreeze]: { action: 'user.unfreeze', targetId: () => String(uid), run: as(AdminPaths.userUnfreeze, { userId: uid, reason: '核实无误' }) },
    [AdminPaths.applicationReview]: { action: 'application.review', targetId: () => String(app.id), run: as(AdminPaths.applicationReview, { id: app.id, decision: 'approved' }) },
    [AdminPaths.applicationFile]: { action: 'application.file', targetId: () => String(app.id), run: async () => adminGet(t, `${AdminPaths.applicationFile}?id=${app.id}&key=${encodeURIComponent(app.docKey)}`, o()) },
    [AdminPaths.kycRevoke]: { action: 'kyc.revoke', targetId: () => String(kycUser.userId), run: as(AdminPaths.kycRevoke, { userId: kycUser.userId, reason: '证件存疑，需重新认证' }) },
    [AdminPaths.ticketReply]: { action: 'ticket.reply', targetId: () => String(ticket.id), run: as(AdminPaths.ticketReply, { id: ticket.id, text: '您好，已为您核实处理。' }) },
    [AdminPaths.ticketClose]: { action: 'ticket.close', targetId: () => String(ticket.id), run: as(AdminPaths.ticketClose, { id: ticket.id }) },
    [AdminPaths.ticketFile]: { action: 'ticket.file', targetId: () => String(ticket.id), run: async () => adminGet(t, `${AdminPaths.ticketFile}?id=${ticket.id}&key=${encodeURIComponent(ticket.shotKey)}`, o()) },
    [AdminPaths.orderCancel]: { action: 'order.cancel', targetId: () => unpaid.orderNo, run: as(AdminPaths.orderCancel, { orderNo: unpaid.orderNo, reason: '买家来电要求取消' }) },
    [AdminPaths.orderRefund]: { action: 'order.refund', targetId: () => paid.orderNo, run: as(AdminPaths.orderRefund, { orderNo: paid.orderNo, reason: '卖家无法交付，全额退款' }) },
    [AdminPaths.withdrawalRetry]: { action: 'withdrawal.retry', targetId: () => withdrawNo, run: as(AdminPaths.withdrawalRetry, { withdrawNo }) },
    [AdminPaths.staffCreate]: { action: 'staff.create', run: as(AdminPaths.staffCreate, { username: 'fresh', roles: ['reviewer'] }) },
    [AdminPaths.staffRoles]: { action: 'staff.roles', targetId: tid, run: as(AdminPaths.staffRoles, { staffId: target.staff.id, roles: ['finance', 'support'] }) },
    [AdminPaths.staffResetTotp]: { action: 'staff.reset_totp', targetId: tid, run: as(AdminPaths.staffResetTotp, { staffId: target.staff.id }) },
    [AdminPaths.staffResetPassword]: { action: 'staff.reset_password', targetId: tid, run: as(AdminPaths.staffResetPassword, { staffId: target.staff.id }) },
    [AdminPaths.staffDisable]: { action: 'staff.disable', targetId: tid, run: as(AdminPaths.staffDisable, { staffId: target.staff.id }) },
    [AdminPaths.staffEnable]: { action: 'staff.enable', targetId: tid, run: as(AdminPaths.staffEnable, { staffId: target.staff.id }) },
    // Creators: the one the application's approval (above) made.
    [AdminPaths.creatorUpdate]: { action: 'creator.update', targetId: () => String(creatorId), run: async () => adminCall(t, AdminPaths.creatorUpdate, { id: await appCreator(), name: '审计创作者' }, o(), { ip: IP }) },
    [AdminPaths.creatorDisable]: { action: 'creator.disable', targetId: () => String(creatorId), run: async () => adminCall(t, AdminPaths.creatorDisable, { id: await appCreator(), reason: '违规内容' }, o(), { ip: IP }) },
    [AdminPaths.creatorEnable]: { action: 'creator.enable', targetId: () => String(creatorId), run: async () => adminCall(t, AdminPaths.creatorEnable, { id: await appCreator(), reason: '已整改' }, o(), { ip: IP }) },
    [AdminPaths.creatorVerify]: { action: 'creator.verify', targetId: () => String(creatorId), run: async () => adminCall(t, AdminPaths.creatorVerify, { id: await appCreator(), verified: true }, o(), { ip: IP }) },
    // The creator studio's release reviews: a submitted draft of some creator each.
    [AdminPaths.releaseReviewApprove]: { action: 'release_draft.approve', run: async () => adminCall(t, AdminPaths.releaseReviewApprove, { id: await submittedDraft() }, o(), { ip: IP }) },
    [AdminPaths.releaseReviewReject]: { action: 'release_draft.reject', run: async () => adminCall(t, AdminPaths.releaseReviewReject, { id: await submittedDraft(), reason: '封面不清晰' }, o(), { ip: IP }) },
    // The catalogue and content editors (admin-catalog-helpers.ts).
    ...catalogAuditScenarios(t, o, IP),
  };
}

describe('audit rows', () => {
  it('every mutating route has a scenario, and each writes its row in the action', async () => {
    const s = await scenarios();
    const mutating = adminRouteTable(t.ctx).filter((r) => r.audit).map((r) => r.path);
    expect(new Set(Object.keys(s))).toEqual(new Set(mutating));
    // Read routes write nothing.
    for (const r of adminRouteTable(t.ctx).filter((x) => !x.audit)) expect(r.method === 'POST' || r.method === 'GET').toBe(true);

    // In the declared order (sign-in steps first: each needs the one before).
    for (const path of Object.keys(s)) {
      const sc = s[path]!;
      const before = await lastAuditId(t);
      t.clock.t += 1000;
      const res = await sc.run();
      if ('statusCode' in res) expect(res.statusCode, path).toBe(200);
      else expect(res.status, `${path}: ${res.message}`).toBe('000000');
      const rows = await auditSince(t, before);
      expect(rows.length, path).toBeGreaterThanOrEqual(1);
      const row = rows.at(-1)!;
      expect(row.action, path).toMatch(sc.action);
      expect(row.staff_id === null ? null : Number(row.staff_id), path).toBe(sc.staffId ? sc.staffId() : owner.id);
      if (sc.targetId) expect(row.target_id, path).toBe(sc.targetId());
      expect(Number(row.created_at)).toBe(t.clock.t);
      // The IP is masked; no secret or clear personal data in the summary.
      if (row.staff_id !== null && Number(row.staff_id) !== owner.id) expect(row.ip_masked).toBe('203.0.*.*');
      expect(() => JSON.parse(row.summary)).not.toThrow();
      for (const secret of sc.secrets?.() ?? []) expect(row.summary, path).not.toContain(secret);
      expect(row.summary).not.toMatch(/(?<!\d)1\d{10}(?!\d)/);
    }
  });

  it('a refused action writes no row (and the audit page lists what was written)', async () => {
    const u = await register(t);
    const uid = Number((await t.ctx.db.kysely.selectFrom('users').select('id').where('mobile', '=', u.mobile).executeTakeFirstOrThrow()).id);
    expect(await adminCall(t, AdminPaths.userFreeze, { userId: uid, reason: '第一次冻结' }, owner.token)).toMatchObject({ status: '000000' });
    const before = await lastAuditId(t);
    expect(await adminCall(t, AdminPaths.userFreeze, { userId: uid, reason: '再冻结一次' }, owner.token)).toMatchObject({ status: '1073', message: 'the user is already frozen' });
    expect(await adminCall(t, AdminPaths.userFreeze, { userId: uid, reason: 'x' }, owner.token)).toMatchObject({ status: '1001', message: 'please give a reason (2-200 characters)' });
    expect(await adminCall(t, AdminPaths.orderCancel, { orderNo: 'NOPE123', reason: '不存在的订单' }, owner.token)).toMatchObject({ status: '1404' });
    expect(await auditSince(t, before)).toEqual([]);

    const page = await adminCall(t, AdminPaths.auditList, { action: 'user.', targetType: 'user', targetId: String(uid) }, owner.token);
    expect(page).toMatchObject({ status: '000000', data: { total: 1, list: [{ action: 'user.freeze', actor: owner.username, targetType: 'user', targetId: String(uid), summary: { reason: '第一次冻结', after: { frozen: true } } }] } });
    const cli = await adminCall(t, AdminPaths.auditList, { action: 'staff.create' }, owner.token);
    expect(cli.data.list.some((r: { actor: string }) => r.actor === 'cli')).toBe(true);
    const byStaff = await adminCall(t, AdminPaths.auditList, { staffId: owner.id, from: t.clock.t - 1, to: t.clock.t + 1 }, owner.token);
    expect(byStaff.data.list.map((r: { action: string }) => r.action)).toContain('user.freeze');
  });
});

describe('withTxHook (audit rows inside another module\'s transaction)', () => {
  const mark = (trx: Parameters<Parameters<typeof inTx>[1]>[0], action: string) =>
    trx.insertInto('audit_log').values({ staff_id: null, action, target_type: 'test', target_id: null, summary: '{}', ip_masked: '', created_at: t.clock.t }).execute();
  const count = async (action: string) => (await t.ctx.db.kysely.selectFrom('audit_log').select('id').where('action', '=', action).execute()).length;

  it('runs the hook in the operation\'s transaction; a refusing hook rolls the operation back', async () => {
    const seen: unknown[] = [];
    const r = await withTxHook(t.ctx, async (trx, inner) => { seen.push(inner); await mark(trx, 'hook.ok'); }, (cx) => {
      expect(cx).toBe(t.ctx); // the context keeps its identity (modules key caches and event buses on it)
      return inTx(cx, async (trx) => { await mark(trx, 'op.ok'); return 'done'; });
    });
    expect(r).toBe('done');
    expect(seen).toEqual(['done']);
    expect([await count('op.ok'), await count('hook.ok')]).toEqual([1, 1]);
    await expect(withTxHook(t.ctx, async () => { throw new Error('refused'); }, (cx) => inTx(cx, (trx) => mark(trx, 'op.refused')))).rejects.toThrow('refused');
    expect(await count('op.refused')).toBe(0);
  });

  it('leaves every other transaction alone, also concurrent ones and those after the first', async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    let hooks = 0;
    const audited = withTxHook(t.ctx, async () => { hooks++; }, async (cx) => {
      await gate;
      await inTx(cx, (trx) => mark(trx, 'first'));
      await inTx(cx, (trx) => mark(trx, 'second'));
    });
    // a request running meanwhile in its own async context
    await inTx(t.ctx, (trx) => mark(trx, 'elsewhere'));
    release();
    await audited;
    expect(hooks).toBe(1);
    expect([await count('first'), await count('second'), await count('elsewhere')]).toEqual([1, 1, 1]);
  });

  it('an operation that opened no transaction hands its answer to the hook in a transaction of its own', async () => {
    const seen: unknown[] = [];
    await withTxHook(t.ctx, async (trx, inner) => { seen.push(inner); await mark(trx, 'no-tx'); }, async () => false);
    expect(seen).toEqual([false]);
    expect(await count('no-tx')).toBe(1);
  });

  it('cleans summaries: secret keys dropped, phones, ID numbers and e-mails masked', () => {
    expect(cleanSummary({ password: 'x', oneTimePassword: 'y', totpSecret: 'z', reason: '致电13812345678，证件110101199001011234，邮箱 li@example.com', n: 3, nested: { token: 't', ok: true } })).toEqual({
      reason: '致电138****5678，证件110101********1234，邮箱 l***@example.com',
      n: 3,
      nested: { ok: true },
    });
  });
});
