import type { ReleaseMedia } from '@cfx/contract/catalog.ts';
import type { AppContext } from '../../context.ts';
import { isPublicKey } from '../../providers/storage/types.ts';

const KINDS = new Set(['image', 'video', 'model']);

/**
 * A release's artwork media for the pages (projects.media_kind / media_key, migration 0029): the
 * kind and the public URL of the key (ours or the bucket's public base). Null when either is unset,
 * the kind is unknown, or the key is not a public storage key — the cover image is shown then.
 */
export function releaseMediaOf(ctx: Pick<AppContext, 'storage'>, kind: string | null | undefined, key: string | null | undefined): ReleaseMedia | null {
  if (!kind || !key || !KINDS.has(kind) || !isPublicKey(key)) return null;
  return { kind: kind as ReleaseMedia['kind'], url: ctx.storage.url(key) };
}
