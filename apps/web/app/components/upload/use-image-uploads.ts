import { useEffect, useRef, useState } from 'react';
import { IMAGE_TYPES, UPLOAD_DEFAULTS } from '@cfx/contract/settled-rules.ts';
import { useTranslation } from '../../i18n/index.ts';
import { uploadCreatorImage } from '../../lib/creator-api/upload-image.ts';

export interface UploadItem {
  id: number;
  name: string;
  /** An object URL of the chosen file (shown while and after it uploads). */
  preview?: string;
  status: 'uploading' | 'done' | 'error';
  progress: number;
  key?: string;
  /** The stored file's URL once uploaded. */
  url?: string;
  error?: string;
  abort?: AbortController;
}

let seq = 0;
const EXT = /\.(jpe?g|png|webp|gif)$/i;

/**
 * Pictures a creator uploads (avatar, banner, a moment's pictures): each chosen file is checked
 * first (an image type, at most the server's default image size), previewed at once, and sent to
 * the creators' upload call with its progress; a refused file shows the server's reason. `max`
 * pictures at most; with max 1 a new choice replaces the old one.
 */
export function useImageUploads(max: number) {
  const { t } = useTranslation();
  const [items, setItems] = useState<UploadItem[]>([]);
  const latest = useRef(items);
  latest.current = items;

  useEffect(
    () => () => {
      for (const i of latest.current) {
        i.abort?.abort();
        if (i.preview) URL.revokeObjectURL(i.preview);
      }
    },
    [],
  );

  const update = (id: number, patch: Partial<UploadItem>) => setItems((xs) => xs.map((x) => (x.id === id ? { ...x, ...patch } : x)));

  const remove = (id: number) => {
    const item = latest.current.find((x) => x.id === id);
    item?.abort?.abort();
    if (item?.preview) URL.revokeObjectURL(item.preview);
    setItems((xs) => xs.filter((x) => x.id !== id));
  };

  const add = (files: FileList | File[] | null) => {
    if (!files) return;
    let list = [...files];
    if (max === 1) {
      for (const i of latest.current) remove(i.id);
      list = list.slice(0, 1);
    } else list = list.slice(0, Math.max(0, max - latest.current.length));
    const fresh = list.map((f): UploadItem => {
      const isImage = (IMAGE_TYPES as readonly string[]).includes(f.type) || EXT.test(f.name);
      const problem = !isImage
        ? t('creators.editor.fileNotImage')
        : f.size > UPLOAD_DEFAULTS.imageMaxBytes
          ? t('creators.editor.fileTooLarge', { mb: Math.round(UPLOAD_DEFAULTS.imageMaxBytes / 1048576) })
          : undefined;
      const item: UploadItem = { id: ++seq, name: f.name, preview: problem ? undefined : URL.createObjectURL(f), status: problem ? 'error' : 'uploading', progress: 0, error: problem };
      if (!problem) {
        item.abort = new AbortController();
        void uploadCreatorImage(f, (p) => update(item.id, { progress: p }), item.abort.signal).then((r) => {
          if (item.abort?.signal.aborted) return;
          if (r.ok) update(item.id, { status: 'done', progress: 1, key: r.data.key, url: r.data.url, abort: undefined });
          else update(item.id, { status: 'error', error: r.networkError ? t('creators.editor.networkError') : r.message || t('creators.editor.uploadFailed'), abort: undefined });
        });
      }
      return item;
    });
    setItems((xs) => [...xs, ...fresh]);
  };

  return {
    items,
    add,
    remove,
    uploading: items.some((i) => i.status === 'uploading'),
    keys: items.filter((i) => i.status === 'done').map((i) => i.key!),
    full: items.length >= max,
  };
}
