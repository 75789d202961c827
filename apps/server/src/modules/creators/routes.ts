import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import multipart from '@fastify/multipart';
import { z } from 'zod';
import * as C from '@cfx/contract/creators.ts';
import { CreatorPaths, DevPaths } from '@cfx/contract/routes.ts';
import type { AppContext } from '../../context.ts';
import { requireUserId } from '../accounts/index.ts';
import { ok } from '../../http/envelope.ts';
import { imageOrMediaPolicy } from '../uploads/index.ts';
import { filePart, saveUpload } from '../uploads/index.ts';
import { addMoment } from './add-moment.ts';
import { deleteMoment } from './delete-moment.ts';
import { setFollow } from './follow-creator.ts';
import { storedImageSize } from './image-size.ts';
import { listFollowedCreators, listFollowFeed } from './list-follows.ts';
import { listMoments } from './list-moments.ts';
import { makeCreator } from './make-creator.ts';
import { mediaInfo } from './media-info.ts';
import { requireOwnCreator } from './own-creator.ts';
import { updateCreator } from './update-creator.ts';
import { optionalUserId } from '../accounts/index.ts';

/**
 * Follow and creators (docs/api.md "Follow and creators"): follow / unfollow,
 * my follow list and feed, the creator's profile edit and image uploads, media info, moments.
 * /api/creator/v1/query (with followers and the caller's `following`) stays in the catalog routes.
 */
export async function creatorRoutes(api: FastifyInstance, ctx: AppContext) {
  const r = api.withTypeProvider<ZodTypeProvider>();
  const tags = ['creators'];

  r.post(CreatorPaths.follow, { schema: { tags, body: C.followBody, response: { 200: C.followResponse } } }, async (req) => {
    const userId = await requireUserId(ctx, req);
    const state = await setFollow(ctx, userId, req.body.creatorId, req.body.follow);
    return ok(req, state, req.body.follow ? 'followed' : 'unfollowed');
  });
  r.post(CreatorPaths.followList, { schema: { tags, body: C.pageBody, response: { 200: C.followedPageResponse } } }, async (req) => {
    return ok(req, await listFollowedCreators(ctx, await requireUserId(ctx, req), req.body.pageNum, req.body.pageSize));
  });
  r.post(CreatorPaths.followMoments, { schema: { tags, body: C.pageBody, response: { 200: C.feedPageResponse } } }, async (req) => {
    return ok(req, await listFollowFeed(ctx, await requireUserId(ctx, req), req.body.pageNum, req.body.pageSize));
  });

  r.post(CreatorPaths.update, { schema: { tags, body: C.updateCreatorBody, response: { 200: C.updateCreatorResponse } } }, async (req) => {
    return ok(req, await updateCreator(ctx, await requireUserId(ctx, req), req.body), 'creatorUpdated');
  });
  r.post(CreatorPaths.mediaInfo, { schema: { tags, body: C.mediaInfoBody, response: { 200: C.mediaInfoResponse } } }, async (req) => {
    const { creatorId, accountId } = req.body;
    if (creatorId !== undefined || accountId?.trim()) return ok(req, await mediaInfo(ctx, { id: creatorId, accountId }));
    const own = await requireOwnCreator(ctx, await requireUserId(ctx, req));
    return ok(req, await mediaInfo(ctx, { id: own.id }));
  });

  r.post(CreatorPaths.listMoments, { schema: { tags, body: C.listMomentsBody, response: { 200: C.momentPageResponse } } }, async (req) => {
    const { pageNum, pageSize, creatorId, accountId } = req.body;
    return ok(req, await listMoments(ctx, { creatorId, accountId }, pageNum, pageSize, await optionalUserId(ctx, req)));
  });
  r.post(CreatorPaths.addMoment, { schema: { tags, body: C.addMomentBody, response: { 200: C.momentResponse } } }, async (req) => {
    return ok(req, await addMoment(ctx, await requireUserId(ctx, req), req.body), 'momentPosted');
  });
  r.post(CreatorPaths.deleteMoment, { schema: { tags, body: C.deleteMomentBody, response: { 200: C.deleteMomentResponse } } }, async (req) => {
    return ok(req, await deleteMoment(ctx, await requireUserId(ctx, req), req.body.id), 'momentDeleted');
  });

  // The creator's image upload (avatar, banner, moment images): saveUpload's image policy (or the
  // media policy with ?kind=media), in its
  // own scope so that only this route parses multipart/form-data.
  await api.register(async (scope) => {
    await scope.register(multipart, { throwFileSizeLimit: false });
    scope.withTypeProvider<ZodTypeProvider>().post(
      CreatorPaths.upload,
      { schema: { tags, consumes: ['multipart/form-data'], response: { 200: C.creatorUploadResponse } } },
      async (req, reply) => {
        try {
          const userId = await requireUserId(ctx, req);
          await requireOwnCreator(ctx, userId);
          // `?kind=media`: the artwork video or 3D model of a release (MP4, WebM, GLB; width and height 0).
          const policy = imageOrMediaPolicy(req.query);
          const part = await filePart(ctx, req, policy);
          const { id: _id, ...saved } = await saveUpload(ctx, userId, part, policy, req.log);
          const size = (policy.kind === 'image' ? await storedImageSize(ctx, saved.key) : undefined) ?? { width: 0, height: 0 };
          return ok(req, { ...saved, ...size });
        } catch (err) {
          // Refused before the body was read (no login, not a creator, too large): close rather than read the rest.
          if (!req.raw.complete) reply.header('connection', 'close');
          throw err;
        }
      },
    );
  });

  // DEV_MODE only, hidden from the API docs: make the caller a creator (browser tests).
  if (ctx.config.devMode) {
    r.post(
      DevPaths.makeCreator,
      { schema: { hide: true, tags: ['dev'], body: z.object({ name: z.string().max(40).nullish() }), response: { 200: C.makeCreatorResponse } } },
      async (req) => ok(req, await makeCreator(ctx, await requireUserId(ctx, req), req.body.name ?? undefined)),
    );
  }
}
