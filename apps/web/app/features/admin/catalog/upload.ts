import { ADMIN_BASE, STAFF_TOKEN_HEADER } from '@cfx/contract/admin-rules.ts';
import type { ImageUpload } from '@cfx/contract/admin-catalog.ts';
import { langFromDocument } from '../../../i18n/index.ts';
import { STAFF_SESSION_LOST, STATUS_OK, toLogin, type AdminResult } from '../api.ts';
import { staffToken } from '../session.ts';

/**
 * Uploads one image through the console's upload route (multipart, the staff token in its
 * header): the server judges the bytes with the site's image policy and answers its public URL
 * under /media/uploads. XHR rather than fetch for the progress.
 */
export function uploadImage(path: string, file: File, onProgress?: (fraction: number) => void): Promise<AdminResult<ImageUpload>> {
  return new Promise((resolve) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', ADMIN_BASE + path);
    xhr.setRequestHeader(STAFF_TOKEN_HEADER, staffToken.get());
    xhr.setRequestHeader('lang', langFromDocument());
    xhr.responseType = 'json';
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable) onProgress?.(e.loaded / e.total);
    };
    xhr.onerror = () => resolve({ ok: false, data: null, message: '', status: 'network' });
    xhr.onload = () => {
      const env = (xhr.response ?? {}) as { status?: string; data?: ImageUpload; message?: string };
      const status = String(env.status ?? xhr.status);
      if (status === STATUS_OK && env.data) resolve({ ok: true, data: env.data, message: env.message ?? '', status });
      else {
        if (status === STAFF_SESSION_LOST) toLogin();
        resolve({ ok: false, data: null, message: env.message ?? '', status });
      }
    };
    const form = new FormData();
    form.append('file', file, file.name);
    xhr.send(form);
  });
}
