import { useTranslation } from '../../i18n/index.ts';
import { useToastStore, type ToastKind } from '../../stores/toast.ts';

const styles: Record<ToastKind, string> = {
  success: 'border-success/30 text-success',
  info: 'border-info/30 text-info',
  warning: 'border-warning/30 text-warning',
  error: 'border-danger/30 text-danger',
};
const icons: Record<ToastKind, string> = { success: '✓', info: 'i', warning: '!', error: '×' };

/** Messages at the top centre. */
export function Toaster() {
  const items = useToastStore((s) => s.items);
  const dismiss = useToastStore((s) => s.dismiss);
  const { t } = useTranslation();
  return (
    <div className="pointer-events-none fixed inset-x-0 top-4 z-[1000] flex flex-col items-center gap-2 px-4" aria-live="polite">
      {items.map((item) => (
        <div
          key={item.id}
          data-testid="toast"
          data-kind={item.kind}
          role={item.kind === 'error' ? 'alert' : 'status'}
          className={`pointer-events-auto flex max-w-[min(92vw,480px)] animate-toast-in items-start gap-2 rounded-control border bg-surface px-4 py-2.5 text-sm shadow-pop ${styles[item.kind]}`}
        >
          <span aria-hidden className="mt-px inline-flex size-4 shrink-0 items-center justify-center rounded-full bg-current text-[11px] font-bold leading-none">
            <span className="text-white">{icons[item.kind]}</span>
          </span>
          <span className="text-ink" data-testid="toast-text">{item.text}</span>
          {item.closable && (
            <button
              type="button"
              data-testid="toast-close"
              onClick={() => dismiss(item.id)}
              className="-mr-1 ml-1 text-ink-faint hover:text-ink"
              aria-label={t('common.close')}
            >
              ×
            </button>
          )}
        </div>
      ))}
    </div>
  );
}
