import type { ApiResult } from '../api.ts';
import { uploadMultipart } from '../upload.ts';
import { CREATOR_PATHS } from './paths.ts';
import type { CreatorUpload } from '@cfx/contract/creators.ts';

/** One image to the creators' upload call, with progress (lib/upload.ts); the caller shows the reason next to the picture. */
export function uploadCreatorImage(file: File, onProgress: (fraction: number) => void, signal?: AbortSignal): Promise<ApiResult<CreatorUpload>> {
  return uploadMultipart<CreatorUpload>(CREATOR_PATHS.upload, file, onProgress, signal);
}
