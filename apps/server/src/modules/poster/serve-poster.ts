import type { FastifyReply, FastifyRequest } from 'fastify';
import { API_BASE, Status } from '@cfx/contract/envelope.ts';
import { ContentPaths, MEDIA_UPLOADS_PREFIX } from '@cfx/contract/routes.ts';
import { formatMessage, type Lang } from '@cfx/contract/messages.ts';
import { POSTER_SIZE, type PosterType } from '@cfx/contract/poster.ts';
import { formatFen } from '@cfx/protocol/money.ts';
import type { AppContext } from '../../context.ts';
import { ApiError, langOf } from '../../http/envelope.ts';
import { hashString } from '../../util/prng.ts';
import { isPublicKey } from '../../providers/storage/types.ts';
import { readGoods } from '../catalog/index.ts';
import { getProject } from '../catalog/index.ts';
import { renderArtwork } from '../content/index.ts';
import { renderPng } from '../content/index.ts';
import { composePoster, type PosterInput } from './compose-poster.ts';
import { posterFonts } from './fonts.ts';

/** Bump when the poster's layout changes: it is part of the ETag. */
const POSTER_VERSION = '1';
const CACHE_BYTES = 16 * 1024 * 1024;
const cache = new Map<string, Buffer>();
let cacheBytes = 0;
let warnedNoCjk = false;
/** Raster artwork larger than this is not embedded (the plain tile is drawn instead). */
const ART_MAX_BYTES = 6 * 1024 * 1024;
const RASTER_TYPES = ['image/png', 'image/jpeg', 'image/gif'];

/**
 * The artwork of an image URL as the poster embeds it, never fetched from the network: generated
 * art (/official/image/?id=) is drawn inline, a public upload (/media/uploads/…) is read from the
 * storage provider (PNG, JPEG, GIF — what resvg draws), anything else is the plain tile.
 */
async function artOf(ctx: AppContext, url: string): Promise<PosterInput['art']> {
  try {
    const u = new URL(url, 'http://x');
    if (u.pathname === API_BASE + ContentPaths.image) {
      const svg = renderArtwork(u.searchParams.get('id') ?? '', 610);
      return svg ? { svg } : null;
    }
    // A public upload: its key is the URL's tail, and the storage provider names exactly this URL for it.
    const key = /(public\/[a-z0-9/_-]+\.[a-z0-9]{2,5})$/.exec(u.pathname)?.[1];
    if (key && isPublicKey(key) && (ctx.storage.url(key) === url || url === MEDIA_UPLOADS_PREFIX + key)) {
      const obj = await ctx.storage.get(key);
      if (!obj) return null;
      if (obj.size > ART_MAX_BYTES || !RASTER_TYPES.includes(obj.contentType)) {
        obj.body.destroy();
        return null;
      }
      const chunks: Buffer[] = [];
      for await (const c of obj.body as AsyncIterable<Buffer>) chunks.push(Buffer.from(c));
      return { dataUri: `data:${obj.contentType};base64,${Buffer.concat(chunks).toString('base64')}` };
    }
  } catch {
    /* a malformed URL or an unreadable file: the plain tile */
  }
  return null;
}

/** The site's origin as the request names it (the QR code's link); a malformed Host is refused. */
function originOf(req: FastifyRequest): string {
  const host = req.host;
  if (!/^(?:[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$/.test(host)) throw new ApiError(Status.INVALID, 'badParams');
  return `${req.protocol}://${host}`;
}

/** The invite code of a live account, upper-cased; 1001 for a code no account has. */
async function checkInviteCode(ctx: AppContext, raw: string | null | undefined): Promise<string | undefined> {
  const code = raw?.trim().toUpperCase();
  if (!code) return undefined;
  const user = /^[A-Z0-9]{4,8}$/.test(code)
    ? await ctx.db.kysely.selectFrom('users').select('id').where('invite_code', '=', code).where('cancelled_at', 'is', null).executeTakeFirst()
    : undefined;
  if (!user) throw new ApiError(Status.INVALID, 'badInviteCode');
  return code;
}

async function posterInput(ctx: AppContext, type: PosterType, id: number, lang: Lang, url: string, inviteCode: string | undefined): Promise<PosterInput> {
  const m = (key: Parameters<typeof formatMessage>[0], vars?: Record<string, string | number>) => formatMessage(key, lang, vars);
  const common = {
    creatorLabel: m('posterCreator'),
    site: m('posterSite'),
    inviteLine: inviteCode ? m('posterInvite', { code: inviteCode }) : '',
    url,
    fontFamily: posterFonts().family,
  };
  if (type === 'goods') {
    const { detail: g } = await readGoods(ctx, id);
    const onSale = g.status === 'on_sale' && g.salePriceFen !== null;
    const [label, fen] = onSale ? [m('posterPrice'), g.salePriceFen] : g.lastPriceFen !== null ? [m('posterLastPrice'), g.lastPriceFen] : [m('posterIssuePrice'), g.project.priceFen];
    return {
      ...common,
      art: await artOf(ctx, g.image),
      name: g.name,
      line2: `${g.projectName} · #${String(g.serial).padStart(4, '0')} / ${g.supply}`,
      creator: g.creator.name,
      priceLabel: label,
      price: formatFen(fen),
      scanHint: m('posterScan'),
    };
  }
  const p = await getProject(ctx, id);
  return {
    ...common,
    art: await artOf(ctx, p.cover),
    name: p.name,
    line2: m('posterSupply', { n: p.supply }),
    creator: p.creator.name,
    priceLabel: m('posterIssuePrice'),
    price: formatFen(p.priceFen),
    scanHint: m('posterScanProject'),
  };
}

/**
 * GET /official/poster/?type=goods|project&id=&inviteCode=&lang=[&fmt=svg] — the share poster of a
 * collectible or a release: its artwork, name, price, creator, the site's name and a QR code to its
 * page (with ?inviteCode= of the sharer when given), 750 × 1200 PNG. The SVG is composed here and
 * rasterised by resvg through the artwork PNGs' queue (same concurrency limit, 503 when flooded);
 * PNGs are kept in memory (16 MiB, keyed by the SVG itself, so a changed price or name is a new
 * poster) and cached by clients for 5 minutes with an ETag. Unknown ids are 1404 (HTTP 404), a bad
 * type or id 1001, an invite code no account has 1001 — always the envelope, never a 500.
 */
export async function servePoster(
  ctx: AppContext,
  req: FastifyRequest,
  reply: FastifyReply,
  q: { type: PosterType; id: number; inviteCode?: string | null; lang?: Lang | null; fmt?: 'png' | 'svg' | null },
) {
  const lang = q.lang ?? langOf(req);
  const inviteCode = await checkInviteCode(ctx, q.inviteCode);
  const path = q.type === 'goods' ? `/assets/${q.id}` : `/projects/detail/${q.id}`;
  const url = `${originOf(req)}${path}${inviteCode ? `?inviteCode=${encodeURIComponent(inviteCode)}` : ''}`;
  const svg = composePoster(await posterInput(ctx, q.type, q.id, lang, url, inviteCode));

  const key = `${POSTER_VERSION}:${hashString(svg).toString(36)}:${svg.length}`;
  const fonts = posterFonts();
  if (!fonts.cjk && !warnedNoCjk) {
    warnedNoCjk = true;
    req.log.warn('no CJK font found for share posters: Chinese text is left out (install fonts-noto-cjk)');
  }
  reply
    .header('cache-control', 'public, max-age=300')
    .header('vary', 'lang, cookie')
    .header('x-content-type-options', 'nosniff')
    .header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'; img-src data:");
  const svgOnly = q.fmt === 'svg';
  const etag = `"poster-${svgOnly ? 's' : 'p'}${key}"`;
  reply.header('etag', etag);
  if (req.headers['if-none-match'] === etag) return reply.code(304).send();
  if (svgOnly) return reply.type('image/svg+xml; charset=utf-8').send(svg);

  let png = cache.get(key);
  if (!png) {
    const out = await renderPng(svg, POSTER_SIZE.width, fonts);
    // No resvg on this platform: the SVG (browsers show it; it is not cached for long).
    if (!out) return reply.header('cache-control', 'public, max-age=60').type('image/svg+xml; charset=utf-8').send(svg);
    png = out;
    if (!cache.has(key)) {
      cache.set(key, png);
      cacheBytes += png.length;
      for (const [k, v] of cache) {
        if (cacheBytes <= CACHE_BYTES) break;
        cache.delete(k);
        cacheBytes -= v.length;
      }
    }
  }
  reply.header('content-disposition', `inline; filename="poster-${q.type}-${q.id}.png"`);
  return reply.type('image/png').send(png);
}
