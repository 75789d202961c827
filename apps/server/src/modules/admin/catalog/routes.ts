import type { FastifyInstance, FastifyRequest } from 'fastify';
import multipart from '@fastify/multipart';
import { Status } from '@cfx/contract/envelope.ts';
import { AdminPaths } from '@cfx/contract/admin-rules.ts';
import * as C from '@cfx/contract/admin-catalog.ts';
import type { WhitelistReport } from '@cfx/contract/admin-catalog.ts';
import { formatMessage } from '@cfx/contract/messages.ts';
import type { AppContext } from '../../../context.ts';
import { ApiError, langOf } from '../../../http/envelope.ts';
import { configureBoxRelease } from '../../boxes/index.ts';
import { createRuleFromConsole, updateComposeRule } from '../../compose/index.ts';
import { deleteBanner, deleteRecommendList, saveBanner, saveRecommendList } from '../../content/index.ts';
import { deleteNews, saveNews, setNewsPublished } from '../../content/index.ts';
import { sanitizeRichText } from '../../../util/rich-text.ts';
import { createRelease, releaseChanged, releaseState, updateRelease, windowHoldsPhases } from '../../drops/index.ts';
import { syncReleaseRoyalty } from '../../drops/index.ts';
import { clearDropPhases, setDropPhases } from '../../drops/index.ts';
import { importWhitelist } from '../../drops/index.ts';
import { IMAGE_POLICY } from '../../uploads/index.ts';
import { filePart, saveUpload } from '../../uploads/index.ts';
import { adminRoute } from '../admin-route.ts';
import { composeRulesForStaff } from './compose.ts';
import { listBannersForStaff, listNewsForStaff, listRecommendForStaff, newsForStaff, searchTargets } from './content.ts';
import { checkImage } from './images.ts';
import { boxView, epochInfo, listReleases, releaseDetail, releaseOptions, whitelistEntries } from './releases.ts';
import { formatChinaDateTime } from '@cfx/protocol/china-time.ts';

/** yyyy-MM-dd HH:mm in China time (messages). */
const cnTime = (ms: number) => formatChinaDateTime(ms, { seconds: false });

/**
 * The catalogue and content editors of the console (docs/admin.md "Catalogue and content"),
 * registered from adminRoutes. Releases, phases, whitelist, lottery, boxes and compose recipes need
 * `catalog.edit`; news, banners and recommend lists `content.edit`. Every change goes through the
 * domain module that owns the data (drops, boxes, compose, content) and writes its audit row in the
 * same transaction: `c.tx` where the function runs in the route's transaction, `c.call` where the
 * function opens its own (setDropPhases, importWhitelist, configureBoxRelease, the compose rules,
 * the upload). After a commit the caches of this process are told (releaseChanged); the public
 * content calls read their tables afresh on every request.
 */
export async function catalogRoutes(scope: FastifyInstance, ctx: AppContext) {
  /* ───────────── uploads (one multipart scope; IMAGE_POLICY, the public /media/uploads path) ───────────── */
  await scope.register(async (up) => {
    await up.register(multipart, { throwFileSizeLimit: false });
    for (const [path, access] of [
      [AdminPaths.releaseUpload, 'catalog.edit'],
      [AdminPaths.contentUpload, 'content.edit'],
    ] as const) {
      adminRoute(up, ctx, {
        path, access, audit: true,
        handler: async (c) => {
          try {
            const part = await filePart(ctx, c.req, IMAGE_POLICY);
            const saved = await c.call(
              (cx) => saveUpload(cx, c.staff.userId, part, IMAGE_POLICY, c.req.log),
              (r) => {
                const u = r as { key: string; size: number; type: string };
                return { action: 'upload.image', targetType: 'upload', targetId: u.key, summary: { size: u.size, type: u.type } };
              },
            );
            const { id: _id, ...out } = saved;
            return out satisfies C.ImageUpload;
          } catch (err) {
            if (!c.req.raw.complete) c.reply.header('connection', 'close');
            throw err;
          }
        },
      });
    }
  });

  /* ───────────── releases ───────────── */
  adminRoute(scope, ctx, { path: AdminPaths.releasesList, access: 'catalog.edit', audit: false, body: C.releasesListBody, handler: (c) => listReleases(ctx, c.body) });
  adminRoute(scope, ctx, { path: AdminPaths.releaseDetail, access: 'catalog.edit', audit: false, body: C.releaseIdBody, handler: (c) => releaseDetail(ctx, c.body.id) });
  adminRoute(scope, ctx, { path: AdminPaths.releaseOptions, access: 'catalog.edit', audit: false, handler: () => releaseOptions(ctx) });
  adminRoute(scope, ctx, { path: AdminPaths.releaseEpoch, access: 'catalog.edit', audit: false, handler: () => epochInfo(ctx) });

  adminRoute(scope, ctx, {
    path: AdminPaths.releaseCreate, access: 'catalog.edit', audit: true, body: C.releaseCreateBody, okKey: 'releaseCreated',
    handler: async (c) => {
      const cover = await checkImage(ctx, c.body.cover);
      const r = await c.tx(
        (trx, now) => createRelease(ctx, trx, { ...c.body, cover }, now),
        (x) => ({
          action: 'release.create', targetType: 'project', targetId: x.projectId,
          summary: { after: { name: c.body.name.trim(), supply: c.body.supply, priceFen: c.body.priceFen, saleStartAt: c.body.saleStartAt, saleEndAt: c.body.saleEndAt, royaltyPermille: c.body.royaltyPermille ?? null, range: `${x.tokenStart}-${x.tokenEnd}` } },
        }),
      );
      releaseChanged(ctx, r.projectId, { renamed: true });
      await royaltyToChain(ctx, c.req, r.projectId);
      return releaseDetail(ctx, r.projectId);
    },
  });
  adminRoute(scope, ctx, {
    path: AdminPaths.releaseUpdate, access: 'catalog.edit', audit: true, body: C.releaseUpdateBody, okKey: 'catalogSaved',
    handler: async (c) => {
      const { id, ...patch } = c.body;
      const cur = await ctx.db.kysely.selectFrom('projects').select('cover').where('id', '=', id).executeTakeFirst();
      if (!cur) throw new ApiError(Status.NOT_FOUND_ITEM, 'projectNotFound', {}, 404);
      if (patch.cover !== undefined) patch.cover = await checkImage(ctx, patch.cover, cur.cover);
      const r = await c.tx(
        (trx, now) => updateRelease(ctx, trx, id, patch, now),
        (x) => ({ action: 'release.update', targetType: 'project', targetId: id, summary: { changed: x.changed, before: x.before, after: x.after } }),
      );
      releaseChanged(ctx, id, { renamed: r.changed.includes('name') });
      if (r.changed.some((k) => k === 'royaltyPermille' || k === 'creatorId' || k === 'supply')) await royaltyToChain(ctx, c.req, id);
      return releaseDetail(ctx, id);
    },
  });

  /* ───────────── phases and the lottery (drops/phases.ts setDropPhases) ───────────── */
  adminRoute(scope, ctx, {
    path: AdminPaths.releasePhases, access: 'catalog.edit', audit: true, body: C.phasesBody, okKey: 'phasesSaved',
    handler: async (c) => {
      const { projectId } = c.body;
      const st = await releaseState(ctx, ctx.db.kysely, projectId, ctx.now());
      if (st.locks.phasesLocked) throw new ApiError(Status.STAFF_STATE, 'releaseSaleStarted');
      const phases = c.body.phases.map((p) => ({ kind: p.kind, startAt: p.startAt ?? null, endAt: p.endAt ?? null, priceFen: p.priceFen ?? null }));
      // The phases lie inside the release's sale window (the release form sets it; saving phases then makes it their span).
      const { sale_start_at: start, sale_end_at: end } = st.row;
      if (!windowHoldsPhases(start, end, phases)) {
        throw new ApiError(Status.INVALID, 'phasesOutsideWindow', { start: cnTime(start), end: end === null ? '—' : cnTime(end) });
      }
      const summary = {
        before: { phases: st.phases.map((p) => p.kind) },
        after: { phases: phases.map((p) => p.kind), lottery: c.body.lottery ?? null },
      };
      await c.call(
        (cx) => (phases.length ? setDropPhases(cx, projectId, phases, c.body.lottery ?? null) : clearDropPhases(cx, projectId)),
        () => ({ action: phases.length ? 'release.phases' : 'release.phases_clear', targetType: 'project', targetId: projectId, summary }),
      );
      releaseChanged(ctx, projectId);
      return releaseDetail(ctx, projectId);
    },
  });

  /* ───────────── whitelist (drops/whitelist.ts importWhitelist) ───────────── */
  const report = async (projectId: number, r: Awaited<ReturnType<typeof importWhitelist>>, lang: 'zh' | 'en'): Promise<WhitelistReport> => {
    const n = await ctx.db.kysely.selectFrom('drop_whitelist').select((e) => e.fn.countAll<number>().as('n')).where('project_id', '=', projectId).executeTakeFirstOrThrow();
    return {
      ok: r.ok, entries: r.entries, added: r.added, updated: r.updated, unchanged: r.unchanged, removed: r.removed, total: Number(n.n),
      errors: r.errors.slice(0, 500).map((e) => ({ line: e.line, message: formatMessage(e.key, lang, e.vars) })),
    };
  };
  adminRoute(scope, ctx, {
    path: AdminPaths.whitelistCheck, access: 'catalog.edit', audit: false, body: C.whitelistCheckBody, bodyLimit: C.WHITELIST_CSV_MAX + 64 * 1024,
    handler: async (c) => report(c.body.projectId, await importWhitelist(ctx, c.body.projectId, c.body.csv, { now: ctx.now(), replace: !!c.body.replace, dryRun: true }), langOf(c.req)),
  });
  adminRoute(scope, ctx, {
    path: AdminPaths.whitelistImport, access: 'catalog.edit', audit: true, body: C.whitelistImportBody, bodyLimit: C.WHITELIST_CSV_MAX + 64 * 1024,
    handler: async (c) => {
      const { projectId } = c.body;
      const r = await c.call(
        (cx) => importWhitelist(cx, projectId, c.body.csv, { now: ctx.now(), replace: !!c.body.replace }),
        (inner) => {
          const x = inner as Awaited<ReturnType<typeof importWhitelist>>;
          // Bad lines: nothing was written, and nothing is recorded.
          if (!x.ok) throw new ApiError(Status.INVALID, 'whitelistHasErrors', { n: x.errors.length });
          return { action: 'release.whitelist_import', targetType: 'project', targetId: projectId, summary: { replace: !!c.body.replace, entries: x.entries, added: x.added, updated: x.updated, unchanged: x.unchanged, removed: x.removed } };
        },
      );
      return report(projectId, r, langOf(c.req));
    },
  });
  adminRoute(scope, ctx, {
    path: AdminPaths.whitelistList, access: 'catalog.edit', audit: false, body: C.whitelistListBody,
    handler: (c) => whitelistEntries(ctx, c.body.projectId, c.body),
  });

  /* ───────────── blind boxes (boxes/configure-box.ts) ───────────── */
  adminRoute(scope, ctx, {
    path: AdminPaths.releaseBox, access: 'catalog.edit', audit: true, body: C.boxBody, okKey: 'boxSaved',
    handler: async (c) => {
      const { projectId } = c.body;
      const existing = await boxView(ctx, projectId);
      const kinds: { name: string; rarity: string; count: number; image: string | null }[] = [];
      for (const [i, k] of c.body.kinds.entries()) kinds.push({ ...k, image: k.image ? await checkImage(ctx, k.image, existing?.kinds[i]?.image ?? null) : null });
      await c.call(
        (cx) => configureBoxRelease(cx, projectId, kinds, { revealInEpochs: c.body.revealInEpochs ?? null }),
        (inner) => {
          const r = inner as Awaited<ReturnType<typeof configureBoxRelease>>;
          return {
            action: r.created ? 'release.box_create' : 'release.box_update', targetType: 'project', targetId: projectId,
            summary: { before: r.before, after: r.kinds.map((k) => `${k.name}×${k.count}`), commitment: r.commitment, revealEpoch: r.revealEpoch, itemProjectId: r.itemProjectId },
          };
        },
      );
      return releaseDetail(ctx, projectId);
    },
  });

  /* ───────────── compose recipes (compose/edit-compose-rule.ts) ───────────── */
  adminRoute(scope, ctx, { path: AdminPaths.composeList, access: 'catalog.edit', audit: false, body: C.composeListBody, handler: (c) => composeRulesForStaff(ctx, c.body) });
  adminRoute(scope, ctx, {
    path: AdminPaths.composeSave, access: 'catalog.edit', audit: true, body: C.composeSaveBody, okKey: 'catalogSaved',
    handler: async (c) => {
      const { id, ...s } = c.body;
      let current: string | null = null;
      if (id) current = (await ctx.db.kysely.selectFrom('compose_rules').select('result_image').where('id', '=', id).executeTakeFirst())?.result_image ?? null;
      const setting = { ...s, resultImage: s.resultImage ? await checkImage(ctx, s.resultImage, current) : null };
      const ruleId = id
        ? (
            await c.call(
              (cx) => updateComposeRule(cx, id, setting),
              (inner) => {
                const r = inner as Awaited<ReturnType<typeof updateComposeRule>>;
                return { action: 'compose.update', targetType: 'compose_rule', targetId: id, summary: { before: r.before, after: r.after } };
              },
            )
          ).ruleId
        : (
            await c.call(
              (cx) => createRuleFromConsole(cx, setting),
              (inner) => {
                const r = inner as { ruleId: number; resultProjectId: number };
                return { action: 'compose.create', targetType: 'compose_rule', targetId: r.ruleId, summary: { after: { name: s.name.trim(), ingredients: s.ingredients, maxTimes: s.maxTimes, resultProjectId: r.resultProjectId } } };
              },
            )
          ).ruleId;
      const page = await composeRulesForStaff(ctx, { pageNum: 1, pageSize: 50, id: ruleId });
      return page.list[0] ?? null;
    },
  });

  /* ───────────── content: targets and uploads are shared; news ───────────── */
  adminRoute(scope, ctx, { path: AdminPaths.contentTargets, access: 'content.edit', audit: false, body: C.targetsBody, handler: (c) => searchTargets(ctx, c.body.type, c.body.q) });
  adminRoute(scope, ctx, { path: AdminPaths.newsList, access: 'content.edit', audit: false, body: C.newsListBody, handler: (c) => listNewsForStaff(ctx, c.body) });
  adminRoute(scope, ctx, { path: AdminPaths.newsDetail, access: 'content.edit', audit: false, body: C.idBody, handler: (c) => newsForStaff(ctx, c.body.id) });
  adminRoute(scope, ctx, {
    path: AdminPaths.newsPreview, access: 'content.edit', audit: false, body: C.newsPreviewBody,
    handler: async (c) => ({ contentHtml: sanitizeRichText(c.body.contentHtml) }),
  });
  adminRoute(scope, ctx, {
    path: AdminPaths.newsSave, access: 'content.edit', audit: true, body: C.newsSaveBody, okKey: 'catalogSaved',
    handler: async (c) => {
      const { id, ...input } = c.body;
      const cur = id ? await ctx.db.kysely.selectFrom('news').select('cover').where('id', '=', id).executeTakeFirst() : undefined;
      if (id && !cur) throw new ApiError(Status.NOT_FOUND_ITEM, 'newsNotFound', {}, 404);
      const cover = await checkImage(ctx, input.cover, cur?.cover ?? null);
      const r = await c.tx(
        (trx, now) => saveNews(trx, id ?? null, { ...input, cover }, now),
        (x) => ({ action: id ? 'news.update' : 'news.create', targetType: 'news', targetId: x.id, summary: { before: x.before, after: x.after } }),
      );
      return newsForStaff(ctx, r.id);
    },
  });
  adminRoute(scope, ctx, {
    path: AdminPaths.newsPublish, access: 'content.edit', audit: true, body: C.newsPublishBody, okKey: 'catalogSaved',
    handler: async (c) => {
      const r = await c.tx(
        (trx, now) => setNewsPublished(trx, c.body.id, c.body.publish, now),
        (x) => ({ action: c.body.publish ? 'news.publish' : 'news.unpublish', targetType: 'news', targetId: x.id, summary: { title: x.title, before: { state: x.before }, after: { state: x.after } } }),
      );
      return newsForStaff(ctx, r.id);
    },
  });
  adminRoute(scope, ctx, {
    path: AdminPaths.newsDelete, access: 'content.edit', audit: true, body: C.idBody, okKey: 'newsDeleted',
    handler: async (c) => {
      await c.tx(
        (trx, now) => deleteNews(trx, c.body.id, now),
        (x) => ({ action: 'news.delete', targetType: 'news', targetId: x.id, summary: { before: { title: x.title, state: x.state }, recommendItemsRemoved: x.recommendItemsRemoved, bannersSwitchedOff: x.bannersSwitchedOff } }),
      );
      return null;
    },
  });

  /* ───────────── banners and recommend lists ───────────── */
  adminRoute(scope, ctx, { path: AdminPaths.bannersList, access: 'content.edit', audit: false, body: C.bannersListBody, handler: (c) => listBannersForStaff(ctx, c.body.position) });
  adminRoute(scope, ctx, {
    path: AdminPaths.bannerSave, access: 'content.edit', audit: true, body: C.bannerSaveBody, okKey: 'catalogSaved',
    handler: async (c) => {
      const { id, ...input } = c.body;
      const cur = id ? await ctx.db.kysely.selectFrom('banners').select('image').where('id', '=', id).executeTakeFirst() : undefined;
      if (id && !cur) throw new ApiError(Status.NOT_FOUND_ITEM, 'bannerNotFound', {}, 404);
      const image = await checkImage(ctx, input.image, cur?.image ?? null);
      const r = await c.tx(
        (trx, now) => saveBanner(trx, id ?? null, { ...input, image }, now),
        (x) => ({ action: id ? 'banner.update' : 'banner.create', targetType: 'banner', targetId: x.id, summary: { before: x.before, after: x.after } }),
      );
      return (await listBannersForStaff(ctx)).find((b) => b.id === r.id) ?? null;
    },
  });
  adminRoute(scope, ctx, {
    path: AdminPaths.bannerDelete, access: 'content.edit', audit: true, body: C.idBody, okKey: 'bannerDeleted',
    handler: async (c) => {
      await c.tx((trx) => deleteBanner(trx, c.body.id), (x) => ({ action: 'banner.delete', targetType: 'banner', targetId: x.id, summary: { before: { position: x.position, title: x.title } } }));
      return null;
    },
  });
  adminRoute(scope, ctx, { path: AdminPaths.recommendList, access: 'content.edit', audit: false, handler: () => listRecommendForStaff(ctx) });
  adminRoute(scope, ctx, {
    path: AdminPaths.recommendSave, access: 'content.edit', audit: true, body: C.recommendSaveBody, okKey: 'catalogSaved',
    handler: async (c) => {
      const { id, ...input } = c.body;
      const r = await c.tx(
        (trx) => saveRecommendList(trx, id ?? null, input),
        (x) => ({ action: id ? 'recommend.update' : 'recommend.create', targetType: 'recommend_list', targetId: x.id, summary: { before: x.before, after: x.after } }),
      );
      return (await listRecommendForStaff(ctx)).find((l) => l.id === r.id) ?? null;
    },
  });
  adminRoute(scope, ctx, {
    path: AdminPaths.recommendDelete, access: 'content.edit', audit: true, body: C.idBody, okKey: 'recommendDeleted',
    handler: async (c) => {
      await c.tx((trx) => deleteRecommendList(trx, c.body.id), (x) => ({ action: 'recommend.delete', targetType: 'recommend_list', targetId: x.id, summary: { before: { code: x.code, title: x.title, items: x.items } } }));
      return null;
    },
  });
}

/** The release's royalty to the Collectible (EIP-2981) after the edit committed; a failure to enqueue is logged, not the editor's error. */
async function royaltyToChain(ctx: AppContext, req: FastifyRequest, projectId: number) {
  try {
    await syncReleaseRoyalty(ctx, projectId);
  } catch (err) {
    req.log.warn({ err, projectId }, 'release royalty not sent to the chain');
  }
}
