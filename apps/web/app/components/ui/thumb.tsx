import { thumbUrl } from './thumb-url.ts';

/**
 * An image with intrinsic width/height (no layout shift) and, for generated artwork, a thumbnail
 * of twice the displayed width (sharp on high-DPI screens). `eager` for above-the-fold images;
 * everything else loads lazily.
 */
export function Thumb({
  src,
  alt,
  width,
  height,
  eager = false,
  className = '',
}: {
  src: string;
  alt: string;
  width: number;
  height: number;
  eager?: boolean;
  className?: string;
}) {
  return (
    <img
      src={thumbUrl(src, width * 2)}
      alt={alt}
      width={width}
      height={height}
      loading={eager ? 'eager' : 'lazy'}
      decoding="async"
      fetchPriority={eager ? 'high' : undefined}
      className={className}
    />
  );
}
