import { thumbSrcSet, thumbUrl } from './thumb-url.ts';

/**
 * An image with intrinsic width/height (no layout shift) and, for generated artwork and our own
 * uploads, WebP renditions in `srcset` (widths up to twice the displayed width; `sizes` says how
 * wide it shows: by default the full viewport below `width`, else `width`), the plain thumbnail as
 * `src`. Everything loads lazily except `eager` images: those are above the fold and the page's
 * largest paint, so they load at once with `fetchpriority="high"` — and React, server-rendering an
 * eager image in the shell, puts `<link rel="preload" as="image" imagesrcset imagesizes
 * fetchpriority="high">` for it in the `<head>`. Mark only the LCP image (at most one or two) eager.
 */
export function Thumb({
  src,
  alt,
  width,
  height,
  eager = false,
  sizes,
  className = '',
}: {
  src: string;
  alt: string;
  width: number;
  height: number;
  eager?: boolean;
  sizes?: string;
  className?: string;
}) {
  const set = thumbSrcSet(src, width, sizes);
  return (
    <img
      src={thumbUrl(src, width * 2)}
      srcSet={set.srcSet}
      sizes={set.sizes}
      alt={alt}
      width={width}
      height={height}
      loading={eager ? 'eager' : 'lazy'}
      decoding={eager ? undefined : 'async'}
      fetchPriority={eager ? 'high' : undefined}
      className={className}
    />
  );
}
