import type { ApiResult } from '../../../lib/api.ts';
import { uploadMultipart } from '../../../lib/upload.ts';
import type { UploadResult } from './types.ts';

/** One file to /official/settled/oss/upload or …/uploadfile, with progress (lib/upload.ts). */
export function uploadFile(path: string, file: File, onProgress: (fraction: number) => void, signal?: AbortSignal): Promise<ApiResult<UploadResult>> {
  return uploadMultipart<UploadResult>(path, file, onProgress, signal);
}
