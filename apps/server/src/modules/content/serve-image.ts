import fs from 'node:fs';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { hashString } from '../../util/prng.ts';
import { notFound } from '../catalog/index.ts';
import { renderArtwork } from './artwork.ts';
import { encodePixels, loadSharp, parseRendition, renditionCache, RENDITION_MAX_WAITING, RENDITION_TYPES, withRenderSlot, type RenditionFormat, type Sharp } from '../media/index.ts';

/** Bump when the drawing code changes: it is part of the ETag (the URL stays the same). */
const ART_VERSION = '1';
const CACHE_MAX = 2000;
const cache = new Map<string, { svg: string; etag: string }>();

/**
 * PNG renditions (`fmt=png`) for the places that do not take SVG: Open Graph / Twitter cards (WeChat,
 * Weibo and most link previews only show raster images). Rasterised by resvg in the libuv thread
 * pool, at most two at a time (up to 32 wait their turn, more are refused with 503: the render slots
 * of `media/renditions.ts`), kept in memory up to PNG_CACHE_BYTES and, like the SVG, immutable for a
 * year. Widths 16–1200 (default 1200).
 *
 * WebP / AVIF renditions (`fmt=webp|avif`, for `srcset`): the same rasterisation encoded by sharp,
 * only at the widths of RENDITION_WIDTHS (others are 400 1001), cached in the renditions' LRU.
 */
const PNG_MAX_W = 1200;
const PNG_CACHE_BYTES = 32 * 1024 * 1024;
const pngCache = new Map<string, { png: Buffer; etag: string }>();
let pngBytes = 0;
/** The serial number on a collectible is the only text: a monospace font from the system if there is one. */
const MONO_FONTS = ['/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf', '/usr/share/fonts/truetype/liberation/LiberationMono-Regular.ttf'].filter((f) => fs.existsSync(f));

/**
 * resvg is a native module: loaded on the first PNG, so a platform without its prebuilt binary still
 * runs the marketplace (PNG requests then get the SVG, which browsers show and most previewers skip).
 */
type Resvg = typeof import('@resvg/resvg-js');
let resvg: Promise<Resvg | null> | undefined;
function loadResvg() {
  resvg ??= import('@resvg/resvg-js').catch(() => null);
  return resvg;
}

/** Fonts for a rasterisation (resvg's font options); the default is MONO_FONTS for the artwork's serial. */
export interface RasterFonts {
  fontFiles: string[];
  defaultFontFamily: string;
  monospaceFamily?: string;
}

/**
 * Rasterises any SVG (share posters too) through the same queue, concurrency limit and refusal as
 * the artwork PNGs: null when resvg is not available on this platform (callers answer the SVG).
 */
export async function renderPng(svg: string, width: number, fonts?: RasterFonts): Promise<Buffer | null> {
  const lib = await loadResvg();
  return lib ? rasterise(lib, svg, width, fonts) : null;
}

function draw(lib: Resvg, svg: string, width: number, fonts?: RasterFonts) {
  return lib.renderAsync(svg, {
    fitTo: { mode: 'width', value: width },
    font: { loadSystemFonts: false, ...(fonts ?? { fontFiles: MONO_FONTS, monospaceFamily: 'DejaVu Sans Mono', defaultFontFamily: 'DejaVu Sans Mono' }) },
    logLevel: 'off',
  });
}

// A flood of distinct uncached renders is refused instead of queued without bound (503, 9999 服务繁忙).
function rasterise(lib: Resvg, svg: string, width: number, fonts?: RasterFonts): Promise<Buffer> {
  return withRenderSlot(async () => (await draw(lib, svg, width, fonts)).asPng());
}

/** The artwork as WebP/AVIF at one of the rendition widths: resvg draws the pixels, sharp encodes them. */
function rasteriseAs(lib: Resvg, sharp: Sharp, svg: string, width: number, format: RenditionFormat): Promise<Buffer> {
  return withRenderSlot(async () => {
    const img = await draw(lib, svg, width);
    return encodePixels(sharp, img.pixels, img.width, img.height, format);
  }, RENDITION_MAX_WAITING);
}

function immutable(reply: FastifyReply, etag: string) {
  reply
    .header('cache-control', 'public, max-age=31536000, immutable')
    .header('etag', etag)
    .header('x-content-type-options', 'nosniff')
    .header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'");
}

/**
 * GET /official/image/?id=…&w=…[&fmt=png] — generated artwork as SVG (or PNG). Immutable for a year
 * (the picture is a pure function of the id); an ETag answers revalidations with 304. Malformed or
 * unknown ids are 1404.
 */
export async function serveImage(req: FastifyRequest, reply: FastifyReply, q: { id: string; w?: string | null; fmt?: 'svg' | 'png' | 'webp' | 'avif' | null }) {
  if (q.fmt === 'webp' || q.fmt === 'avif') return serveRendition(req, reply, q.id, parseRendition(q));
  const png = q.fmt === 'png';
  const max = png ? PNG_MAX_W : 2048;
  const w = q.w && /^\d{1,4}$/.test(q.w) ? Math.max(16, Math.min(max, Number(q.w))) : png ? PNG_MAX_W : undefined;
  const key = `${q.id}|${w ?? ''}`;
  let hit = cache.get(key);
  if (!hit) {
    const svg = renderArtwork(q.id, w);
    if (!svg) throw notFound('imageNotFound');
    hit = { svg, etag: `"a${ART_VERSION}-${hashString(key).toString(36)}"` };
    if (cache.size >= CACHE_MAX) cache.delete(cache.keys().next().value!);
    cache.set(key, hit);
  }
  const lib = png ? await loadResvg() : null;
  if (!lib) {
    immutable(reply, hit.etag);
    // A PNG URL answered with the SVG (no resvg here) must not be pinned in caches for a year.
    if (png) reply.header('cache-control', 'public, max-age=3600');
    if (req.headers['if-none-match'] === hit.etag) return reply.code(304).send();
    return reply.type('image/svg+xml; charset=utf-8').send(hit.svg);
  }
  const etag = `"p${ART_VERSION}-${hashString(key).toString(36)}"`;
  immutable(reply, etag);
  if (req.headers['if-none-match'] === etag) return reply.code(304).send();
  let p = pngCache.get(key);
  if (!p) {
    p = { png: await rasterise(lib, hit.svg, w!), etag };
    if (!pngCache.has(key)) {
      pngCache.set(key, p);
      pngBytes += p.png.length;
      for (const [k, v] of pngCache) {
        if (pngBytes <= PNG_CACHE_BYTES) break;
        pngCache.delete(k);
        pngBytes -= v.png.length;
      }
    }
  }
  return reply.type('image/png').send(p.png);
}

/**
 * `fmt=webp|avif&w=<one of RENDITION_WIDTHS>`: the artwork rasterised and encoded once, then served
 * from the renditions' LRU, immutable for a year. Without resvg or sharp on this platform the SVG is
 * answered (with a short cache, as for PNG).
 */
async function serveRendition(req: FastifyRequest, reply: FastifyReply, id: string, r: { width: number; format: RenditionFormat }) {
  const key = `art|${id}|${r.width}|${r.format}`;
  const svg = renderArtwork(id, r.width);
  if (!svg) throw notFound('imageNotFound');
  const [lib, sharp] = await Promise.all([loadResvg(), loadSharp()]);
  if (!lib || !sharp) {
    immutable(reply, `"a${ART_VERSION}-${hashString(`${id}|${r.width}`).toString(36)}"`);
    reply.header('cache-control', 'public, max-age=3600');
    return reply.type('image/svg+xml; charset=utf-8').send(svg);
  }
  const etag = `"${r.format[0]}${ART_VERSION}-${hashString(key).toString(36)}"`;
  immutable(reply, etag);
  if (req.headers['if-none-match'] === etag) return reply.code(304).send();
  let body = renditionCache.get(key);
  if (!body) {
    body = await rasteriseAs(lib, sharp, svg, r.width, r.format);
    renditionCache.set(key, body);
  }
  return reply.type(RENDITION_TYPES[r.format]).send(body);
}
