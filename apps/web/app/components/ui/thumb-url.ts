/**
 * A thumbnail URL: generated artwork (`…/official/image/?id=…`) takes `w=` (16–2048 px); other
 * images (avatars, external URLs) are returned unchanged.
 */
export function thumbUrl(src: string, width: number): string {
  if (!src || !src.includes('/official/image/')) return src;
  const w = Math.max(16, Math.min(2048, Math.round(width)));
  const [base, hash = ''] = src.split('#', 2) as [string, string?];
  const cleaned = base.replace(/([?&])w=[^&]*(&|$)/, (_m, lead: string, tail: string) => (tail ? lead : '')).replace(/[?&]$/, '');
  return `${cleaned}${cleaned.includes('?') ? '&' : '?'}w=${w}${hash ? `#${hash}` : ''}`;
}

/**
 * The image for link previews (og:image): generated artwork as a 1200-wide PNG (`fmt=png`), since
 * WeChat, Weibo and most link previews do not show SVG; other images unchanged.
 */
export function previewImageUrl(src: string): string {
  if (!src || !src.includes('/official/image/')) return src;
  const url = thumbUrl(src, 1200);
  const [base, hash] = url.split('#', 2) as [string, string?];
  return `${base.replace(/([?&])fmt=[^&]*(&|$)/, (_m, lead: string, tail: string) => (tail ? lead : '')).replace(/[?&]$/, '')}&fmt=png${hash ? `#${hash}` : ''}`;
}

/** The raster rendition widths the server makes (apps/server `media/renditions.ts`); others are refused. */
export const RENDITION_WIDTHS = [240, 480, 720, 960, 1200] as const;
/** Below this displayed width a picture keeps its single `src` (a small SVG is smaller than any raster). */
const SRCSET_MIN_WIDTH = 100;

/**
 * `srcset`/`sizes` of WebP renditions for an image displayed `width` CSS pixels wide: generated
 * artwork (`…/official/image/?id=…` → `&w=<n>&fmt=webp`) and our own public uploads
 * (`/media/uploads/public/…` → `?w=<n>&fmt=webp`), at the rendition widths up to the first that covers
 * 2× the displayed width. Other images (avatars, external URLs) and small thumbnails get none.
 * `sizes` defaults to what the layouts do on phones: a picture wider than 320 px spans the page
 * (`.page-width`: the viewport less 2 × 1rem of padding) below `width`; a narrower one is a card in
 * a two-column grid (half the viewport) up to 640 px. Elsewhere it is shown `width` wide.
 */
export function thumbSrcSet(src: string, width: number, sizes?: string): { srcSet?: string; sizes?: string } {
  if (!src || width < SRCSET_MIN_WIDTH) return {};
  const [base, hash] = src.split('#', 2) as [string, string?];
  let at: (w: number) => string;
  if (base.includes('/official/image/')) {
    at = (w) => {
      const u = thumbUrl(base, w);
      return `${u.replace(/([?&])fmt=[^&]*(&|$)/, (_m, lead: string, tail: string) => (tail ? lead : '')).replace(/[?&]$/, '')}&fmt=webp`;
    };
  } else if (/^\/media\/uploads\/public\/[^?]+\.(jpg|png|webp)$/.test(base)) {
    at = (w) => `${base}?w=${w}&fmt=webp`;
  } else {
    return {};
  }
  const need = width * 2;
  const cover = RENDITION_WIDTHS.find((w) => w >= need) ?? RENDITION_WIDTHS[RENDITION_WIDTHS.length - 1];
  const widths = RENDITION_WIDTHS.filter((w) => w <= cover);
  return {
    srcSet: widths.map((w) => `${at(w)}${hash ? `#${hash}` : ''} ${w}w`).join(', '),
    sizes: sizes ?? (width > 320 ? `(max-width: ${width + 32}px) calc(100vw - 2rem), ${width}px` : `(max-width: 640px) 50vw, ${width}px`),
  };
}
