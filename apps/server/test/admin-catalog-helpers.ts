import { expect } from 'vitest';
import { ADMIN_BASE, AdminPaths, STAFF_TOKEN_HEADER } from '@cfx/contract/admin-rules.ts';
import { inTx } from '../src/db/tx.ts';
import { pickCreator } from '../src/modules/compose/releases.ts';
import { adminCall, type AdminAnswer } from './admin-helpers.ts';
import type { TestApp } from './helpers.ts';
import { multipartBody, png } from './upload-helpers.ts';

/**
 * Helpers of the console's catalogue / content tests: an image uploaded through the console's own
 * upload route (multipart, staff token), a creator, a release made through /releases/create, and
 * the audit scenarios of every mutating catalogue / content route (used by admin-audit.test.ts).
 */
export async function adminUpload(t: TestApp, path: string, token: string, data: Buffer = png(64, 48, true), filename = 'cover.png'): Promise<AdminAnswer> {
  const { body, contentType } = multipartBody([{ name: 'file', filename, contentType: 'image/png', data }]);
  const res = await t.app.inject({ method: 'POST', url: ADMIN_BASE + path, headers: { 'content-type': contentType, lang: 'en', [STAFF_TOKEN_HEADER]: token }, payload: body });
  return { http: res.statusCode, ...(res.json() as Omit<AdminAnswer, 'http'>) };
}

export async function someCreatorId(t: TestApp): Promise<number> {
  return inTx(t.ctx, (trx) => pickCreator(trx, null, t.clock.t));
}

export async function coverUrl(t: TestApp, token: string, path: string = AdminPaths.releaseUpload): Promise<string> {
  const up = await adminUpload(t, path, token);
  expect(up, up.message).toMatchObject({ status: '000000' });
  return up.data.url as string;
}

export interface ReleaseForm {
  name: string;
  creatorId: number;
  cover: string;
  category: string;
  descriptionHtml: string;
  supply: number;
  priceFen: number;
  saleStartAt: number;
  saleEndAt: number | null;
  holdingDays: number;
  perIdentityLimit: number;
  maxPerOrder: number;
  commissionPermille: number;
}

export async function releaseForm(t: TestApp, token: string, over: Partial<ReleaseForm> = {}): Promise<ReleaseForm> {
  return {
    name: '山河·数字藏品',
    creatorId: over.creatorId ?? (await someCreatorId(t)),
    cover: over.cover ?? (await coverUrl(t, token)),
    category: '国风水墨',
    descriptionHtml: '<p>山河入画。</p>',
    supply: 10,
    priceFen: 9900,
    saleStartAt: t.clock.t + 3600_000,
    saleEndAt: null,
    holdingDays: 7,
    perIdentityLimit: 3,
    maxPerOrder: 2,
    commissionPermille: 100,
    ...over,
  };
}

export async function createReleaseAs(t: TestApp, token: string, over: Partial<ReleaseForm> = {}) {
  const r = await adminCall(t, AdminPaths.releaseCreate, await releaseForm(t, token, over), token);
  expect(r, r.message).toMatchObject({ status: '000000' });
  return r.data as { id: number; tokenStart: number; tokenEnd: number; supply: number };
}

type Result = { status: string; message?: string } | { statusCode: number };
export interface CatalogScenario {
  action: string | RegExp;
  targetId?: () => string | null;
  run: () => Promise<Result>;
}

/**
 * One real run of every mutating catalogue / content route, as the owner `token()`; each scenario
 * prepares what it needs (lazily, in the order of the table).
 */
export function catalogAuditScenarios(t: TestApp, token: () => string, ip: string): Record<string, CatalogScenario> {
  let projectId = 0;
  let newsId = 0;
  let bannerId = 0;
  let listId = 0;
  let ruleId = 0;
  let image = '';
  const as = (path: string, body: () => unknown) => () => adminCall(t, path, body(), token(), { ip });
  return {
    [AdminPaths.releaseUpload]: {
      action: 'upload.image',
      run: async () => {
        const r = await adminUpload(t, AdminPaths.releaseUpload, token());
        image = r.data?.url ?? '';
        return r;
      },
    },
    [AdminPaths.contentUpload]: { action: 'upload.image', run: () => adminUpload(t, AdminPaths.contentUpload, token()) },
    [AdminPaths.releaseCreate]: {
      action: 'release.create',
      targetId: () => String(projectId),
      run: async () => {
        const r = await adminCall(t, AdminPaths.releaseCreate, await releaseForm(t, token(), { cover: image, supply: 6 }), token(), { ip });
        projectId = r.data?.id;
        return r;
      },
    },
    [AdminPaths.releaseUpdate]: { action: 'release.update', targetId: () => String(projectId), run: as(AdminPaths.releaseUpdate, () => ({ id: projectId, name: '山河·修订版', supply: 6 })) },
    [AdminPaths.releasePhases]: {
      action: 'release.phases',
      targetId: () => String(projectId),
      run: as(AdminPaths.releasePhases, () => ({ projectId, phases: [{ kind: 'whitelist', startAt: t.clock.t + 3600_000, endAt: t.clock.t + 7200_000 }, { kind: 'public', startAt: t.clock.t + 7200_000 }] })),
    },
    [AdminPaths.whitelistImport]: {
      action: 'release.whitelist_import',
      targetId: () => String(projectId),
      run: async () => {
        const u = await t.ctx.db.kysely.selectFrom('users').select('account_id').where('password_hash', 'is not', null).limit(1).executeTakeFirstOrThrow();
        return adminCall(t, AdminPaths.whitelistImport, { projectId, csv: `accountId,quota\n${u.account_id},2\n` }, token(), { ip });
      },
    },
    [AdminPaths.releaseBox]: {
      action: 'release.box_create',
      targetId: () => String(projectId),
      run: as(AdminPaths.releaseBox, () => ({ projectId, kinds: [{ name: '隐藏款', rarity: '隐藏', count: 1 }, { name: '普通款', rarity: '普通', count: 5 }] })),
    },
    [AdminPaths.composeSave]: {
      action: 'compose.create',
      targetId: () => String(ruleId),
      run: async () => {
        const r = await adminCall(t, AdminPaths.composeSave, { name: '合成测试', ingredients: [{ projectId, count: 2 }], maxTimes: 3, startAt: t.clock.t, endAt: null }, token(), { ip });
        ruleId = r.data?.id;
        return r;
      },
    },
    [AdminPaths.newsSave]: {
      action: 'news.create',
      targetId: () => String(newsId),
      run: async () => {
        const r = await adminCall(t, AdminPaths.newsSave, { title: '平台公告', category: '平台公告', cover: image, contentHtml: '<p>正文</p>', draft: true }, token(), { ip });
        newsId = r.data?.id;
        return r;
      },
    },
    [AdminPaths.newsPublish]: { action: 'news.publish', targetId: () => String(newsId), run: as(AdminPaths.newsPublish, () => ({ id: newsId, publish: true })) },
    [AdminPaths.bannerSave]: {
      action: 'banner.create',
      targetId: () => String(bannerId),
      run: async () => {
        const r = await adminCall(t, AdminPaths.bannerSave, { position: 'home', title: '首页横幅', image, linkType: 'news', linkTarget: String(newsId) }, token(), { ip });
        bannerId = r.data?.id;
        return r;
      },
    },
    [AdminPaths.recommendSave]: {
      action: 'recommend.create',
      targetId: () => String(listId),
      run: async () => {
        const r = await adminCall(t, AdminPaths.recommendSave, { code: 'audit_list', title: '推荐', items: [{ type: 'project', id: projectId }] }, token(), { ip });
        listId = r.data?.id;
        return r;
      },
    },
    [AdminPaths.recommendDelete]: { action: 'recommend.delete', targetId: () => String(listId), run: as(AdminPaths.recommendDelete, () => ({ id: listId })) },
    [AdminPaths.bannerDelete]: { action: 'banner.delete', targetId: () => String(bannerId), run: as(AdminPaths.bannerDelete, () => ({ id: bannerId })) },
    [AdminPaths.newsDelete]: { action: 'news.delete', targetId: () => String(newsId), run: as(AdminPaths.newsDelete, () => ({ id: newsId })) },
  };
}
