import { lazy, Suspense, useState } from 'react';
import { useTranslation } from '../../../i18n/index.ts';
import type { ShareTarget } from '../links.ts';

/** The dialog (Radix, poster preview, invite code) is its own chunk, loaded on the first click. */
const ShareDialog = lazy(() => import('./share-dialog.tsx'));

/** The "share" piece of the asset and release pages (shared pieces): opens the poster dialog. */
export function ShareButton({ target, className = '' }: { target: ShareTarget; className?: string }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const [loaded, setLoaded] = useState(false);
  return (
    <>
      <button
        type="button"
        className={`btn-ghost ${className}`}
        onClick={() => {
          setLoaded(true);
          setOpen(true);
        }}
        data-testid="share-button"
      >
        <svg viewBox="0 0 20 20" className="size-4" fill="none" stroke="currentColor" strokeWidth="1.7" aria-hidden="true">
          <circle cx="15" cy="4.5" r="2.3" />
          <circle cx="5" cy="10" r="2.3" />
          <circle cx="15" cy="15.5" r="2.3" />
          <path d="m7 8.9 6-3.3M7 11.1l6 3.3" />
        </svg>
        {t('share.button')}
      </button>
      {loaded && (
        <Suspense fallback={null}>
          <ShareDialog target={target} open={open} onOpenChange={setOpen} />
        </Suspense>
      )}
    </>
  );
}
