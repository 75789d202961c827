/**
 * The dialog frame of the goods flows (open a box, compose, move / give): the title, the
 * collectible, a body, the failure actions (retry resumes at the failed step; connect the wallet,
 * verify the real name, log in where that is the way out). It cannot be closed while a step runs.
 */
import type { ReactNode } from 'react';
import * as Dialog from '@radix-ui/react-dialog';
import { Link } from 'react-router';
import { useTranslation } from '../../i18n/index.ts';
import { Thumb } from '../ui/thumb.tsx';
import { useUserStore } from '../../stores/user.ts';
import { useAuthOverlay, useWalletStore } from '../../stores/app-stores.ts';
import type { GfResult } from '../../lib/goods-flow/flows.ts';

export type GfPhase = 'form' | 'running' | 'failed' | 'done';
export type GfFailure = Extract<GfResult<unknown>, { ok: false }>;

export function GfDialog({
  title,
  testId,
  kind,
  phase,
  goods,
  onClose,
  children,
}: {
  title: string;
  testId: string;
  kind: string;
  phase: GfPhase;
  goods?: { name: string; image: string; sub?: ReactNode };
  onClose: () => void;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  const running = phase === 'running';
  return (
    <Dialog.Root open onOpenChange={(o) => !o && !running && onClose()}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-[150] bg-black/50" />
        <Dialog.Content
          data-testid={testId}
          data-kind={kind}
          data-phase={phase}
          aria-describedby={undefined}
          onEscapeKeyDown={(e) => running && e.preventDefault()}
          onPointerDownOutside={(e) => running && e.preventDefault()}
          className="fixed left-1/2 top-1/2 z-[151] max-h-[92vh] w-[min(520px,calc(100vw-1.5rem))] -translate-x-1/2 -translate-y-1/2 overflow-y-auto rounded-card bg-surface px-6 pb-6 pt-5 shadow-pop"
        >
          <div className="mb-4 flex items-start justify-between gap-4">
            <Dialog.Title className="text-xl font-semibold text-ink">{title}</Dialog.Title>
            <Dialog.Close className="-mr-2 rounded px-2 text-2xl leading-none text-ink-faint hover:text-ink disabled:opacity-30" aria-label={t('common.close')} disabled={running} data-testid="gf-dialog-close">
              ×
            </Dialog.Close>
          </div>
          {goods && (
            <div className="mb-4 flex items-center gap-3 rounded-control bg-canvas p-3">
              <Thumb src={goods.image} alt="" width={48} height={48} className="size-12 shrink-0 rounded-md bg-night-soft object-cover" />
              <div className="min-w-0">
                <p className="truncate text-sm font-medium text-ink">{goods.name}</p>
                {goods.sub && <div className="text-xs text-ink-faint">{goods.sub}</div>}
              </div>
            </div>
          )}
          {children}
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

export function GfFailureActions({ failure, onRetry, onLeave }: { failure: GfFailure; onRetry: () => void; onLeave: () => void }) {
  const { t } = useTranslation();
  const user = useUserStore();
  const gate = failure.gate;
  const tradeGate = failure.code === '1011';
  const needWallet = gate === 'noWallet' || gate === 'notConnected' || gate === 'otherAccount' || gate === 'unavailable' || (tradeGate && user.isRealname === '1' && !user.walletAddress);
  const needRealname = tradeGate && user.isRealname !== '1';
  return (
    <div className="mt-5 flex flex-wrap items-center justify-end gap-2" data-testid="gf-failed">
      {gate === 'needLogin' && (
        <button type="button" className="btn-ghost" onClick={() => (onLeave(), useAuthOverlay.getState().openOverlay('login'))}>
          {t('header.login')}
        </button>
      )}
      {needRealname && (
        <Link to="/personal-center/account-settings#realname" className="btn-ghost" onClick={onLeave}>
          {t('market.gate.verifyRealname')}
        </Link>
      )}
      {needWallet && (
        <button type="button" className="btn-ghost" onClick={() => (onLeave(), useWalletStore.getState().openDialog())}>
          {t('header.linkWallet')}
        </button>
      )}
      <button type="button" className="btn-primary" onClick={onRetry} data-testid="gf-retry">
        {t('goodsFlow.retry')}
      </button>
    </div>
  );
}

