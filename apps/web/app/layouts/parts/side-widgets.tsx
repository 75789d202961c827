import { useEffect, useState } from 'react';
import { useTranslation } from '../../i18n/index.ts';
import { SITE } from '../../config.ts';

/** The floating side index: customer-service widget and back-to-top button. */
export function SideWidgets() {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const [showTop, setShowTop] = useState(false);

  useEffect(() => {
    const onScroll = () => setShowTop(window.scrollY > 400);
    onScroll();
    window.addEventListener('scroll', onScroll, { passive: true });
    return () => window.removeEventListener('scroll', onScroll);
  }, []);

  useEffect(() => {
    if (!open) return;
    const onKey = (e: KeyboardEvent) => e.key === 'Escape' && setOpen(false);
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [open]);

  const round =
    'flex size-11 items-center justify-center rounded-full border border-line bg-surface text-ink-soft shadow-card transition-colors hover:border-brand hover:text-brand';

  return (
    <div className="fixed bottom-6 right-4 z-40 flex flex-col items-end gap-3 md:right-6">
      {open && (
        <div
          id="cs-panel"
          role="dialog"
          aria-label={t('service.title')}
          data-testid="cs-panel"
          className="w-72 rounded-card border border-line bg-surface p-4 text-sm shadow-pop"
        >
          <div className="flex items-center justify-between">
            <h2 className="text-base text-ink">{t('service.title')}</h2>
            <button type="button" onClick={() => setOpen(false)} aria-label={t('service.close')} className="text-ink-faint hover:text-ink">
              ×
            </button>
          </div>
          <p className="mt-2 text-ink-soft">{t('service.intro')}</p>
          <dl className="mt-3 space-y-2">
            <div>
              <dt className="text-xs text-ink-faint">{t('service.email')}</dt>
              <dd>
                <a href={`mailto:${SITE.serviceEmail}`} className="text-brand hover:underline" data-testid="cs-email">
                  {SITE.serviceEmail}
                </a>
              </dd>
            </div>
            <div>
              <dt className="text-xs text-ink-faint">{t('service.hours')}</dt>
              <dd className="text-ink">{t('service.hoursValue')}</dd>
            </div>
          </dl>
        </div>
      )}
      <button
        type="button"
        className={round}
        aria-label={t('service.open')}
        aria-expanded={open}
        aria-controls="cs-panel"
        data-testid="cs-button"
        onClick={() => setOpen((v) => !v)}
      >
        <svg viewBox="0 0 24 24" className="size-5" fill="none" stroke="currentColor" strokeWidth="1.8" aria-hidden>
          <path d="M4 13v-1a8 8 0 0 1 16 0v1" />
          <rect x="3" y="13" width="4" height="6" rx="1.5" />
          <rect x="17" y="13" width="4" height="6" rx="1.5" />
          <path d="M19 19c0 1.5-2 2.5-5 2.5" strokeLinecap="round" />
        </svg>
      </button>
      {showTop && (
        <button
          type="button"
          className={round}
          aria-label={t('backToTop')}
          data-testid="back-to-top"
          onClick={() => window.scrollTo({ top: 0, behavior: 'smooth' })}
        >
          <svg viewBox="0 0 24 24" className="size-5" fill="none" stroke="currentColor" strokeWidth="2" aria-hidden>
            <path d="M6 14l6-6 6 6M6 5h12" strokeLinecap="round" strokeLinejoin="round" />
          </svg>
        </button>
      )}
    </div>
  );
}
