import { useState, type ReactNode } from 'react';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { useAdminT } from '../i18n.ts';
import { uploadImage } from './upload.ts';

/** A labelled form row with an optional hint (or the reason it is locked). */
export function Field({ label, hint, children, className = '' }: { label: string; hint?: ReactNode; children: ReactNode; className?: string }) {
  return (
    <label className={`block text-sm ${className}`}>
      <span className="mb-1 block text-ink-soft">{label}</span>
      {children}
      {hint && <span className="mt-1 block text-xs text-ink-faint">{hint}</span>}
    </label>
  );
}

/**
 * An image chosen by upload: the preview of the current URL and a file button. The URL the server
 * answers is what the form sends (the server accepts only its own uploads or the current value).
 */
export function ImageField({ label, value, onChange, uploadPath, testId, disabled }: { label: string; value: string; onChange: (url: string) => void; uploadPath: string; testId: string; disabled?: boolean }) {
  const t = useAdminT();
  const [busy, setBusy] = useState<number | null>(null);
  const [error, setError] = useState('');
  const pick = async (file: File | undefined) => {
    if (!file) return;
    setError('');
    setBusy(0);
    const r = await uploadImage(uploadPath, file, (f) => setBusy(f));
    setBusy(null);
    if (r.ok) onChange(r.data.url);
    else setError(r.message || t('common.networkError'));
  };
  return (
    <div className="text-sm" data-testid={testId}>
      <span className="mb-1 block text-ink-soft">{label}</span>
      <div className="flex flex-wrap items-center gap-3">
        {value ? (
          <img src={value} alt="" className="h-20 w-20 rounded border border-line object-cover" data-testid={`${testId}-preview`} data-src={value} />
        ) : (
          <span className="flex h-20 w-20 items-center justify-center rounded border border-dashed border-line text-xs text-ink-faint">{t('catalog.none')}</span>
        )}
        <label className={`btn-ghost cursor-pointer ${disabled ? 'pointer-events-none opacity-50' : ''}`}>
          {busy !== null ? (
            <>
              <Spinner /> {t('catalog.uploading')} {Math.round(busy * 100)}%
            </>
          ) : value ? (
            t('catalog.replaceImage')
          ) : (
            t('catalog.upload')
          )}
          <input
            type="file"
            accept="image/png,image/jpeg,image/webp,image/gif"
            className="sr-only"
            disabled={disabled || busy !== null}
            onChange={(e) => {
              void pick(e.target.files?.[0]);
              e.target.value = '';
            }}
            data-testid={`${testId}-file`}
          />
        </label>
        <span className="text-xs text-ink-faint">{t('catalog.imageHint')}</span>
      </div>
      {error && (
        <p className="mt-1 text-xs text-danger" role="alert" data-testid={`${testId}-error`}>
          {error}
        </p>
      )}
    </div>
  );
}

/** Buttons that move a row of an ordered list. */
export function RowMoves({ index, count, onMove, onRemove }: { index: number; count: number; onMove: (from: number, to: number) => void; onRemove: () => void }) {
  const t = useAdminT();
  return (
    <span className="inline-flex gap-1 whitespace-nowrap">
      <button type="button" className="rounded px-1.5 text-ink-faint hover:text-brand disabled:opacity-30" title={t('catalog.moveUp')} aria-label={t('catalog.moveUp')} disabled={index === 0} onClick={() => onMove(index, index - 1)}>
        ↑
      </button>
      <button type="button" className="rounded px-1.5 text-ink-faint hover:text-brand disabled:opacity-30" title={t('catalog.moveDown')} aria-label={t('catalog.moveDown')} disabled={index === count - 1} onClick={() => onMove(index, index + 1)}>
        ↓
      </button>
      <button type="button" className="rounded px-1.5 text-ink-faint hover:text-danger" title={t('catalog.remove')} aria-label={t('catalog.remove')} onClick={onRemove} data-testid="row-remove">
        ×
      </button>
    </span>
  );
}

export function move<T>(list: T[], from: number, to: number): T[] {
  if (to < 0 || to >= list.length) return list;
  const next = [...list];
  const [x] = next.splice(from, 1);
  next.splice(to, 0, x!);
  return next;
}
