import type { Envelope } from '@cfx/contract/envelope.ts';
import { TicketPaths } from '@cfx/contract/routes.ts';
import { API_BASE, handleSessionLost, isSuccess, STATUS_SESSION_LOST, type ApiResult } from '../../../lib/api.ts';
import { langFromDocument } from '../../../i18n/index.ts';
import { useUserStore } from '../../../stores/user.ts';

export interface UploadedImage {
  key: string;
  url: string;
  name: string;
  size: number;
  type: string;
}

/**
 * POSTs one screenshot as multipart/form-data (field `file`) to the ticket upload call with its
 * progress (XMLHttpRequest: fetch has no upload progress). Same headers and envelope handling as
 * lib/api.ts; never shows a toast — the form shows the server's reason next to the image.
 */
export function uploadTicketImage(file: File, onProgress: (fraction: number) => void, signal?: AbortSignal): Promise<ApiResult<UploadedImage>> {
  const path = TicketPaths.upload;
  return new Promise((resolve) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', API_BASE + path);
    xhr.setRequestHeader('channel', 'pc');
    xhr.setRequestHeader('lang', langFromDocument());
    xhr.setRequestHeader('accept', 'application/json');
    const token = useUserStore.getState().token;
    if (token) xhr.setRequestHeader('token', token);
    const failed = (): ApiResult<UploadedImage> => ({ ok: false, data: null, status: '', code: '', message: '', networkError: true });
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable && e.total > 0) onProgress(Math.min(1, e.loaded / e.total));
    };
    xhr.onerror = () => resolve(failed());
    xhr.onabort = () => resolve(failed());
    xhr.onload = () => {
      let body: Partial<Envelope<UploadedImage>>;
      try {
        body = JSON.parse(xhr.responseText) as Partial<Envelope<UploadedImage>>;
      } catch {
        return resolve(failed());
      }
      const status = String(body.status ?? '');
      const code = body.code ?? '';
      const message = body.message || body.msg || '';
      if (isSuccess(path, { status, code })) return resolve({ ok: true, data: body.data as UploadedImage, status, code, message });
      if (status === STATUS_SESSION_LOST || String(code) === STATUS_SESSION_LOST) handleSessionLost();
      resolve({ ok: false, data: null, status, code, message });
    };
    signal?.addEventListener('abort', () => xhr.abort(), { once: true });
    const form = new FormData();
    form.append('file', file, file.name);
    xhr.send(form);
  });
}
