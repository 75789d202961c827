import type { FastifyReply, FastifyRequest } from 'fastify';
import { hashString } from '../../util/prng.ts';
import { notFound } from '../catalog/repo.ts';
import { renderArtwork } from './artwork.ts';

/** Bump when the drawing code changes: it is part of the ETag (the URL stays the same). */
const ART_VERSION = '1';
const CACHE_MAX = 2000;
const cache = new Map<string, { svg: string; etag: string }>();

/**
 * GET /official/image/?id=…&w=… — generated artwork as SVG. Immutable for a year (the picture is a
 * pure function of the id); an ETag answers revalidations with 304. Malformed or unknown ids are 1404.
 */
export function serveImage(req: FastifyRequest, reply: FastifyReply, q: { id: string; w?: string | null }) {
  const w = q.w && /^\d{1,4}$/.test(q.w) ? Math.max(16, Math.min(2048, Number(q.w))) : undefined;
  const key = `${q.id}|${w ?? ''}`;
  let hit = cache.get(key);
  if (!hit) {
    const svg = renderArtwork(q.id, w);
    if (!svg) throw notFound('imageNotFound');
    hit = { svg, etag: `"a${ART_VERSION}-${hashString(key).toString(36)}"` };
    if (cache.size >= CACHE_MAX) cache.delete(cache.keys().next().value!);
    cache.set(key, hit);
  }
  reply
    .header('cache-control', 'public, max-age=31536000, immutable')
    .header('etag', hit.etag)
    .header('x-content-type-options', 'nosniff')
    .header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'");
  if (req.headers['if-none-match'] === hit.etag) return reply.code(304).send();
  return reply.type('image/svg+xml; charset=utf-8').send(hit.svg);
}
