import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import multipart from '@fastify/multipart';
import { MEDIA_UPLOADS_PREFIX, SettledPaths } from '@cfx/contract/routes.ts';
import * as S from '@cfx/contract/settled.ts';
import type { AppContext } from '../../context.ts';
import { okOfficial } from '../../http/envelope.ts';
import { requireUserId } from '../accounts/index.ts';
import { DOCUMENT_POLICY, imageOrMediaPolicy, type UploadPolicy } from './policies.ts';
import { filePart, saveUpload } from './save-upload.ts';
import { servePrivateUpload, servePublicUpload } from './serve-upload.ts';

/** GET /media/uploads/<key>[?w=&fmt=webp|avif] (outside the gateway, like /media/avatars); originals answer HTTP Range. */
export function mediaUploadRoutes(app: FastifyInstance, ctx: AppContext) {
  app.get<{ Params: { '*': string }; Querystring: { w?: string; fmt?: string } }>(`${MEDIA_UPLOADS_PREFIX}*`, { schema: { hide: true } }, async (req, reply) => {
    const q = req.query;
    const hd = req.headers;
    return servePublicUpload(ctx, req.params['*'], reply, { w: typeof q.w === 'string' ? q.w : undefined, fmt: typeof q.fmt === 'string' ? q.fmt : undefined }, {
      range: typeof hd.range === 'string' ? hd.range : undefined,
      ifRange: typeof hd['if-range'] === 'string' ? hd['if-range'] : undefined,
      ifNoneMatch: typeof hd['if-none-match'] === 'string' ? hd['if-none-match'] : undefined,
    });
  });
}

/**
 * The multipart upload calls of the project application: /official/settled/oss/upload
 * (images) and /official/settled/oss/uploadfile (documents), for logged-in users, and the owner's
 * download of a private upload. `?kind=media` on the image call takes the artwork media of video and 3D
 * collectibles instead (MEDIA_POLICY: MP4, WebM, GLB); no kind or `kind=image` is the image policy;
 * any other kind is 400 1001. Registered in their own scope: only these routes parse
 * multipart/form-data (elsewhere it stays an unsupported media type).
 */
export async function uploadRoutes(api: FastifyInstance, ctx: AppContext) {
  await api.register(async (scope) => {
    await scope.register(multipart, { throwFileSizeLimit: false });
    const r = scope.withTypeProvider<ZodTypeProvider>();
    const tags = ['settled'];
    const handle = (choose: (req: FastifyRequest) => UploadPolicy) => async (req: FastifyRequest, reply: FastifyReply) => {
      try {
        const userId = await requireUserId(ctx, req);
        const policy = choose(req);
        const part = await filePart(ctx, req, policy);
        const { id: _id, ...saved } = await saveUpload(ctx, userId, part, policy, req.log);
        return okOfficial(req, saved);
      } catch (err) {
        // Refused before the body was read (no login, declared too large, quota): answer and close
        // the connection rather than keep it open while the client sends the rest.
        if (!req.raw.complete) reply.header('connection', 'close');
        throw err;
      }
    };
    r.post(SettledPaths.upload, { schema: { tags, consumes: ['multipart/form-data'], response: { 200: S.uploadResponse } } }, handle((req) => imageOrMediaPolicy(req.query)));
    r.post(SettledPaths.uploadFile, { schema: { tags, consumes: ['multipart/form-data'], response: { 200: S.uploadResponse } } }, handle(() => DOCUMENT_POLICY));
  });
  const r = api.withTypeProvider<ZodTypeProvider>();
  r.get(SettledPaths.file, { schema: { tags: ['settled'], querystring: S.uploadFileQuery } }, async (req, reply) => {
    const userId = await requireUserId(ctx, req);
    return servePrivateUpload(ctx, userId, req.query.key, reply);
  });
}
