import type { ApiResult } from '../../../lib/api.ts';
import { uploadMultipart } from '../../../lib/upload.ts';
import { useUserStore } from '../../../stores/user.ts';
import { PAYOUT } from './paths.ts';
import type { IdentityPhoto } from './types.ts';

/** uploadIdentity?side=: one ID-card photo as multipart/form-data with upload progress (lib/upload.ts). */
export function uploadIdentity(side: 'front' | 'back', file: File, onProgress: (fraction: number) => void): Promise<ApiResult<IdentityPhoto>> {
  return uploadMultipart<IdentityPhoto>(`${PAYOUT.uploadIdentity}?side=${side}`, file, onProgress);
}

/** An owner-only private photo as an object URL (the download needs the token header, so no plain <img src>). */
export async function fetchPrivateImage(url: string): Promise<string | null> {
  const token = useUserStore.getState().token;
  try {
    const res = await fetch(url, { headers: token ? { token, channel: 'pc' } : { channel: 'pc' } });
    if (!res.ok) return null;
    return URL.createObjectURL(await res.blob());
  } catch {
    return null;
  }
}
