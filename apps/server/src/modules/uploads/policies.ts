import { DOCUMENT_TYPES, IMAGE_TYPES, MEDIA_TYPES, UPLOAD_DEFAULTS } from '@cfx/contract/settled-rules.ts';
import { Status } from '@cfx/contract/envelope.ts';
import type { MessageKey } from '@cfx/contract/messages.ts';
import type { UploadKind } from '../../db/schema.ts';
import { ApiError } from '../../http/envelope.ts';
import type { UploadsConfig } from '../../config/uploads.ts';

/**
 * What one kind of upload accepts. A feature that takes files defines (or reuses) a policy and calls
 * saveUpload with it: the type is judged by the bytes (sniff.ts), the size by `maxBytes`, images by
 * their pixel size. `public` files are served to anyone at /media/uploads/<key> (unguessable keys);
 * `private` ones only to their owner (GET /official/settled/oss/file) and to staff code.
 */
export interface UploadPolicy {
  kind: UploadKind;
  visibility: 'public' | 'private';
  /** Key prefix below public/ or private/ (lower-case letters). */
  folder: string;
  accept: readonly string[];
  maxBytes(config: UploadsConfig): number;
  /** The message when the bytes are not an accepted type. */
  badType: MessageKey;
}

/** Artwork images of a project application (also fit for news images and moments). */
export const IMAGE_POLICY: UploadPolicy = {
  kind: 'image',
  visibility: 'public',
  folder: 'img',
  accept: IMAGE_TYPES,
  maxBytes: (c) => c.imageMaxBytes,
  badType: 'uploadBadImageType',
};

/**
 * Artwork media of video and 3D collectibles (POST /official/settled/oss/upload?kind=media): MP4,
 * WebM and binary glTF 2.0, judged by their bytes, up to UPLOAD_MEDIA_MAX_MB; public like images
 * (served with HTTP Range at /media/uploads/public/media/…). The poster frame is a separate image.
 */
export const MEDIA_POLICY: UploadPolicy = {
  kind: 'media',
  visibility: 'public',
  folder: 'media',
  accept: MEDIA_TYPES,
  maxBytes: (c) => c.mediaMaxBytes,
  badType: 'uploadBadMediaType',
};

/** Qualification documents (licences, copyright certificates, ID scans): private. */
export const DOCUMENT_POLICY: UploadPolicy = {
  kind: 'document',
  visibility: 'private',
  folder: 'doc',
  accept: DOCUMENT_TYPES,
  maxBytes: (c) => c.fileMaxBytes,
  badType: 'uploadBadFileType',
};

/** Every image, whatever the policy, must have a readable size within these bounds. */
export const IMAGE_BOUNDS = {
  minSide: UPLOAD_DEFAULTS.imageMinSide,
  maxSide: UPLOAD_DEFAULTS.imageMaxSide,
  maxPixels: UPLOAD_DEFAULTS.imageMaxPixels,
};

/**
 * The policy of an image upload call by its `?kind=` query: absent or `image` → IMAGE_POLICY,
 * `media` → MEDIA_POLICY (video and 3D artwork); anything else is 400 1001.
 */
export function imageOrMediaPolicy(query: unknown): UploadPolicy {
  const kind = (query as Record<string, unknown> | undefined)?.kind;
  if (kind === undefined || kind === 'image') return IMAGE_POLICY;
  if (kind === 'media') return MEDIA_POLICY;
  throw new ApiError(Status.INVALID, 'badParams', {}, 400);
}
