import type sharpFn from 'sharp';
import { Status } from '@cfx/contract/envelope.ts';
import { ApiError } from '../../http/envelope.ts';

/**
 * Raster renditions of images (generated artwork, uploaded pictures) in WebP or AVIF at a few fixed
 * widths, for `srcset`: rendered once, kept in a byte-bounded LRU in memory and served as immutable.
 *
 * Only the widths in RENDITION_WIDTHS exist: a fixed set keeps the number of renditions per image
 * small (a cache can hold them, a client cannot ask for thousands of sizes); any other width or
 * format is refused with 400 1001. Encoding is done by sharp (libvips, prebuilt for the platform
 * from npm), loaded on first use; where it is missing, callers answer the original image.
 */
export const RENDITION_WIDTHS = [120, 240, 480, 720, 960, 1200] as const;
export const RENDITION_FORMATS = ['webp', 'avif'] as const;
export type RenditionFormat = (typeof RENDITION_FORMATS)[number];
export const RENDITION_TYPES: Record<RenditionFormat, string> = { webp: 'image/webp', avif: 'image/avif' };

/** Bytes of renditions kept in memory (across artwork and uploads). */
export const RENDITION_CACHE_BYTES = 48 * 1024 * 1024;

/** The width and format of a rendition request, or a 400 1001 for anything outside the fixed set. */
export function parseRendition(q: { w?: string | null; fmt?: string | null }): { width: number; format: RenditionFormat } {
  const format = RENDITION_FORMATS.find((f) => f === q.fmt);
  const width = q.w && /^\d{1,4}$/.test(q.w) ? Number(q.w) : NaN;
  if (!format || !(RENDITION_WIDTHS as readonly number[]).includes(width)) throw new ApiError(Status.INVALID, 'badParams', {}, 400);
  return { width, format };
}

/** A least-recently-used map of buffers bounded by their total size (an entry larger than the bound is not kept). */
export class ByteLru {
  private readonly map = new Map<string, Buffer>();
  private total = 0;
  constructor(readonly maxBytes: number) {}
  get bytes() {
    return this.total;
  }
  get size() {
    return this.map.size;
  }
  get(key: string): Buffer | undefined {
    const v = this.map.get(key);
    if (v) {
      this.map.delete(key);
      this.map.set(key, v);
    }
    return v;
  }
  set(key: string, value: Buffer) {
    const old = this.map.get(key);
    if (old) {
      this.map.delete(key);
      this.total -= old.length;
    }
    if (value.length > this.maxBytes) return;
    this.map.set(key, value);
    this.total += value.length;
    for (const [k, v] of this.map) {
      if (this.total <= this.maxBytes) break;
      this.map.delete(k);
      this.total -= v.length;
    }
  }
}

export const renditionCache = new ByteLru(RENDITION_CACHE_BYTES);

export type Sharp = typeof sharpFn;
let sharpLib: Promise<Sharp | null> | undefined;
/** sharp is a native module: loaded on the first rendition; null where its prebuilt binary is missing. */
export function loadSharp(): Promise<Sharp | null> {
  sharpLib ??= import('sharp').then((m) => m.default).catch(() => null);
  return sharpLib;
}

/**
 * At most RENDER_CONCURRENCY renders at a time (resvg and libvips both use the thread pool); up to
 * `maxWaiting` wait their turn, more are refused with 503 9999 instead of queuing without bound.
 * Renditions for srcset may wait in a longer line (RENDITION_MAX_WAITING: a page of 30 new pictures
 * must not get broken images), the one-off PNGs of link previews in a short one.
 */
const RENDER_CONCURRENCY = 2;
export const RENDITION_MAX_WAITING = 256;
let rendering = 0;
const waiting: (() => void)[] = [];
export async function withRenderSlot<T>(work: () => Promise<T>, maxWaiting = 32): Promise<T> {
  if (waiting.length >= maxWaiting) throw new ApiError(Status.SERVER_ERROR, 'serverError', {}, 503);
  if (rendering >= RENDER_CONCURRENCY) await new Promise<void>((resolve) => waiting.push(resolve));
  rendering++;
  try {
    return await work();
  } finally {
    rendering--;
    waiting.shift()?.();
  }
}

const encodeOptions = { webp: { quality: 82, effort: 4 }, avif: { quality: 55, effort: 2 } } as const;

/** Encodes raw RGBA pixels (already at the wanted width) as the format. Call inside a render slot. */
export async function encodePixels(lib: Sharp, pixels: Buffer, width: number, height: number, format: RenditionFormat): Promise<Buffer> {
  const img = lib(pixels, { raw: { width, height, channels: 4 } });
  return format === 'webp' ? img.webp(encodeOptions.webp).toBuffer() : img.avif(encodeOptions.avif).toBuffer();
}

/**
 * Resizes an encoded picture (JPEG, PNG, WebP; the first frame of anything animated) to `width`
 * (never enlarged), honouring its EXIF orientation, and encodes it. Call inside a render slot.
 * Undecodable bytes are a 400 1001.
 */
export async function encodePicture(lib: Sharp, input: Buffer, width: number, format: RenditionFormat): Promise<Buffer> {
  try {
    const img = lib(input, { animated: false, limitInputPixels: 64_000_000 }).rotate().resize({ width, withoutEnlargement: true });
    return await (format === 'webp' ? img.webp(encodeOptions.webp).toBuffer() : img.avif(encodeOptions.avif).toBuffer());
  } catch {
    throw new ApiError(Status.INVALID, 'badParams', {}, 400);
  }
}
