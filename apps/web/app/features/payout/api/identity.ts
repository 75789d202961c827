import type { Envelope } from '@cfx/contract/envelope.ts';
import { API_BASE, handleSessionLost, isSuccess, STATUS_SESSION_LOST, type ApiResult } from '../../../lib/api.ts';
import { langFromDocument } from '../../../i18n/index.ts';
import { useUserStore } from '../../../stores/user.ts';
import { PAYOUT } from './paths.ts';
import type { IdentityPhoto } from './types.ts';

/** uploadIdentity?side=: one ID-card photo as multipart/form-data with upload progress (XMLHttpRequest). */
export function uploadIdentity(side: 'front' | 'back', file: File, onProgress: (fraction: number) => void): Promise<ApiResult<IdentityPhoto>> {
  return new Promise((resolve) => {
    const path = `${PAYOUT.uploadIdentity}?side=${side}`;
    const xhr = new XMLHttpRequest();
    xhr.open('POST', API_BASE + path);
    xhr.setRequestHeader('channel', 'pc');
    xhr.setRequestHeader('lang', langFromDocument());
    xhr.setRequestHeader('accept', 'application/json');
    const token = useUserStore.getState().token;
    if (token) xhr.setRequestHeader('token', token);
    const failed = (): ApiResult<IdentityPhoto> => ({ ok: false, data: null, status: '', code: '', message: '', networkError: true });
    xhr.upload.onprogress = (e) => e.lengthComputable && e.total > 0 && onProgress(Math.min(1, e.loaded / e.total));
    xhr.onerror = () => resolve(failed());
    xhr.onload = () => {
      let body: Partial<Envelope<IdentityPhoto>>;
      try {
        body = JSON.parse(xhr.responseText) as Partial<Envelope<IdentityPhoto>>;
      } catch {
        return resolve(failed());
      }
      const status = String(body.status ?? '');
      const code = body.code ?? '';
      const message = body.message || body.msg || '';
      if (isSuccess(path, { status, code })) return resolve({ ok: true, data: body.data as IdentityPhoto, status, code, message });
      if (status === STATUS_SESSION_LOST) handleSessionLost();
      resolve({ ok: false, data: null, status, code, message });
    };
    const form = new FormData();
    form.append('file', file, file.name);
    xhr.send(form);
  });
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
