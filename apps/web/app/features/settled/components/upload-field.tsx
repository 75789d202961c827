import { useEffect, useRef, useState } from 'react';
import { DOCUMENT_ACCEPT, IMAGE_ACCEPT } from '@cfx/contract/settled-rules.ts';
import { SettledPaths } from '@cfx/contract/routes.ts';
import { useTranslation } from '../../../i18n/index.ts';
import { uploadFile } from '../api/upload-file.ts';
import { checkFile, megabytes } from '../validate.ts';

interface Item {
  id: number;
  name: string;
  size: number;
  /** An object URL of the chosen image (shown before and after the upload). */
  preview?: string;
  status: 'uploading' | 'done' | 'error';
  progress: number;
  key?: string;
  error?: string;
  abort?: AbortController;
}

export interface UploadState {
  keys: string[];
  uploading: boolean;
}

let seq = 0;

/**
 * A list of uploads for one field of the application: images (artworks, with previews) or documents
 * (qualifications). Each chosen file is checked first (size, extension — the same limits as the
 * server), then sent at once with its progress shown; a refused file shows the server's reason and
 * can be removed. Reports the stored keys, in order, and whether an upload is still running.
 */
export function UploadField({
  kind,
  id,
  maxBytes,
  maxFiles,
  invalid,
  describedBy,
  onChange,
}: {
  kind: 'image' | 'document';
  id: string;
  maxBytes: number;
  maxFiles: number;
  invalid: boolean;
  describedBy?: string;
  onChange(state: UploadState): void;
}) {
  const { t } = useTranslation();
  const [items, setItems] = useState<Item[]>([]);
  const input = useRef<HTMLInputElement>(null);
  const latest = useRef(items);
  latest.current = items;

  useEffect(() => {
    onChange({ keys: items.filter((i) => i.status === 'done').map((i) => i.key!), uploading: items.some((i) => i.status === 'uploading') });
  }, [items]); // eslint-disable-line react-hooks/exhaustive-deps

  // Leaving the page: stop running uploads and free the previews.
  useEffect(
    () => () => {
      for (const i of latest.current) {
        i.abort?.abort();
        if (i.preview) URL.revokeObjectURL(i.preview);
      }
    },
    [],
  );

  const update = (itemId: number, patch: Partial<Item>) => setItems((xs) => xs.map((x) => (x.id === itemId ? { ...x, ...patch } : x)));

  const add = (files: FileList | null) => {
    if (!files) return;
    const room = Math.max(0, maxFiles - latest.current.length);
    const chosen = [...files].slice(0, room);
    const fresh: Item[] = chosen.map((f) => {
      const problem = checkFile(f, kind, maxBytes);
      const item: Item = {
        id: ++seq,
        name: f.name,
        size: f.size,
        preview: kind === 'image' && !problem ? URL.createObjectURL(f) : undefined,
        status: problem ? 'error' : 'uploading',
        progress: 0,
        error: problem ? t(`settled.errors.${problem}`, { mb: megabytes(maxBytes) }) : undefined,
      };
      if (!problem) {
        item.abort = new AbortController();
        void uploadFile(kind === 'image' ? SettledPaths.upload : SettledPaths.uploadFile, f, (p) => update(item.id, { progress: p }), item.abort.signal).then((r) => {
          if (item.abort?.signal.aborted) return;
          if (r.ok) update(item.id, { status: 'done', progress: 1, key: r.data.key, abort: undefined });
          else {
            // A refused file may not be an image at all: show its name instead of a broken preview.
            if (item.preview) URL.revokeObjectURL(item.preview);
            update(item.id, { status: 'error', preview: undefined, error: r.networkError ? t('settled.networkError') : r.message || t('common.requestFailed'), abort: undefined });
          }
        });
      }
      return item;
    });
    setItems((xs) => [...xs, ...fresh]);
    if (input.current) input.current.value = '';
  };

  const remove = (item: Item) => {
    item.abort?.abort();
    if (item.preview) URL.revokeObjectURL(item.preview);
    setItems((xs) => xs.filter((x) => x.id !== item.id));
  };

  const full = items.length >= maxFiles;
  return (
    <div>
      <ul className={kind === 'image' ? 'grid grid-cols-3 gap-3 sm:grid-cols-5' : 'space-y-2'} data-testid={`${id}-list`}>
        {items.map((item) => (
          <li
            key={item.id}
            className={
              kind === 'image'
                ? `relative overflow-hidden rounded-control border ${item.status === 'error' ? 'border-danger' : 'border-line'} bg-canvas`
                : `flex items-center gap-3 rounded-control border px-3 py-2 text-sm ${item.status === 'error' ? 'border-danger' : 'border-line'}`
            }
            data-testid="settled-upload-item"
            data-status={item.status}
            data-key={item.key ?? ''}
          >
            {kind === 'image' ? (
              <div className="aspect-square w-full">
                {item.preview ? (
                  <img src={item.preview} alt={item.name} className="size-full object-cover" />
                ) : (
                  <div className="flex size-full items-center justify-center p-2 text-center text-xs text-ink-faint break-all">{item.name}</div>
                )}
              </div>
            ) : (
              <span aria-hidden className="shrink-0 rounded bg-brand/10 px-1.5 py-0.5 text-[11px] font-semibold uppercase text-brand">
                {item.name.split('.').pop()?.slice(0, 4) || 'file'}
              </span>
            )}
            <div className={kind === 'image' ? 'absolute inset-x-0 bottom-0 bg-black/55 px-2 py-1 text-[11px] text-white' : 'min-w-0 flex-1'}>
              {kind === 'document' && <p className="truncate text-ink">{item.name}</p>}
              {item.status === 'uploading' && (
                <div role="progressbar" aria-valuemin={0} aria-valuemax={100} aria-valuenow={Math.round(item.progress * 100)} aria-label={item.name}>
                  <span className="tabular">{t('settled.uploading', { percent: Math.round(item.progress * 100) })}</span>
                  <span className="mt-0.5 block h-1 overflow-hidden rounded bg-white/30">
                    <span className="block h-full bg-brand transition-[width]" style={{ width: `${Math.round(item.progress * 100)}%` }} />
                  </span>
                </div>
              )}
              {item.status === 'done' && <span className={kind === 'image' ? '' : 'text-xs text-success'}>{t('settled.uploaded')}</span>}
              {item.status === 'error' && (
                <span className={kind === 'image' ? 'text-red-200' : 'text-xs text-danger'} role="alert" data-testid="settled-upload-error">
                  {item.error}
                </span>
              )}
            </div>
            <button
              type="button"
              onClick={() => remove(item)}
              className={kind === 'image' ? 'absolute right-1 top-1 rounded bg-black/55 px-1.5 text-xs text-white hover:bg-black/75' : 'shrink-0 text-xs text-ink-faint hover:text-danger'}
              aria-label={`${t('settled.remove')} ${item.name}`}
              data-testid="settled-upload-remove"
            >
              {kind === 'image' ? '×' : t('settled.remove')}
            </button>
          </li>
        ))}
      </ul>
      <label className={`btn-ghost mt-3 cursor-pointer ${full ? 'pointer-events-none opacity-50' : ''} ${invalid ? 'border-danger' : ''}`}>
        <span aria-hidden>＋</span> {kind === 'image' ? t('settled.addImage') : t('settled.addFile')}
        <input
          ref={input}
          id={id}
          type="file"
          multiple
          className="sr-only"
          accept={kind === 'image' ? IMAGE_ACCEPT : DOCUMENT_ACCEPT}
          disabled={full}
          aria-invalid={invalid || undefined}
          aria-describedby={describedBy}
          onChange={(e) => add(e.target.files)}
          data-testid={`${id}-input`}
        />
      </label>
    </div>
  );
}
