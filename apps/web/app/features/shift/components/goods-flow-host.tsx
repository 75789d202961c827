import { lazy, Suspense, type ComponentType } from 'react';
import { useTranslation } from '../../../i18n/index.ts';
import { Spinner } from '../../../components/ui/spinner.tsx';
import type { OpenBoxRequest } from '../../../lib/goods-flow/types.ts';
import type { TransferRequest } from './transfer-dialog.tsx';

/** The dialogs and everything they need (flows, wallet helpers, address codec) load on first use. */
const TransferDialog = lazy(() => import('./transfer-dialog.tsx'));

export type OpenBoxDialogType = ComponentType<{ request: OpenBoxRequest; onClose: () => void; onDone: () => void }>;

export type GoodsFlowRequest = ({ kind: 'openBox' } & OpenBoxRequest) | ({ kind: 'transfer' } & TransferRequest);

/** Renders the goods-flow dialog for `request` (nothing when null); `onDone` runs when a dialog that changed something is closed. */
export function GoodsFlowHost({
  request,
  onClose,
  onDone,
  OpenBoxDialog,
}: {
  request: GoodsFlowRequest | null;
  onClose: () => void;
  onDone: () => void;
  /** The blind-box dialog (features/boxes, a lazy chunk the route hands in). */
  OpenBoxDialog: OpenBoxDialogType;
}) {
  if (!request) return null;
  return (
    <Suspense fallback={<DialogLoading />}>
      {request.kind === 'openBox' ? <OpenBoxDialog request={request} onClose={onClose} onDone={onDone} /> : <TransferDialog request={request} onClose={onClose} onDone={onDone} />}
    </Suspense>
  );
}

export function DialogLoading() {
  const { t } = useTranslation();
  return (
    <div className="fixed inset-0 z-[150] flex items-center justify-center bg-black/30" role="status" data-testid="gf-dialog-loading">
      <span className="flex items-center gap-2 rounded-full bg-surface px-4 py-2 text-sm text-ink-soft shadow-pop">
        <Spinner /> {t('common.loading')}
      </span>
    </div>
  );
}
