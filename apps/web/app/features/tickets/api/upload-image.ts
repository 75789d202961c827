import { TicketPaths } from '@cfx/contract/routes.ts';
import type { ApiResult } from '../../../lib/api.ts';
import { uploadMultipart } from '../../../lib/upload.ts';

export interface UploadedImage {
  key: string;
  url: string;
  name: string;
  size: number;
  type: string;
}

/** One screenshot to the ticket upload call, with progress (lib/upload.ts); the form shows the reason next to the image. */
export function uploadTicketImage(file: File, onProgress: (fraction: number) => void, signal?: AbortSignal): Promise<ApiResult<UploadedImage>> {
  return uploadMultipart<UploadedImage>(TicketPaths.upload, file, onProgress, signal);
}
