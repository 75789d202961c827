import type { Envelope } from '@cfx/contract/envelope.ts';
import { API_BASE, handleSessionLost, isSuccess, STATUS_SESSION_LOST, type ApiResult } from './api.ts';
import { langFromDocument } from '../i18n/index.ts';
import { useUserStore } from '../stores/user.ts';

/**
 * POSTs one file as multipart/form-data (field `file`) to a user call under API_BASE with upload
 * progress (XMLHttpRequest: fetch has no upload progress). Same headers and envelope handling as
 * lib/api.ts: success by the path's rule (code 200 on `official` paths), 1100 loses the session, a
 * network failure or an abort resolves with `networkError`. Never shows a toast: the caller shows
 * the server's reason next to the file. Used by every user-side upload (settled files, ticket
 * screenshots, creator images, ID-card photos); the console has its own (staff token).
 */
export function uploadMultipart<T>(path: string, file: File, onProgress: (fraction: number) => void, signal?: AbortSignal): Promise<ApiResult<T>> {
  return new Promise((resolve) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', API_BASE + path);
    xhr.setRequestHeader('channel', 'pc');
    xhr.setRequestHeader('lang', langFromDocument());
    xhr.setRequestHeader('accept', 'application/json');
    const token = useUserStore.getState().token;
    if (token) xhr.setRequestHeader('token', token);
    const failed = (): ApiResult<T> => ({ ok: false, data: null, status: '', code: '', message: '', networkError: true });
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable && e.total > 0) onProgress(Math.min(1, e.loaded / e.total));
    };
    xhr.onerror = () => resolve(failed());
    xhr.onabort = () => resolve(failed());
    xhr.onload = () => {
      let body: Partial<Envelope<T>>;
      try {
        body = JSON.parse(xhr.responseText) as Partial<Envelope<T>>;
      } catch {
        return resolve(failed());
      }
      const status = String(body.status ?? '');
      const code = body.code ?? '';
      const message = body.message || body.msg || '';
      if (isSuccess(path, { status, code })) return resolve({ ok: true, data: body.data as T, status, code, message });
      if (status === STATUS_SESSION_LOST || String(code) === STATUS_SESSION_LOST) handleSessionLost();
      resolve({ ok: false, data: null, status, code, message });
    };
    signal?.addEventListener('abort', () => xhr.abort(), { once: true });
    const form = new FormData();
    form.append('file', file, file.name);
    xhr.send(form);
  });
}
