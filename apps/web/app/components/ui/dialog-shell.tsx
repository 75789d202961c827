import type { ReactNode } from 'react';
import * as Dialog from '@radix-ui/react-dialog';
import { useTranslation } from '../../i18n/index.ts';

/**
 * The frame of the account dialogs (change password, change phone, cancellation, export). It sits
 * below the slider captcha's layer (z 210), which opens on top of it when a code is requested.
 * `busy` keeps it open while a request runs.
 */
export function DialogShell({
  open,
  onOpenChange,
  title,
  testId,
  busy = false,
  children,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  testId: string;
  busy?: boolean;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <Dialog.Root open={open} onOpenChange={(o) => !(busy && !o) && onOpenChange(o)}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-[150] bg-black/50" />
        <Dialog.Content
          data-testid={testId}
          aria-describedby={undefined}
          onEscapeKeyDown={(e) => busy && e.preventDefault()}
          onPointerDownOutside={(e) => e.preventDefault()}
          className="fixed left-1/2 top-1/2 z-[151] max-h-[92vh] w-[min(460px,calc(100vw-1.5rem))] -translate-x-1/2 -translate-y-1/2 overflow-y-auto rounded-card bg-surface px-6 pb-6 pt-5 shadow-pop"
        >
          <div className="mb-5 flex items-start justify-between gap-4">
            <Dialog.Title className="text-xl font-semibold text-ink">{title}</Dialog.Title>
            <Dialog.Close
              className="-mr-2 rounded px-2 text-2xl leading-none text-ink-faint hover:text-ink disabled:opacity-30"
              aria-label={t('common.close')}
              disabled={busy}
              data-testid={`${testId}-close`}
            >
              ×
            </Dialog.Close>
          </div>
          {children}
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
