import { useCallback, useEffect, useRef, useState } from 'react';
import * as Dialog from '@radix-ui/react-dialog';
import { useTranslation } from '../../../i18n/index.ts';
import { SITE } from '../../../config.ts';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { WalletGlyph } from '../../../components/ui/wallet-glyph.tsx';
import { useWalletStore, type WalletKind } from '../../../stores/wallet.ts';
import { CONNECT_STEPS, connectWallet, type ConnectStep, type StepState } from '../connect.ts';
import { availableWallets, kindsOf, providerFor, type WalletAvailability } from '../../../lib/wallet/wallets.ts';
import { DevWalletBadge } from './dev-wallet-badge.tsx';

interface Flow {
  kind: WalletKind;
  status: 'running' | 'failed' | 'done';
  steps: Partial<Record<ConnectStep, { state: StepState; message?: string }>>;
  message?: string;
}

/**
 * The connect dialog. Lists the available wallets
 * (Fluent, and the dev wallet on the embedded chain); with exactly one it starts at once. Then shows
 * the steps: authorise → network → address → sign → link, each waiting / done / failed with a reason.
 */
export function WalletDialog() {
  const { t } = useTranslation();
  const open = useWalletStore((s) => s.dialogOpen);
  const closeDialog = useWalletStore((s) => s.closeDialog);
  const [availability, setAvailability] = useState<WalletAvailability | null>(null);
  const [flow, setFlow] = useState<Flow | null>(null);
  const running = useRef(false);

  const start = useCallback(
    async (kind: WalletKind, a: WalletAvailability) => {
      if (running.current) return;
      running.current = true;
      setFlow({ kind, status: 'running', steps: {} });
      try {
        const provider = await providerFor(kind, a);
        if (!provider) {
          setFlow({ kind, status: 'failed', steps: { authorize: { state: 'failed', message: t('wallet.errors.unavailable') } }, message: t('wallet.errors.unavailable') });
          return;
        }
        const result = await connectWallet(provider, kind, {
          t,
          onStep: (step, state, message) =>
            setFlow((f) => (f && f.kind === kind ? { ...f, steps: { ...f.steps, [step]: { state, message } } } : f)),
        });
        if (result.ok) {
          setFlow((f) => (f ? { ...f, status: 'done' } : f));
          closeDialog();
        } else if (result.failure === 'needLogin') {
          setFlow(null);
          closeDialog();
        } else {
          setFlow((f) => (f ? { ...f, status: 'failed', message: result.message } : f));
        }
      } catch (err) {
        // A chunk that failed to load, or a bug: show it as a failed step rather than hanging.
        console.error('[wallet]', err);
        setFlow((f) => (f ? { ...f, status: 'failed', message: t('wallet.errors.failed') } : f));
      } finally {
        running.current = false;
      }
    },
    [t, closeDialog],
  );

  // Each opening: detect the wallets; with exactly one, start connecting right away.
  useEffect(() => {
    if (!open) return;
    let alive = true;
    if (!running.current) setFlow(null);
    void availableWallets().then((a) => {
      if (!alive) return;
      setAvailability(a);
      const kinds = kindsOf(a);
      if (kinds.length === 1 && !running.current) void start(kinds[0]!, a);
    });
    return () => {
      alive = false;
    };
  }, [open, start]);

  const kinds = availability ? kindsOf(availability) : [];

  return (
    <Dialog.Root open={open} onOpenChange={(o) => !o && closeDialog()}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-[200] bg-black/50" />
        <Dialog.Content
          data-testid="wallet-dialog"
          data-state-flow={flow?.status ?? (availability ? 'choose' : 'detecting')}
          aria-describedby={undefined}
          className="fixed left-1/2 top-1/2 z-[201] max-h-[92vh] w-[min(440px,calc(100vw-1.5rem))] -translate-x-1/2 -translate-y-1/2 overflow-y-auto rounded-card bg-surface px-6 pb-6 pt-5 shadow-pop"
        >
          <div className="mb-4 flex items-start justify-between">
            <Dialog.Title className="flex items-center gap-2 text-xl font-semibold text-ink">
              {t('wallet.dialogTitle')}
              {flow?.kind === 'dev' && <DevWalletBadge />}
            </Dialog.Title>
            <Dialog.Close className="-mr-2 rounded px-2 text-2xl leading-none text-ink-faint hover:text-ink" aria-label={t('common.close')} data-testid="wallet-dialog-close">
              ×
            </Dialog.Close>
          </div>

          {!availability && (
            <p className="flex items-center gap-2 py-6 text-ink-faint" role="status">
              <Spinner /> {t('wallet.detecting')}
            </p>
          )}

          {availability && !flow && <Choices availability={availability} onChoose={(k) => void start(k, availability)} />}

          {flow && (
            <>
              <Steps flow={flow} />
              {flow.status === 'failed' && (
                <div className="mt-5 flex justify-end gap-2">
                  {kinds.length > 1 && (
                    <button type="button" className="btn-ghost" data-testid="wallet-back" onClick={() => setFlow(null)}>
                      {t('wallet.back')}
                    </button>
                  )}
                  <button type="button" className="btn-primary" data-testid="wallet-retry" onClick={() => availability && void start(flow.kind, availability)}>
                    {t('wallet.retry')}
                  </button>
                </div>
              )}
            </>
          )}
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

function Choices({ availability, onChoose }: { availability: WalletAvailability; onChoose: (kind: WalletKind) => void }) {
  const { t } = useTranslation();
  const option = 'flex w-full items-center gap-3 rounded-control border border-line px-4 py-3 text-left transition-colors hover:border-brand disabled:hover:border-line';
  return (
    <div className="space-y-3">
      <p className="text-sm text-ink-soft">{t('wallet.choose')}</p>
      {availability.fluent ? (
        <button type="button" className={option} data-testid="wallet-option-fluent" onClick={() => onChoose('fluent')}>
          <FluentMark />
          <span className="min-w-0 flex-1">
            <span className="block font-medium text-ink">{t('wallet.fluentName')}</span>
            <span className="block text-xs text-ink-faint">{t('wallet.fluentDesc')}</span>
          </span>
          <span className="text-sm text-brand">{t('wallet.connect')}</span>
        </button>
      ) : (
        <div className={option} data-testid="wallet-fluent-missing">
          <FluentMark />
          <span className="min-w-0 flex-1">
            <span className="block font-medium text-ink">{t('wallet.fluentName')}</span>
            <span className="block text-xs text-ink-faint">{t('wallet.fluentMissing')}</span>
          </span>
          <a href={SITE.fluentHomeUrl} target="_blank" rel="noopener noreferrer" className="text-sm text-brand hover:underline" data-testid="wallet-install-fluent">
            {t('wallet.installFluent')}
            <span className="sr-only">{t('nav.external')}</span>
          </a>
        </div>
      )}
      {availability.dev && (
        <button type="button" className={option} data-testid="wallet-option-dev" onClick={() => onChoose('dev')}>
          <span aria-hidden className="flex size-9 shrink-0 items-center justify-center rounded-full bg-warning/15 text-warning">
            <WalletGlyph className="size-5" />
          </span>
          <span className="min-w-0 flex-1">
            <span className="flex items-center gap-2 font-medium text-ink">
              {t('wallet.devName')} <DevWalletBadge />
            </span>
            <span className="block text-xs text-ink-faint">{t('wallet.devDesc')}</span>
          </span>
          <span className="text-sm text-brand">{t('wallet.connect')}</span>
        </button>
      )}
    </div>
  );
}

function Steps({ flow }: { flow: Flow }) {
  const { t } = useTranslation();
  return (
    <ol className="space-y-2.5" data-testid="wallet-steps">
      {CONNECT_STEPS.map((step) => {
        const s = flow.steps[step];
        const state = s?.state ?? 'pending';
        return (
          <li key={step} className="flex items-start gap-3" data-testid={`wallet-step-${step}`} data-status={state}>
            <StepIcon state={state} />
            <div className="min-w-0 flex-1">
              <p className={state === 'pending' ? 'text-ink-faint' : state === 'failed' ? 'text-danger' : 'text-ink'}>
                {t(`wallet.steps.${step}`)}
                <span className="sr-only"> — {t(`wallet.stepState.${state}`)}</span>
              </p>
              {state === 'failed' && s?.message && (
                <p className="text-xs text-danger" data-testid="wallet-step-error" role="alert">
                  {s.message}
                </p>
              )}
            </div>
          </li>
        );
      })}
      {flow.status === 'failed' && !Object.values(flow.steps).some((s) => s?.state === 'failed') && flow.message && (
        <li className="text-xs text-danger" data-testid="wallet-step-error" role="alert">
          {flow.message}
        </li>
      )}
    </ol>
  );
}

function StepIcon({ state }: { state: StepState | 'pending' }) {
  const base = 'mt-0.5 flex size-5 shrink-0 items-center justify-center rounded-full text-[11px] font-bold';
  if (state === 'active') return <Spinner className={`mt-1 text-brand`} />;
  if (state === 'done') return <span aria-hidden className={`${base} bg-success text-white`}>✓</span>;
  if (state === 'failed') return <span aria-hidden className={`${base} bg-danger text-white`}>×</span>;
  return <span aria-hidden className={`${base} border border-line`} />;
}

function FluentMark() {
  return (
    <span aria-hidden className="flex size-9 shrink-0 items-center justify-center rounded-full bg-brand-soft text-brand">
      <WalletGlyph className="size-5" />
    </span>
  );
}
