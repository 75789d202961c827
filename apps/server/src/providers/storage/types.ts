import type { Readable } from 'node:stream';

/** A stored object as read back: a stream of its bytes, its length and its content type. */
export interface StoredObject {
  body: Readable;
  size: number;
  contentType: string;
}

/** A single byte range as a Range header asks it: `bytes=a-b`, `bytes=a-` (no end) or `bytes=-n` (the last n bytes). */
export type ByteRange = { start: number; end?: number } | { suffix: number };

/**
 * A ranged read: the object's whole size and content type, its last modification when known, and
 * either the range served (inclusive offsets) with a stream of just those bytes, or no body when
 * the range cannot be satisfied (starts at or past the end, or an empty suffix). `range` is absent
 * when the whole object is in `body` (a store that ignored the range).
 */
export interface RangedObject {
  totalSize: number;
  contentType: string;
  lastModified?: number;
  range?: { start: number; end: number };
  body?: Readable;
}

/** The inclusive offsets of `r` in an object of `size` bytes, or undefined when unsatisfiable. */
export function resolveRange(r: ByteRange, size: number): { start: number; end: number } | undefined {
  if (size <= 0) return undefined;
  if ('suffix' in r) return r.suffix > 0 ? { start: Math.max(0, size - r.suffix), end: size - 1 } : undefined;
  if (r.start >= size) return undefined;
  return { start: r.start, end: Math.min(r.end ?? size - 1, size - 1) };
}

/**
 * Where uploaded files live (STORAGE_PROVIDER): `local` files under DATA_DIR/uploads (default) or an
 * S3-compatible bucket (`s3`). Keys are made by the uploads module and checked here again with
 * isStorageKey: `public/…` keys may be served to anyone (`url`), `private/…` keys only through an
 * authorising route that reads them with `get`.
 */
export interface StorageProvider {
  readonly name: 'local' | 's3';
  /** Stores `bytes` under `key` (replacing nothing: keys are random and new). */
  put(key: string, bytes: Buffer, contentType: string): Promise<void>;
  /** The object, or undefined when there is none under `key`. */
  get(key: string): Promise<StoredObject | undefined>;
  /** One byte range of the object (video seeking), streamed, never the whole object read; undefined when there is none. */
  getRange(key: string, range: ByteRange): Promise<RangedObject | undefined>;
  /** Removes the object; a missing one is not an error. */
  delete(key: string): Promise<void>;
  /** Where a browser reads a public key: `/media/uploads/<key>` (served by us) or the bucket's public base URL. */
  url(key: string): string;
}

/**
 * A storage key: `public/` or `private/`, then lower-case path segments of [a-z0-9_-] and a file
 * name with one extension. No `..`, no empty segment, no leading slash, no other character: a key
 * can never leave the storage root, whatever a request puts in a URL.
 */
const KEY = /^(public|private)(\/[a-z0-9][a-z0-9_-]{0,63}){1,6}\.[a-z0-9]{2,5}$/;
export const isStorageKey = (key: string) => key.length <= 200 && KEY.test(key);
export const isPublicKey = (key: string) => isStorageKey(key) && key.startsWith('public/');

const TYPES: Record<string, string> = {
  jpg: 'image/jpeg',
  png: 'image/png',
  webp: 'image/webp',
  gif: 'image/gif',
  pdf: 'application/pdf',
  zip: 'application/zip',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  mp4: 'video/mp4',
  webm: 'video/webm',
  glb: 'model/gltf-binary',
};
/** The content type of a key by its extension (the uploads module chose the extension from the sniffed bytes). */
export function contentTypeOfKey(key: string): string {
  return TYPES[key.slice(key.lastIndexOf('.') + 1)] ?? 'application/octet-stream';
}
/** The extension the uploads module gives a sniffed content type. */
export function extensionOf(contentType: string): string | undefined {
  return Object.entries(TYPES).find(([, t]) => t === contentType)?.[0];
}

export class StorageKeyError extends Error {
  constructor() {
    super('invalid storage key');
  }
}
