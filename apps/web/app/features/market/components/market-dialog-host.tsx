import { lazy, Suspense } from 'react';
import { useTranslation } from '../../../i18n/index.ts';
import { Spinner } from '../../../components/ui/spinner.tsx';
import type { MarketDialogRequest } from '../dialog-request.ts';

/** The dialog and everything it needs (flows, wallet helpers, address codec) load on first use. */
const MarketDialog = lazy(() => import('./market-dialog.tsx'));

/**
 * Renders the market's wallet-flow dialog for `request` (nothing when null). `onDone` runs when a
 * dialog that changed something is closed (refresh the page's data then).
 */
export function MarketDialogHost({ request, onClose, onDone }: { request: MarketDialogRequest | null; onClose: () => void; onDone: () => void }) {
  if (!request) return null;
  return (
    <Suspense fallback={<DialogLoading />}>
      <MarketDialog request={request} onClose={onClose} onDone={onDone} />
    </Suspense>
  );
}

function DialogLoading() {
  const { t } = useTranslation();
  return (
    <div className="fixed inset-0 z-[150] flex items-center justify-center bg-black/30" role="status" data-testid="market-dialog-loading">
      <span className="flex items-center gap-2 rounded-full bg-surface px-4 py-2 text-sm text-ink-soft shadow-pop">
        <Spinner /> {t('common.loading')}
      </span>
    </div>
  );
}
