import { useEffect, useRef, useState } from 'react';
import { IMAGE_ACCEPT } from '@cfx/contract/settled-rules.ts';
import { TICKET_LIMITS } from '@cfx/contract/ticket-rules.ts';
import { useTranslation } from '../../../i18n/index.ts';
import { uploadTicketImage } from '../api/upload-image.ts';

interface Item {
  id: number;
  name: string;
  preview: string;
  status: 'uploading' | 'done' | 'error';
  progress: number;
  key?: string;
  error?: string;
  abort: AbortController;
}
let seq = 0;

/**
 * Up to three screenshots, each sent as soon as it is chosen (progress, preview, the server's reason
 * when refused, remove). Reports the stored keys in order and whether an upload still runs.
 */
export function ImagePicker({ onChange, testId }: { onChange: (state: { keys: string[]; uploading: boolean }) => void; testId: string }) {
  const { t } = useTranslation();
  const [items, setItems] = useState<Item[]>([]);
  const input = useRef<HTMLInputElement>(null);
  const all = useRef(items);
  all.current = items;

  useEffect(() => {
    onChange({ keys: items.filter((i) => i.status === 'done').map((i) => i.key!), uploading: items.some((i) => i.status === 'uploading') });
  }, [items, onChange]);
  // Unmounting drops previews and running uploads.
  useEffect(
    () => () => {
      for (const i of all.current) {
        i.abort.abort();
        URL.revokeObjectURL(i.preview);
      }
    },
    [],
  );

  const update = (id: number, patch: Partial<Item>) => setItems((list) => list.map((i) => (i.id === id ? { ...i, ...patch } : i)));
  const add = (files: FileList | null) => {
    const room = TICKET_LIMITS.attachmentsMax - all.current.length;
    for (const file of Array.from(files ?? []).slice(0, Math.max(0, room))) {
      const item: Item = { id: ++seq, name: file.name, preview: URL.createObjectURL(file), status: 'uploading', progress: 0, abort: new AbortController() };
      setItems((list) => [...list, item]);
      void uploadTicketImage(file, (p) => update(item.id, { progress: p }), item.abort.signal).then((r) => {
        if (item.abort.signal.aborted) return;
        if (r.ok) update(item.id, { status: 'done', key: r.data.key, progress: 1 });
        else update(item.id, { status: 'error', error: r.message || t('tickets.imageFailed') });
      });
    }
    if (input.current) input.current.value = '';
  };
  const remove = (item: Item) => {
    item.abort.abort();
    URL.revokeObjectURL(item.preview);
    setItems((list) => list.filter((i) => i.id !== item.id));
  };

  return (
    <div data-testid={testId}>
      <ul className="flex flex-wrap gap-3">
        {items.map((i) => (
          <li key={i.id} className="relative w-24" data-testid={`${testId}-item`} data-status={i.status}>
            <img src={i.preview} alt={i.name} className={`size-24 rounded-control border border-line object-cover ${i.status === 'error' ? 'opacity-40' : ''}`} />
            {i.status === 'uploading' && (
              <span className="absolute inset-x-0 bottom-6 bg-black/55 py-0.5 text-center text-[11px] text-white">{t('tickets.uploading', { percent: Math.round(i.progress * 100) })}</span>
            )}
            {i.status === 'error' && (
              <p className="mt-1 text-[11px] leading-tight text-danger" role="alert">
                {i.error}
              </p>
            )}
            <button type="button" className="mt-1 text-xs text-ink-faint hover:text-danger" onClick={() => remove(i)}>
              {t('tickets.removeImage')}
            </button>
          </li>
        ))}
        {items.length < TICKET_LIMITS.attachmentsMax && (
          <li>
            <label className="flex size-24 cursor-pointer flex-col items-center justify-center gap-1 rounded-control border border-dashed border-line text-xs text-ink-faint hover:border-brand hover:text-brand">
              <span className="text-2xl leading-none">+</span>
              {t('tickets.addImage')}
              <input ref={input} type="file" accept={IMAGE_ACCEPT} multiple className="sr-only" onChange={(e) => add(e.target.files)} data-testid={`${testId}-input`} />
            </label>
          </li>
        )}
      </ul>
    </div>
  );
}
