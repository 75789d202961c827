import { useState, type ReactNode } from 'react';
import * as Dialog from '@radix-ui/react-dialog';
import { REASON_MAX, REASON_MIN } from '@cfx/contract/admin-rules.ts';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { useAdminT } from '../i18n.ts';

/**
 * Dialogs of the console: every destructive or money-moving action is confirmed in one, and the
 * ones that need a reason ask for it (2-200 characters, written to the audit log). The dialog
 * stays open while the request runs and shows the server's refusal in place.
 */
function Frame({ open, onClose, title, busy, testId, children }: { open: boolean; onClose: () => void; title: string; busy: boolean; testId: string; children: ReactNode }) {
  const t = useAdminT();
  return (
    <Dialog.Root open={open} onOpenChange={(o) => !o && !busy && onClose()}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-[150] bg-black/50" />
        <Dialog.Content
          data-testid={testId}
          aria-describedby={undefined}
          onPointerDownOutside={(e) => e.preventDefault()}
          className="fixed left-1/2 top-1/2 z-[151] max-h-[92vh] w-[min(480px,calc(100vw-1.5rem))] -translate-x-1/2 -translate-y-1/2 overflow-y-auto rounded-card bg-surface px-6 pb-6 pt-5 shadow-pop"
        >
          <div className="mb-4 flex items-start justify-between gap-4">
            <Dialog.Title className="text-lg font-semibold text-ink">{title}</Dialog.Title>
            <Dialog.Close className="-mr-2 rounded px-2 text-2xl leading-none text-ink-faint hover:text-ink" aria-label={t('common.close')} disabled={busy}>
              ×
            </Dialog.Close>
          </div>
          {children}
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

export interface ConfirmProps {
  open: boolean;
  onClose: () => void;
  title: string;
  intro?: ReactNode;
  confirmLabel: string;
  /** Ask for a reason (sent to `onConfirm`). */
  reason?: boolean;
  reasonLabel?: string;
  danger?: boolean;
  testId: string;
  /** Resolves to null on success (the dialog closes) or the refusal to show. */
  onConfirm: (reason: string) => Promise<string | null>;
}

export function ConfirmDialog(p: ConfirmProps) {
  const t = useAdminT();
  const [reason, setReason] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');
  const close = () => {
    setReason('');
    setError('');
    p.onClose();
  };
  const submit = async () => {
    const r = reason.trim();
    if (p.reason && ([...r].length < REASON_MIN || [...r].length > REASON_MAX)) {
      setError(t('common.reasonRule'));
      return;
    }
    setBusy(true);
    setError('');
    const refusal = await p.onConfirm(r);
    setBusy(false);
    if (refusal === null) close();
    else setError(refusal);
  };
  return (
    <Frame open={p.open} onClose={close} title={p.title} busy={busy} testId={p.testId}>
      {p.intro && <div className="mb-4 text-sm text-ink-soft">{p.intro}</div>}
      {p.reason && (
        <label className="block text-sm">
          <span className="mb-1 block text-ink-soft">{p.reasonLabel ?? t('common.reason')}</span>
          <textarea
            className="field-input h-24 py-2"
            value={reason}
            maxLength={REASON_MAX}
            placeholder={t('common.reasonPlaceholder')}
            onChange={(e) => setReason(e.target.value)}
            data-testid={`${p.testId}-reason`}
          />
        </label>
      )}
      {error && (
        <p className="mt-3 text-sm text-danger" role="alert" data-testid={`${p.testId}-error`}>
          {error}
        </p>
      )}
      <div className="mt-5 flex justify-end gap-3">
        <button type="button" className="btn-ghost" onClick={close} disabled={busy}>
          {t('common.cancel')}
        </button>
        <button
          type="button"
          className={p.danger ? 'btn bg-danger text-white hover:opacity-90' : 'btn-primary'}
          onClick={() => void submit()}
          disabled={busy}
          data-testid={`${p.testId}-confirm`}
        >
          {busy && <Spinner />} {p.confirmLabel}
        </button>
      </div>
    </Frame>
  );
}

/** A dialog that just shows something (e.g. a one-time password) with a close button. */
export function InfoDialog({ open, onClose, title, children, testId }: { open: boolean; onClose: () => void; title: string; children: ReactNode; testId: string }) {
  const t = useAdminT();
  return (
    <Frame open={open} onClose={onClose} title={title} busy={false} testId={testId}>
      {children}
      <div className="mt-5 flex justify-end">
        <button type="button" className="btn-primary" onClick={onClose} data-testid={`${testId}-close`}>
          {t('common.close')}
        </button>
      </div>
    </Frame>
  );
}
