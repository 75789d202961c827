import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SettledPaths } from '@cfx/contract/routes.ts';
import { reviewApplication } from '../src/modules/settled/review-application.ts';
import { API, call, makeApp, register, type TestApp } from './helpers.ts';
import { fixture, png, upload } from './upload-helpers.ts';

/**
 * The project application on a real app and database (SQLite, or PostgreSQL with TEST_PG_URL):
 * submit with the applicant's own uploads, the form's rules with their messages, one open
 * application per user (also under parallel submits), my applications with status, and the staff
 * review (reviewApplication) through reviewing → approved | rejected with the reason shown.
 */
let t: TestApp;
const EN = { lang: 'en' };

beforeAll(async () => {
  t = await makeApp();
});
afterAll(async () => {
  await t?.close();
});

async function uploadsOf(token: string, images = 2, docs = 1) {
  const artworkKeys: string[] = [];
  const qualificationKeys: string[] = [];
  for (let i = 0; i < images; i++) artworkKeys.push((await upload(t, SettledPaths.upload, token, { data: png(40 + i, 30), filename: `art-${i}.png` })).data.key);
  for (let i = 0; i < docs; i++) qualificationKeys.push((await upload(t, SettledPaths.uploadFile, token, { data: fixture('licence.pdf'), filename: `licence-${i}.pdf` })).data.key);
  return { artworkKeys, qualificationKeys };
}

const form = (keys: { artworkKeys: string[]; qualificationKeys: string[] }) => ({
  projectName: '  山海经·数字典藏 ',
  creatorName: '青山工作室',
  category: 'culture',
  description: '以《山海经》中的异兽为题材的数字艺术作品系列，共 12 款，由青山工作室原创绘制。',
  supply: 1000,
  priceFen: 9900,
  contactName: '王小明',
  mobile: '13800138000',
  email: 'wang@example.com',
  agree: true,
  ...keys,
});

const mine = async (token: string, headers: Record<string, string> = {}) => {
  const res = await t.app.inject({ method: 'GET', url: API + SettledPaths.mine, headers: { token, channel: 'pc', ...headers } });
  return res.json();
};

describe('submitting an application', () => {
  it('needs a login', async () => {
    expect(await call(t, SettledPaths.submit, {}, EN)).toMatchObject({ status: '1100', code: '1100' });
    expect((await t.app.inject({ method: 'GET', url: API + SettledPaths.mine })).json()).toMatchObject({ status: '1100' });
  });

  it('creates a submitted application with its files, listed under mine; a second open one is refused', async () => {
    const u = await register(t);
    const before = await mine(u.token);
    expect(before).toMatchObject({ status: '000000', code: 200, data: { list: [], hasOpen: false, limits: { imageMaxBytes: 5 * 1024 * 1024, fileMaxBytes: 20 * 1024 * 1024 } } });

    const keys = await uploadsOf(u.token);
    const r = await call(t, SettledPaths.submit, form(keys), EN);
    expect(r).toMatchObject({ status: '1100' }); // no token
    const ok = await call(t, SettledPaths.submit, form(keys), { token: u.token, ...EN });
    expect(ok).toMatchObject({ http: 200, status: '000000', code: 200, message: 'application submitted; the first review takes up to 5 working days', data: { status: 'submitted' } });

    const m = await mine(u.token);
    expect(m.data.hasOpen).toBe(true);
    expect(m.data.list).toHaveLength(1);
    const a = m.data.list[0];
    expect(a).toMatchObject({
      id: ok.data.id,
      projectName: '山海经·数字典藏',
      creatorName: '青山工作室',
      category: 'culture',
      supply: 1000,
      priceFen: 9900,
      contactName: '王小明',
      mobile: '13800138000',
      email: 'wang@example.com',
      status: 'submitted',
      rejectReason: null,
      reviewedAt: null,
    });
    expect(a.artworks.map((f: any) => f.key)).toEqual(keys.artworkKeys);
    expect(a.artworks[0]).toMatchObject({ name: 'art-0.png', type: 'image/png', url: `/media/uploads/${keys.artworkKeys[0]}` });
    expect(a.qualifications).toEqual([
      { key: keys.qualificationKeys[0], name: 'licence-0.pdf', type: 'application/pdf', size: fixture('licence.pdf').length, url: `${API}${SettledPaths.file}?key=${encodeURIComponent(keys.qualificationKeys[0]!)}` },
    ]);

    const again = await call(t, SettledPaths.submit, form(keys), { token: u.token, ...EN });
    expect(again).toMatchObject({ status: '1031', code: '1031', message: 'you already have an application under review, please wait for its result' });
    // someone else's list is their own
    expect((await mine((await register(t)).token)).data.list).toEqual([]);
  });

  it('checks every field with a clear message, in form order', async () => {
    const u = await register(t);
    const keys = await uploadsOf(u.token, 1, 1);
    const good = form(keys);
    const cases: [Record<string, unknown>, string][] = [
      [{ projectName: '   ' }, 'please enter the project name (1-40 characters)'],
      [{ projectName: '名'.repeat(41) }, 'please enter the project name (1-40 characters)'],
      [{ projectName: 'a\nb' }, 'please enter the project name (1-40 characters)'],
      [{ creatorName: '' }, 'please enter the creator or issuer name (1-40 characters)'],
      [{ category: 'weapons' }, 'please choose a project category'],
      [{ description: '太短了' }, 'the project description must be 20-2000 characters'],
      [{ description: '字'.repeat(2001) }, 'the project description must be 20-2000 characters'],
      [{ supply: 0 }, 'the planned supply must be a whole number from 1 to 1000000'],
      [{ supply: 1.5 }, 'the planned supply must be a whole number from 1 to 1000000'],
      [{ supply: 1_000_001 }, 'the planned supply must be a whole number from 1 to 1000000'],
      [{ priceFen: 0 }, 'the planned price must be between ￥0.01 and ￥1,000,000.00'],
      [{ priceFen: 'abc' }, 'the planned price must be between ￥0.01 and ￥1,000,000.00'],
      [{ artworkKeys: [] }, 'please upload 1-9 artwork images'],
      [{ artworkKeys: [keys.artworkKeys[0], keys.artworkKeys[0]] }, 'please upload 1-9 artwork images'],
      [{ qualificationKeys: [] }, 'please upload 1-5 copyright or licence documents'],
      [{ contactName: '' }, "please enter the contact person's name (1-20 characters)"],
      [{ mobile: '1380013800' }, 'phone number entered incorrectly.'],
      [{ email: 'not-an-email' }, 'please enter a correct email address'],
      [{ agree: false }, 'please read and agree to the project compliance requirements'],
      // several wrong: the first in form order
      [{ email: 'x', projectName: '' }, 'please enter the project name (1-40 characters)'],
    ];
    for (const [patch, message] of cases) {
      expect(await call(t, SettledPaths.submit, { ...good, ...patch }, { token: u.token, ...EN }), JSON.stringify(patch).slice(0, 60)).toMatchObject({ http: 200, status: '1001', code: '1001', message });
    }
    // digit strings are numbers; "1" agrees; the zh message by default
    expect((await call(t, SettledPaths.submit, { ...good, projectName: '' }, { token: u.token })).message).toBe('请输入项目名称（1-40个字）');
    const ok = await call(t, SettledPaths.submit, { ...good, supply: '500', priceFen: '100', agree: '1' }, { token: u.token });
    expect(ok.status).toBe('000000');
    expect((await mine(u.token)).data.list[0]).toMatchObject({ supply: 500, priceFen: 100 });
  });

  it("attaches only the applicant's own uploads, each of the right kind", async () => {
    const owner = await register(t);
    const thief = await register(t);
    const ownerKeys = await uploadsOf(owner.token, 1, 1);
    const thiefKeys = await uploadsOf(thief.token, 1, 1);
    const h = { token: thief.token, ...EN };
    const notYours = 'an attachment does not exist or is not yours, please upload it again';
    expect(await call(t, SettledPaths.submit, form({ ...thiefKeys, artworkKeys: ownerKeys.artworkKeys }), h)).toMatchObject({ status: '1012', message: notYours });
    expect(await call(t, SettledPaths.submit, form({ ...thiefKeys, qualificationKeys: ownerKeys.qualificationKeys }), h)).toMatchObject({ status: '1012', message: notYours });
    expect(await call(t, SettledPaths.submit, form({ ...thiefKeys, artworkKeys: ['public/img/202611/0123456789abcdef0123456789abcdef.png'] }), h)).toMatchObject({ status: '1012' });
    // own keys in the wrong role
    expect(await call(t, SettledPaths.submit, form({ artworkKeys: thiefKeys.qualificationKeys, qualificationKeys: thiefKeys.qualificationKeys }), h)).toMatchObject({ status: '1001', message: 'please upload 1-9 artwork images' });
    expect(await call(t, SettledPaths.submit, form({ artworkKeys: thiefKeys.artworkKeys, qualificationKeys: thiefKeys.artworkKeys }), h)).toMatchObject({ status: '1001', message: 'please upload 1-5 copyright or licence documents' });
    // nothing was created by the refusals
    expect((await mine(thief.token)).data.list).toEqual([]);
    expect((await call(t, SettledPaths.submit, form(thiefKeys), h)).status).toBe('000000');
  });

  it('keeps one open application per user under parallel submits', async () => {
    const u = await register(t);
    const keys = await uploadsOf(u.token, 1, 1);
    const results = await Promise.all(Array.from({ length: 6 }, () => call(t, SettledPaths.submit, form(keys), { token: u.token })));
    expect(results.filter((r) => r.status === '000000')).toHaveLength(1);
    expect(results.filter((r) => r.status === '1031')).toHaveLength(5);
    expect((await mine(u.token)).data.list).toHaveLength(1);
  });

  it('answers an oversized JSON body with the envelope, not a 500', async () => {
    const u = await register(t);
    const res = await t.app.inject({
      method: 'POST',
      url: API + SettledPaths.submit,
      headers: { 'content-type': 'application/json', token: u.token, lang: 'en' },
      payload: JSON.stringify({ description: 'x'.repeat(300 * 1024) }),
    });
    expect(res.statusCode).toBe(413);
    expect(res.json()).toMatchObject({ status: '1001', message: 'invalid request parameters' });
  });
});

describe('review by staff (reviewApplication)', () => {
  it('moves submitted → reviewing → approved, records who and when, and refuses a second decision', async () => {
    const u = await register(t);
    const staff = await register(t);
    const staffId = Number((await t.ctx.db.kysely.selectFrom('users').select('id').where('mobile', '=', staff.mobile).executeTakeFirstOrThrow()).id);
    const id = (await call(t, SettledPaths.submit, form(await uploadsOf(u.token, 1, 1)), { token: u.token })).data.id as number;

    const reviewing = await reviewApplication(t.ctx, staffId, id, 'reviewing');
    expect(reviewing).toMatchObject({ id, status: 'reviewing', reviewedAt: null });
    expect((await mine(u.token)).data).toMatchObject({ hasOpen: true, list: [{ status: 'reviewing' }] });
    await expect(reviewApplication(t.ctx, staffId, id, 'reviewing')).rejects.toMatchObject({ status: '1031', key: 'settledNotReviewable' });

    t.clock.t += 1000;
    const approved = await reviewApplication(t.ctx, staffId, id, 'approved');
    expect(approved).toMatchObject({ status: 'approved', rejectReason: null, reviewedAt: t.clock.t });
    await expect(reviewApplication(t.ctx, staffId, id, 'rejected', 'too late')).rejects.toMatchObject({ status: '1031' });
    await expect(reviewApplication(t.ctx, staffId, id, 'approved')).rejects.toMatchObject({ status: '1031' });
    const row = await t.ctx.db.kysely.selectFrom('settled_applications').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    expect(Number(row.reviewed_by)).toBe(staffId);
    const events = await t.ctx.db.kysely.selectFrom('settled_application_events').select(['from_status', 'to_status', 'actor_user_id']).where('application_id', '=', id).orderBy('id').execute();
    expect(events.map((e) => [e.from_status, e.to_status, Number(e.actor_user_id) === staffId])).toEqual([
      [null, 'submitted', false],
      ['submitted', 'reviewing', true],
      ['reviewing', 'approved', true],
    ]);
    // decided: the applicant may apply again (another project)
    expect((await mine(u.token)).data.hasOpen).toBe(false);
    expect((await call(t, SettledPaths.submit, form(await uploadsOf(u.token, 1, 1)), { token: u.token })).status).toBe('000000');
  });

  it('rejects only with a reason, which the applicant sees', async () => {
    const u = await register(t);
    const staff = await register(t);
    const staffId = Number((await t.ctx.db.kysely.selectFrom('users').select('id').where('mobile', '=', staff.mobile).executeTakeFirstOrThrow()).id);
    const id = (await call(t, SettledPaths.submit, form(await uploadsOf(u.token, 1, 1)), { token: u.token })).data.id as number;
    await expect(reviewApplication(t.ctx, staffId, id, 'rejected')).rejects.toMatchObject({ status: '1001', key: 'settledBadReason' });
    await expect(reviewApplication(t.ctx, staffId, id, 'rejected', '   ')).rejects.toMatchObject({ key: 'settledBadReason' });
    await expect(reviewApplication(t.ctx, staffId, id, 'rejected', '理'.repeat(501))).rejects.toMatchObject({ key: 'settledBadReason' });
    await expect(reviewApplication(t.ctx, staffId, 987654, 'approved')).rejects.toMatchObject({ status: '1404', key: 'settledNotFound' });

    const rejected = await reviewApplication(t.ctx, staffId, id, 'rejected', ' 授权书缺少权利人签章，请补充后重新提交。 ');
    expect(rejected).toMatchObject({ status: 'rejected', rejectReason: '授权书缺少权利人签章，请补充后重新提交。' });
    const m = await mine(u.token);
    expect(m.data).toMatchObject({ hasOpen: false, list: [{ id, status: 'rejected', rejectReason: '授权书缺少权利人签章，请补充后重新提交。' }] });
    // a corrected application may follow, with the same files
    const keys = { artworkKeys: m.data.list[0].artworks.map((f: any) => f.key), qualificationKeys: m.data.list[0].qualifications.map((f: any) => f.key) };
    expect((await call(t, SettledPaths.submit, form(keys), { token: u.token })).status).toBe('000000');
    expect((await mine(u.token)).data.list.map((a: any) => a.status)).toEqual(['submitted', 'rejected']);
  });

  it('two staff deciding at once: exactly one decision wins', async () => {
    const u = await register(t);
    const staff = await register(t);
    const staffId = Number((await t.ctx.db.kysely.selectFrom('users').select('id').where('mobile', '=', staff.mobile).executeTakeFirstOrThrow()).id);
    const id = (await call(t, SettledPaths.submit, form(await uploadsOf(u.token, 1, 1)), { token: u.token })).data.id as number;
    const results = await Promise.allSettled([reviewApplication(t.ctx, staffId, id, 'approved'), reviewApplication(t.ctx, staffId, id, 'rejected', '不符合要求')]);
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    const events = await t.ctx.db.kysely.selectFrom('settled_application_events').select('to_status').where('application_id', '=', id).execute();
    expect(events).toHaveLength(2);
  });
});
