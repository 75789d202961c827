import { DOCUMENT_TYPES, IMAGE_TYPES, UPLOAD_DEFAULTS } from '@cfx/contract/settled-rules.ts';
import type { MessageKey } from '@cfx/contract/messages.ts';
import type { UploadKind } from '../../db/schema.ts';
import type { UploadsConfig } from './uploads-config.ts';

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
