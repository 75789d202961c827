import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CatalogPaths } from '@cfx/contract/routes.ts';
import { invalidateProjectInfo } from '../src/modules/catalog/project-info.ts';
import { API, call, makeApp, type TestApp } from './helpers.ts';

/**
 * Video and 3D releases (migration 0029): projects.media_kind / media_key reach the release detail
 * and the collectible detail as `media: {kind, url}`; unset (every existing release) → null and
 * the cover image as before; a kind or key that is not valid is never sent to the pages.
 */
let t: TestApp;
beforeAll(async () => {
  t = await makeApp({}, { DEMO_DATA: '1' });
});
afterAll(async () => {
  await t?.close();
});

const KEY = `public/media/202611/${'ab'.repeat(16)}.mp4`;

async function goodsDetail(id: number) {
  const res = await t.app.inject({ method: 'GET', url: `${API}${CatalogPaths.goodsDetails}?id=${id}`, headers: { channel: 'pc' } });
  return res.json() as { status: string; data: any };
}

describe('release media on the detail calls', () => {
  it('null until set; then the kind and the public URL on the release and its collectibles', async () => {
    const g = await t.ctx.db.kysely.selectFrom('goods').select(['id', 'project_id']).orderBy('id').limit(1).executeTakeFirstOrThrow();
    const projectId = Number(g.project_id);
    expect((await call(t, CatalogPaths.projectDetails, { id: projectId })).data.media).toBeNull();
    expect((await goodsDetail(Number(g.id))).data.media).toBeNull();

    await t.ctx.db.kysely.updateTable('projects').set({ media_kind: 'video', media_key: KEY }).where('id', '=', projectId).execute();
    invalidateProjectInfo(t.ctx);
    expect((await call(t, CatalogPaths.projectDetails, { id: projectId })).data.media).toEqual({ kind: 'video', url: `/media/uploads/${KEY}` });
    expect((await goodsDetail(Number(g.id))).data.media).toEqual({ kind: 'video', url: `/media/uploads/${KEY}` });

    // not a public key, or an unknown kind: never sent
    await t.ctx.db.kysely.updateTable('projects').set({ media_kind: 'model', media_key: 'private/doc/202611/' + 'ab'.repeat(16) + '.pdf' }).where('id', '=', projectId).execute();
    expect((await call(t, CatalogPaths.projectDetails, { id: projectId })).data.media).toBeNull();
    await t.ctx.db.kysely.updateTable('projects').set({ media_kind: 'audio' as never, media_key: KEY }).where('id', '=', projectId).execute();
    expect((await call(t, CatalogPaths.projectDetails, { id: projectId })).data.media).toBeNull();
  });
});
