import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AdminPaths } from '@cfx/contract/admin-rules.ts';
import { CatalogPaths, GoodsFlowPaths } from '@cfx/contract/routes.ts';
import { createDropRelease } from '../src/modules/drops/create-drop-release.ts';
import { adminCall, auditSince, lastAuditId, makeStaff, signIn, type Staff } from './admin-helpers.ts';
import { adminUpload, coverUrl, createReleaseAs, releaseForm, someCreatorId } from './admin-catalog-helpers.ts';
import { call } from './helpers.ts';
import { accountIdOf, installBeacon, type TestBeacon } from './drop-phases-helpers.ts';
import { buy, stock } from './drops-helpers.ts';
import { expectOk, get, grantFragments, makeFlowsApp, type FlowsApp } from './consume-helpers.ts';
import { makeTrader } from './market-helpers.ts';

/**
 * The console's release editor on a real database (SQLite, or PostgreSQL with TEST_PG_URL):
 * releases made and edited through the admin API with the edit rules enforced by the server
 * (supply never below what is taken, only up once the sale started, in place when the token ids
 * after the range are free; price, commission and creator frozen by the first order; the start by
 * the sale), drop_stock and the token range kept in step in the same transaction; phases inside the
 * sale window through setDropPhases; the lottery's draw epoch against the chain; whitelist CSV
 * checked and imported through importWhitelist (bad lines with their numbers, nothing written,
 * idempotent, searchable); blind-box odds through configureBoxRelease; compose recipes through the
 * compose module; the public catalogue showing each edit at once; roles and audit rows.
 */
let t: FlowsApp;
let op: Staff;
let owner: Staff;
let reviewer: Staff;
let support: Staff;
let beacon: TestBeacon;

beforeAll(async () => {
  t = await makeFlowsApp();
  beacon = installBeacon(t);
  [op, owner, reviewer, support] = [await makeStaff(t, ['operator']), await makeStaff(t, ['owner']), await makeStaff(t, ['reviewer']), await makeStaff(t, ['support'])];
});
afterAll(async () => {
  await t?.close();
});

const adm = (path: string, body: unknown, s: Staff = op) => adminCall(t, path, body, s.token);
/** Moves business time to `at`; staff sessions end after 30 idle minutes, so the staff sign in again. */
async function clockTo(at: number) {
  t.clock.t = at;
  for (const s of [op, owner, reviewer, support]) s.token = await signIn(t, s);
}
const project = (id: number) => call(t, CatalogPaths.projectDetails, { id });

describe('creating a release', () => {
  it('an operator uploads a cover and creates a release: token range after every range, stock and settings in step, public at once, audited', async () => {
    const earlier = await createDropRelease(t.ctx, null, { supply: 50 });
    const before = await lastAuditId(t);
    const form = await releaseForm(t, op.token, { supply: 20, priceFen: 12345, perIdentityLimit: 4, maxPerOrder: 2, commissionPermille: 80, descriptionHtml: '<p onclick="x()">山河<script>alert(1)</script><img src="javascript:alert(1)"></p>' });
    expect(form.cover).toMatch(/^\/media\/uploads\/public\/img\/\d{6}\/[0-9a-f]{32}\.png$/);
    const r = await adm(AdminPaths.releaseCreate, form);
    expect(r, r.message).toMatchObject({ status: '000000', message: 'release created' });
    const d = r.data;
    expect(d).toMatchObject({ name: '山河·数字藏品', supply: 20, priceFen: 12345, perIdentityLimit: 4, maxPerOrder: 2, commissionPermille: 80, holdingDays: 7, status: 'upcoming', role: 'release', stock: { supply: 20, taken: 0, remaining: 20 } });
    expect(d.descriptionHtml).toBe('<p>山河</p>');
    expect(d.tokenStart).toBe(Number(earlier.tokenEnd) + 1);
    expect(d.tokenEnd).toBe(d.tokenStart + 19);
    expect(d.locks).toMatchObject({ started: false, hasOrders: false, priceLocked: false, supplyOnlyGrow: false, supplyCanGrow: true });
    expect(await stock(t, d.id)).toMatchObject({ supply: 20, taken: 0, paid: 0 });
    expect(await t.ctx.db.kysely.selectFrom('drop_config').selectAll().where('project_id', '=', d.id).executeTakeFirstOrThrow()).toMatchObject({ per_identity_limit: 4, max_per_order: 2, primary_commission_permille: 80 });
    const pub = await project(d.id);
    expect(pub).toMatchObject({ status: '000000', data: { name: '山河·数字藏品', priceFen: 12345, supply: 20, remaining: 20, status: 'upcoming', cover: form.cover } });
    const rows = await auditSince(t, before);
    expect(rows.at(-1)).toMatchObject({ action: 'release.create', staff_id: op.id, target_type: 'project', target_id: String(d.id) });
    expect(JSON.parse(rows.at(-1)!.summary)).toMatchObject({ after: { supply: 20, priceFen: 12345, range: `${d.tokenStart}-${d.tokenEnd}` } });
  });

  it('refuses bad values with the envelope: outside images, ranges, windows, unknown creator', async () => {
    const form = await releaseForm(t, op.token);
    expect(await adm(AdminPaths.releaseCreate, { ...form, cover: 'https://evil.example/x.png' })).toMatchObject({ status: '1001', message: 'please upload an image (JPG, PNG, WebP or GIF)' });
    expect(await adm(AdminPaths.releaseCreate, { ...form, cover: 'javascript:alert(1)' })).toMatchObject({ status: '1001' });
    expect(await adm(AdminPaths.releaseCreate, { ...form, supply: 0 })).toMatchObject({ status: '1001', message: 'the supply must be 1-1000000' });
    expect(await adm(AdminPaths.releaseCreate, { ...form, priceFen: 0 })).toMatchObject({ status: '1001' });
    expect(await adm(AdminPaths.releaseCreate, { ...form, name: '   ' })).toMatchObject({ status: '1001', message: 'the name must be 1-40 characters on one line' });
    expect(await adm(AdminPaths.releaseCreate, { ...form, saleEndAt: form.saleStartAt - 1 })).toMatchObject({ status: '1001', message: 'the end must be after the start' });
    expect(await adm(AdminPaths.releaseCreate, { ...form, maxPerOrder: 5, perIdentityLimit: 3 })).toMatchObject({ status: '1001', message: 'the limit per order cannot exceed the limit per person' });
    expect(await adm(AdminPaths.releaseCreate, { ...form, commissionPermille: 1001 })).toMatchObject({ status: '1001' });
    expect(await adm(AdminPaths.releaseCreate, { ...form, creatorId: 999999 })).toMatchObject({ status: '1404', message: 'creator not found' });
    expect(await adm(AdminPaths.releaseCreate, { ...form, supply: 'lots' })).toMatchObject({ status: '1001' });
    // A private upload (an ID scan) is never a cover.
    expect(await adm(AdminPaths.releaseCreate, { ...form, cover: '/media/uploads/private/doc/202501/' + 'a'.repeat(32) + '.pdf' })).toMatchObject({ status: '1001' });
    // Not an image: the upload policy judges the bytes.
    expect(await adminUpload(t, AdminPaths.releaseUpload, op.token, Buffer.from('%PDF-1.4 not an image'), 'x.png')).toMatchObject({ status: '1030' });
  });

  it('a reviewer or support cannot create or edit releases (1071); an owner can', async () => {
    const form = await releaseForm(t, op.token);
    for (const s of [reviewer, support]) {
      expect(await adm(AdminPaths.releaseCreate, form, s)).toMatchObject({ status: '1071', message: 'your role does not allow this' });
      expect(await adm(AdminPaths.releaseUpdate, { id: 1, name: 'x' }, s)).toMatchObject({ status: '1071' });
      expect(await adm(AdminPaths.releasePhases, { projectId: 1, phases: [] }, s)).toMatchObject({ status: '1071' });
      expect(await adm(AdminPaths.whitelistImport, { projectId: 1, csv: '' }, s)).toMatchObject({ status: '1071' });
      expect(await adm(AdminPaths.releaseBox, { projectId: 1, kinds: [] }, s)).toMatchObject({ status: '1071' });
      expect(await adm(AdminPaths.composeSave, {}, s)).toMatchObject({ status: '1071' });
      expect((await adminUpload(t, AdminPaths.releaseUpload, s.token)).status).toBe('1071');
    }
    expect(await adm(AdminPaths.releaseCreate, form, owner)).toMatchObject({ status: '000000' });
  });
});

describe('editing a release', () => {
  it('before the sale: anything, the supply both ways with drop_stock and the range in step', async () => {
    const r = await createReleaseAs(t, op.token, { supply: 10 });
    const down = await adm(AdminPaths.releaseUpdate, { id: r.id, supply: 8, priceFen: 500, name: '新名字', category: '像素艺术' });
    expect(down, down.message).toMatchObject({ status: '000000', data: { supply: 8, priceFen: 500, name: '新名字', tokenStart: r.tokenStart, tokenEnd: r.tokenStart + 7, stock: { supply: 8 } } });
    expect(await stock(t, r.id)).toMatchObject({ supply: 8 });
    // The public catalogue shows the edit at once (release map and caches told).
    expect((await project(r.id)).data).toMatchObject({ name: '新名字', priceFen: 500, supply: 8, category: '像素艺术' });
    const list = await call(t, CatalogPaths.projectIndex, { pageNum: 1, pageSize: 50, status: 'all' });
    expect(list.data.list.find((p: { id: number }) => p.id === r.id)).toMatchObject({ name: '新名字', supply: 8 });
    // Growing while its range is the last one: in place.
    const up = await adm(AdminPaths.releaseUpdate, { id: r.id, supply: 30 });
    expect(up.data).toMatchObject({ supply: 30, tokenStart: r.tokenStart, tokenEnd: r.tokenStart + 29 });
    expect(await stock(t, r.id)).toMatchObject({ supply: 30 });
    // Another release takes the ids after it; nothing sold yet: the range moves to a fresh one.
    const next = await createReleaseAs(t, op.token, { supply: 5 });
    const moved = await adm(AdminPaths.releaseUpdate, { id: r.id, supply: 40 });
    expect(moved.data.tokenStart).toBeGreaterThan(next.tokenEnd);
    expect(moved.data.tokenEnd - moved.data.tokenStart + 1).toBe(40);
    expect(await stock(t, r.id)).toMatchObject({ supply: 40 });
    // An edit that changes nothing is still a recorded save, with nothing changed.
    const before = await lastAuditId(t);
    expect(await adm(AdminPaths.releaseUpdate, { id: r.id, supply: 40, name: '新名字' })).toMatchObject({ status: '000000' });
    expect(JSON.parse((await auditSince(t, before))[0]!.summary)).toMatchObject({ changed: [] });
    expect(await adm(AdminPaths.releaseUpdate, { id: 999999, name: 'x' })).toMatchObject({ status: '1404' });
  });

  it('after the sale started and an order exists: price, commission and creator frozen; supply never below taken, only up, in place only', async () => {
    const r = await createReleaseAs(t, op.token, { supply: 5, perIdentityLimit: 5, maxPerOrder: 5, saleStartAt: t.clock.t + 60_000, holdingDays: 7 });
    await clockTo(t.clock.t + 61_000);
    const buyer = await makeTrader(t);
    expectOk(await buy(t, buyer, r.id, 3));
    expect(await stock(t, r.id)).toMatchObject({ supply: 5, taken: 3 });
    const d = (await adm(AdminPaths.releaseDetail, { id: r.id })).data;
    expect(d).toMatchObject({ status: 'on_sale', orders: 1, locks: { started: true, hasOrders: true, priceLocked: true, creatorLocked: true, startLocked: true, supplyMin: 3, supplyOnlyGrow: true, holdingOnlyDown: true, phasesLocked: true } });

    expect(await adm(AdminPaths.releaseUpdate, { id: r.id, priceFen: 1 })).toMatchObject({ status: '1073', message: 'orders exist: the price and the commission cannot change' });
    expect(await adm(AdminPaths.releaseUpdate, { id: r.id, commissionPermille: 50 })).toMatchObject({ status: '1073' });
    expect(await adm(AdminPaths.releaseUpdate, { id: r.id, creatorId: await someCreatorId(t) + 0, priceFen: d.priceFen })).toMatchObject({ status: expect.stringMatching(/^(000000|1073)$/) });
    expect(await adm(AdminPaths.releaseUpdate, { id: r.id, supply: 2 })).toMatchObject({ status: '1073', message: 'the supply cannot be below the 3 units already taken' });
    expect(await adm(AdminPaths.releaseUpdate, { id: r.id, supply: 4 })).toMatchObject({ status: '1073', message: 'once the sale started the supply can only grow' });
    expect(await adm(AdminPaths.releaseUpdate, { id: r.id, saleStartAt: t.clock.t + 3600_000 })).toMatchObject({ status: '1073', message: 'the sale has started: its start cannot change' });
    expect(await adm(AdminPaths.releaseUpdate, { id: r.id, holdingDays: 30 })).toMatchObject({ status: '1073', message: 'once the sale started the holding period can only be shortened' });
    expect(await adm(AdminPaths.releaseUpdate, { id: r.id, saleEndAt: t.clock.t - 500 })).toMatchObject({ status: '1001', message: 'the end cannot be in the past' });
    // Allowed: shorter holding, a sale end, limits, the name; the price unchanged is fine.
    expect(await adm(AdminPaths.releaseUpdate, { id: r.id, holdingDays: 3, saleEndAt: t.clock.t + 86_400_000, perIdentityLimit: 6, maxPerOrder: 2, name: '改名', priceFen: d.priceFen })).toMatchObject({ status: '000000', data: { holdingDays: 3, perIdentityLimit: 6, maxPerOrder: 2, name: '改名' } });
    // The last range: grows in place; drop_stock follows and the new units can be bought.
    const grown = await adm(AdminPaths.releaseUpdate, { id: r.id, supply: 8 });
    expect(grown.data).toMatchObject({ supply: 8, tokenEnd: r.tokenStart + 7, stock: { supply: 8, taken: 3, remaining: 5 } });
    expect(await stock(t, r.id)).toMatchObject({ supply: 8, taken: 3 });
    expectOk(await buy(t, await makeTrader(t), r.id, 2));
    expect((await project(r.id)).data).toMatchObject({ supply: 8, sold: 5, remaining: 3 });
    // Once another release's range follows it, it cannot grow (its sold units keep their token ids).
    await createReleaseAs(t, op.token, { supply: 3 });
    expect(await adm(AdminPaths.releaseUpdate, { id: r.id, supply: 20 })).toMatchObject({ status: '1073', message: 'the token ids after this release’s range are in use: the supply cannot grow' });
    expect(await stock(t, r.id)).toMatchObject({ supply: 8, taken: 5 });
  });
});

describe('sale phases and the lottery', () => {
  it('phases must lie in the sale window; saved through setDropPhases; the window becomes their span; locked once the sale starts', async () => {
    const h = 3600_000;
    const start = t.clock.t + h;
    const r = await createReleaseAs(t, op.token, { supply: 10, saleStartAt: start, saleEndAt: start + 4 * h });
    const early = await adm(AdminPaths.releasePhases, { projectId: r.id, phases: [{ kind: 'whitelist', startAt: start - 1000, endAt: start + h }, { kind: 'public', startAt: start + h, endAt: start + 2 * h }] });
    expect(early).toMatchObject({ status: '1001' });
    expect(early.message).toMatch(/^the phases must lie in the sale window \(\d{4}-\d\d-\d\d \d\d:\d\d to \d{4}-\d\d-\d\d \d\d:\d\d\)$/);
    expect(await adm(AdminPaths.releasePhases, { projectId: r.id, phases: [{ kind: 'public', startAt: start, endAt: null }] })).toMatchObject({ status: '1001' });
    const overlap = await adm(AdminPaths.releasePhases, { projectId: r.id, phases: [{ kind: 'whitelist', startAt: start, endAt: start + 2 * h }, { kind: 'public', startAt: start + h, endAt: start + 3 * h }] });
    expect(overlap).toMatchObject({ status: '1001', message: 'the sale phases are not valid: phase 2: it overlaps the phase before' });

    const before = await lastAuditId(t);
    const ok = await adm(AdminPaths.releasePhases, { projectId: r.id, phases: [{ kind: 'whitelist', startAt: start + h, endAt: start + 2 * h, priceFen: 800 }, { kind: 'public', startAt: start + 2 * h, endAt: start + 3 * h }] });
    expect(ok, ok.message).toMatchObject({ status: '000000', message: 'sale phases saved', data: { saleStartAt: start + h, saleEndAt: start + 3 * h } });
    expect(ok.data.phaseInputs).toEqual([{ kind: 'whitelist', startAt: start + h, endAt: start + 2 * h, priceFen: 800 }, { kind: 'public', startAt: start + 2 * h, endAt: start + 3 * h, priceFen: 9900 }]);
    expect(ok.data.phases.map((p: { state: string }) => p.state)).toEqual(['upcoming', 'upcoming']);
    expect((await auditSince(t, before)).map((a) => a.action)).toEqual(['release.phases']);
    const mint = await get(t, `/official/mint/?projectId=${r.id}`);
    expect(mint.data.list[0].phases.map((p: { kind: string }) => p.kind)).toEqual(['whitelist', 'public']);
    // The window now is the phases' span: a release edit must keep them inside.
    expect(await adm(AdminPaths.releaseUpdate, { id: r.id, saleEndAt: start + 2 * h })).toMatchObject({ status: '1001', message: 'the sale window must contain every sale phase' });
    // Removing them (before the sale): sold as one public phase again.
    expect(await adm(AdminPaths.releasePhases, { projectId: r.id, phases: [] })).toMatchObject({ status: '000000', data: { phaseInputs: [] } });
    expect((await auditSince(t, before)).map((a) => a.action)).toEqual(['release.phases', 'release.phases_clear']);
    expect(await adm(AdminPaths.releasePhases, { projectId: r.id, phases: [{ kind: 'public', startAt: start + h, endAt: start + 3 * h }] })).toMatchObject({ status: '000000' });
    // Once the sale started: refused, nothing changes.
    await clockTo(start + h + 1000);
    expect(await adm(AdminPaths.releasePhases, { projectId: r.id, phases: [{ kind: 'public', startAt: start + 2 * h, endAt: start + 3 * h }] })).toMatchObject({ status: '1073', message: 'the sale has started: this cannot change' });
    expect((await adm(AdminPaths.releaseDetail, { id: r.id })).data.phaseInputs).toHaveLength(1);
  });

  it('a lottery: the draw epoch is checked against the chain; the epoch route tells the head and the pace; the detail shows the draw and its proof link', async () => {
    beacon.reach(500);
    const h = 3600_000;
    const start = t.clock.t + h;
    const r = await createReleaseAs(t, op.token, { supply: 20, saleStartAt: start, saleEndAt: null });
    const epoch = await adm(AdminPaths.releaseEpoch, {});
    expect(epoch).toMatchObject({ status: '000000', data: { epoch: 500, msPerEpoch: 1000, measured: false, serverTime: t.clock.t } });
    const phases = [{ kind: 'lottery_signup', startAt: start, endAt: start + h }, { kind: 'lottery_rights' }, { kind: 'public', startAt: start + h, endAt: null }];
    expect(await adm(AdminPaths.releasePhases, { projectId: r.id, phases, lottery: { drawEpoch: 400, winners: 5, winQuota: 2, rightsMinutes: 30 } })).toMatchObject({ status: '1001', message: 'the sale phases are not valid: the draw epoch must be in the future (the chain is at 500)' });
    expect(await adm(AdminPaths.releasePhases, { projectId: r.id, phases, lottery: { drawEpoch: 9000, winners: 11, winQuota: 2, rightsMinutes: 30 } })).toMatchObject({ status: '1001', message: 'the sale phases are not valid: winners × quota exceeds the supply' });
    expect(await adm(AdminPaths.releasePhases, { projectId: r.id, phases })).toMatchObject({ status: '1001' });
    const drawEpoch = 500 + 3600 + 120;
    const ok = await adm(AdminPaths.releasePhases, { projectId: r.id, phases, lottery: { drawEpoch, winners: 5, winQuota: 2, rightsMinutes: 30 } });
    expect(ok, ok.message).toMatchObject({ status: '000000', data: { saleEndAt: null, lottery: { drawEpoch, winners: 5, winQuota: 2, rightsMinutes: 30, status: 'open', entries: 0, proofUrl: `/projects/lottery/${r.id}` } } });
    // The supply cannot fall below what the lottery promises.
    expect(await adm(AdminPaths.releaseUpdate, { id: r.id, supply: 9 })).toMatchObject({ status: '1001', message: 'the supply cannot be below the lottery’s 10 units' });
  });
});

describe('the whitelist CSV', () => {
  it('a check reports bad lines with their numbers; an import with bad lines writes nothing; a clean one is imported, idempotent and searchable', async () => {
    const r = await createReleaseAs(t, op.token, { supply: 10 });
    const [a, b, c] = [await makeTrader(t), await makeTrader(t), await makeTrader(t)];
    const [accA, accB] = [await accountIdOf(t, a), await accountIdOf(t, b)];
    const mobileC = (await t.ctx.db.kysely.selectFrom('users').select('mobile').where('id', '=', c.userId).executeTakeFirstOrThrow()).mobile;
    const bad = `accountId,quota\n${accA},2\n${accB},abc\n\n# a comment\n99999999999999,1\n`;
    const check = await adm(AdminPaths.whitelistCheck, { projectId: r.id, csv: bad });
    expect(check).toMatchObject({ status: '000000', data: { ok: false, entries: 2, total: 0 } });
    expect(check.data.errors).toEqual([{ line: 3, message: 'line 3: the quota must be 1-10000' }, { line: 6, message: 'line 6: no such user' }]);
    const zh = await adminCall(t, AdminPaths.whitelistCheck, { projectId: r.id, csv: bad }, op.token, { headers: { lang: 'zh' } });
    expect(zh.data.errors[0]).toEqual({ line: 3, message: '第3行数量有误（1-10000）' });

    const before = await lastAuditId(t);
    expect(await adm(AdminPaths.whitelistImport, { projectId: r.id, csv: bad })).toMatchObject({ status: '1001', message: '2 lines are wrong: nothing was imported' });
    expect(await auditSince(t, before)).toEqual([]);
    expect(await t.ctx.db.kysely.selectFrom('drop_whitelist').selectAll().where('project_id', '=', r.id).execute()).toEqual([]);

    const good = `${accA},2\r\n${accB},3\r\n${mobileC},1\r\n`;
    const dry = await adm(AdminPaths.whitelistCheck, { projectId: r.id, csv: good });
    expect(dry.data).toMatchObject({ ok: true, entries: 3, added: 3, total: 0 });
    const imp = await adm(AdminPaths.whitelistImport, { projectId: r.id, csv: good });
    expect(imp).toMatchObject({ status: '000000', data: { ok: true, entries: 3, added: 3, updated: 0, unchanged: 0, total: 3 } });
    const again = await adm(AdminPaths.whitelistImport, { projectId: r.id, csv: good });
    expect(again.data).toMatchObject({ added: 0, updated: 0, unchanged: 3, total: 3 });
    const rows = await auditSince(t, before);
    expect(rows.map((x) => x.action)).toEqual(['release.whitelist_import', 'release.whitelist_import']);
    expect(rows[0]!.summary).not.toContain(mobileC);
    // Replace: entries missing from the file go.
    expect((await adm(AdminPaths.whitelistImport, { projectId: r.id, csv: `${accA},5\n`, replace: true })).data).toMatchObject({ updated: 1, removed: 2, total: 1 });
    await adm(AdminPaths.whitelistImport, { projectId: r.id, csv: good });
    // Size and search (by phone: exact, shown masked; by account id).
    expect((await adm(AdminPaths.releaseDetail, { id: r.id })).data.whitelist).toEqual({ entries: 3 });
    const byMobile = await adm(AdminPaths.whitelistList, { projectId: r.id, q: mobileC });
    expect(byMobile.data).toMatchObject({ total: 1, list: [{ userId: c.userId, quota: 1, verified: true }] });
    expect(byMobile.data.list[0].mobileMasked).not.toBe(mobileC);
    expect(byMobile.data.list[0].mobileMasked).toMatch(/\*/);
    expect((await adm(AdminPaths.whitelistList, { projectId: r.id, q: accB })).data).toMatchObject({ total: 1, list: [{ userId: b.userId, quota: 3 }] });
    expect((await adm(AdminPaths.whitelistList, { projectId: r.id })).data.total).toBe(3);
    // The buyer's view: whitelisted with the quota.
    expect((await call(t, '/api/user/mint/v1/whitelist', { projectId: r.id }, b.h)).data).toMatchObject({ whitelisted: true, quota: 3 });
  });
});

describe('blind boxes', () => {
  it('a release becomes a box through configureBoxRelease: odds summing to the supply, commitment, items release; odds editable until the sale; supply fixed', async () => {
    const r = await createReleaseAs(t, op.token, { supply: 6 });
    const kindImage = await coverUrl(t, op.token);
    expect(await adm(AdminPaths.releaseBox, { projectId: r.id, kinds: [{ name: '隐藏款', rarity: '隐藏', count: 1 }, { name: '普通款', rarity: '普通', count: 4 }] })).toMatchObject({ status: '1001', message: 'the kinds’ counts (5) must add up to the supply (6)' });
    expect(await adm(AdminPaths.releaseBox, { projectId: r.id, kinds: [{ name: '', rarity: '普通', count: 6 }] })).toMatchObject({ status: '1001' });
    expect(await adm(AdminPaths.releaseBox, { projectId: r.id, kinds: [{ name: 'A', rarity: 'x', count: 6, image: 'https://evil.example/a.png' }] })).toMatchObject({ status: '1001' });
    const made = await adm(AdminPaths.releaseBox, { projectId: r.id, kinds: [{ name: '隐藏款', rarity: '隐藏', count: 1, image: kindImage }, { name: '普通款', rarity: '普通', count: 5 }], revealInEpochs: 3 });
    expect(made, made.message).toMatchObject({ status: '000000', message: 'blind-box settings saved', data: { role: 'box', box: { status: 'committed', algorithm: 'box-shuffle-v1', proofUrl: `/projects/box/${r.id}` } } });
    const box = made.data.box;
    expect(box.commitment).toMatch(/^[0-9a-f]{64}$/);
    expect(box.kinds[0]).toMatchObject({ name: '隐藏款', count: 1, image: kindImage });
    const items = (await adm(AdminPaths.releaseDetail, { id: box.itemProjectId })).data;
    expect(items).toMatchObject({ role: 'box_items', supply: 6, stock: { taken: 6, remaining: 0 }, locks: { supplyLocked: true, priceLocked: true } });
    expect(items.tokenStart).toBeGreaterThan(r.tokenEnd);
    // Public: the odds and the commitment before anything is sold.
    const info = await get(t, `${GoodsFlowPaths.boxInfo}?projectId=${r.id}`);
    expect(info.data).toMatchObject({ commitment: box.commitment, status: 'committed', kinds: [{ name: '隐藏款', count: 1 }, { name: '普通款', count: 5 }] });
    // New odds before the sale: the commitment stays; the supply of a box is its kinds'.
    const edited = await adm(AdminPaths.releaseBox, { projectId: r.id, kinds: [{ name: '隐藏款', rarity: '隐藏', count: 2 }, { name: '普通款', rarity: '普通', count: 4 }] });
    expect(edited.data.box).toMatchObject({ commitment: box.commitment, revealEpoch: box.revealEpoch, kinds: [{ count: 2, image: kindImage }, { count: 4 }] });
    expect(await adm(AdminPaths.releaseUpdate, { id: r.id, supply: 7 })).toMatchObject({ status: '1073', message: 'a blind box’s supply is the sum of its kinds and cannot change' });
    expect(await adm(AdminPaths.releaseBox, { projectId: box.itemProjectId, kinds: [{ name: 'x', rarity: 'y', count: 6 }] })).toMatchObject({ status: '1073', message: 'this release cannot be a blind box' });
    // After the start: locked.
    await clockTo((await adm(AdminPaths.releaseDetail, { id: r.id })).data.saleStartAt + 1000);
    expect(await adm(AdminPaths.releaseBox, { projectId: r.id, kinds: [{ name: '隐藏款', rarity: '隐藏', count: 1 }, { name: '普通款', rarity: '普通', count: 5 }] })).toMatchObject({ status: '1073', message: 'the sale has started: the box settings cannot change' });
  });
});

describe('compose recipes', () => {
  it('created with its result release, edited by the rules: ingredients frozen once used, max times between used and the result supply', async () => {
    const a = await createReleaseAs(t, op.token, { supply: 100, saleStartAt: t.clock.t - 1000 });
    const b = await createReleaseAs(t, op.token, { supply: 100, saleStartAt: t.clock.t - 1000 });
    const base = { name: '山河合璧', description: '集齐两种碎片', ingredients: [{ projectId: a.id, count: 2 }, { projectId: b.id, count: 1 }], maxTimes: 5, startAt: t.clock.t - 1000, endAt: null };
    expect(await adm(AdminPaths.composeSave, { ...base, ingredients: [{ projectId: a.id, count: 1 }, { projectId: a.id, count: 1 }] })).toMatchObject({ status: '1001' });
    expect(await adm(AdminPaths.composeSave, { ...base, ingredients: [{ projectId: 999999, count: 1 }] })).toMatchObject({ status: '1404' });
    expect(await adm(AdminPaths.composeSave, { ...base, endAt: base.startAt - 1 })).toMatchObject({ status: '1001', message: 'the end must be after the start' });
    const made = await adm(AdminPaths.composeSave, base);
    expect(made, made.message).toMatchObject({ status: '000000', data: { name: '山河合璧', maxTimes: 5, usedTimes: 0, records: 0, resultSupply: 5, status: 'active' } });
    const rule = made.data;
    expect((await adm(AdminPaths.releaseDetail, { id: rule.resultProjectId })).data).toMatchObject({ role: 'compose_result', status: 'sold_out' });
    const pub = await call(t, GoodsFlowPaths.composeRule, { ruleId: rule.id, pageNum: 1, pageSize: 10 }, (await makeTrader(t)).h);
    expect(pub.data.list[0]).toMatchObject({ id: rule.id, name: '山河合璧', maxTimes: 5 });

    expect(await adm(AdminPaths.composeSave, { ...base, id: rule.id, maxTimes: 6 })).toMatchObject({ status: '1073', message: 'the number of results cannot exceed the result release’s 5 tokens' });
    expect((await adm(AdminPaths.composeSave, { ...base, id: rule.id, maxTimes: 3, name: '山河合璧·改' })).data).toMatchObject({ maxTimes: 3, name: '山河合璧·改' });
    // A user selects fragments: a record exists, the recipe's ingredients are frozen.
    const u = await makeTrader(t);
    const fa = await grantFragments(t, u, a.id, 2);
    const fb = await grantFragments(t, u, b.id, 1);
    expectOk(await call(t, GoodsFlowPaths.selectFragment, { ruleId: rule.id, goodsIds: [...fa, ...fb].map((g) => g.goodsId) }, u.h));
    expect(await adm(AdminPaths.composeSave, { ...base, id: rule.id, maxTimes: 3, ingredients: [{ projectId: a.id, count: 1 }] })).toMatchObject({ status: '1073', message: 'this recipe has been used: its ingredients and result cannot change' });
    expect((await adm(AdminPaths.composeSave, { ...base, id: rule.id, maxTimes: 3, endAt: t.clock.t + 86_400_000 })).data).toMatchObject({ records: 1, endAt: t.clock.t + 86_400_000 });
    // Max times never below what is reserved (a confirm takes one).
    expectOk(await call(t, GoodsFlowPaths.confirmCompose, { ruleId: rule.id, goodsIds: [...fa, ...fb].map((g) => g.goodsId) }, u.h));
    expect((await adm(AdminPaths.composeList, {})).data.list.find((x: { id: number }) => x.id === rule.id)).toMatchObject({ usedTimes: 1 });
    expect(await adm(AdminPaths.composeSave, { ...base, id: rule.id, maxTimes: 1 })).toMatchObject({ status: '000000' });
    const lower = await adm(AdminPaths.composeSave, { ...base, id: rule.id, maxTimes: 0 });
    expect(lower.status).toBe('1001');
  });
});

describe('robustness', () => {
  it('every catalogue route answers the envelope for junk bodies, never a 5xx', async () => {
    const junk = [{}, { id: 'x' }, { projectId: -1 }, { phases: 'x' }, { kinds: [{}] }, { id: 1, supply: 1e12 }, null, [], 'text'];
    const paths = Object.values(AdminPaths).filter((p) => /^\/(releases|compose|news|banners|recommend|content)\//.test(p));
    for (const p of paths) {
      for (const b of junk) {
        const r = await adminCall(t, p, b, owner.token);
        expect(r.http, `${p} ${JSON.stringify(b)}`).toBeLessThan(500);
        expect(r.status, `${p} ${JSON.stringify(b)}: ${r.message}`).toMatch(/^(000000|1001|1030|1073|1404)$/);
      }
    }
  });
});
