import { useTranslation } from '../../i18n/index.ts';
import { Spinner } from '../ui/spinner.tsx';
import type { GfStep, GfStepStatus, GfStepUpdate } from '../../lib/goods-flow/flows.ts';

export type GfStepMap = Partial<Record<GfStep, GfStepUpdate>>;

const busy = (s: GfStepStatus) => s === 'active' || s === 'wallet' || s === 'chain';

/**
 * The steps of a goods flow, each with its state in words: waiting, in progress,
 * waiting for the wallet, confirming on chain (with the tx hash), done, failed with the reason.
 * `gf-step-<key>` carries `data-status`.
 */
export function GfSteps({ steps, state, kind }: { steps: readonly GfStep[]; state: GfStepMap; kind: 'openBox' | 'compose' | 'transfer' }) {
  const { t } = useTranslation();
  return (
    <ol className="space-y-3" data-testid="gf-steps">
      {steps.map((key, i) => {
        const s = state[key];
        const status: GfStepStatus = s?.status ?? 'pending';
        return (
          <li key={key} className="flex items-start gap-3" data-testid={`gf-step-${key}`} data-status={status}>
            <StepIcon status={status} n={i + 1} />
            <div className="min-w-0 flex-1">
              <p className={status === 'pending' ? 'text-ink-faint' : status === 'failed' ? 'text-danger' : 'text-ink'}>{t(`goodsFlow.steps.${kind}.${key}` as never)}</p>
              <p
                className={`text-xs ${status === 'failed' ? 'text-danger' : status === 'wallet' ? 'text-warning' : 'text-ink-faint'}`}
                data-testid={status === 'failed' ? 'gf-step-error' : undefined}
                role={status === 'failed' ? 'alert' : undefined}
                aria-live={busy(status) ? 'polite' : undefined}
              >
                {s?.message ?? t(`goodsFlow.stepStatus.${status}`)}
              </p>
              {s?.hash && (
                <p className="mt-0.5 truncate font-mono text-[11px] text-ink-faint" title={s.hash} data-testid="gf-step-hash">
                  {s.hash}
                </p>
              )}
            </div>
          </li>
        );
      })}
    </ol>
  );
}

function StepIcon({ status, n }: { status: GfStepStatus; n: number }) {
  const base = 'mt-0.5 flex size-5 shrink-0 items-center justify-center rounded-full text-[11px] font-bold';
  if (busy(status)) return <Spinner className={`mt-1 ${status === 'wallet' ? 'text-warning' : 'text-brand'}`} />;
  if (status === 'done' || status === 'skipped') return <span aria-hidden className={`${base} bg-success text-white`}>✓</span>;
  if (status === 'failed') return <span aria-hidden className={`${base} bg-danger text-white`}>×</span>;
  return (
    <span aria-hidden className={`${base} border border-line text-ink-faint`}>
      {n}
    </span>
  );
}
