import { useTranslation } from '../../../i18n/index.ts';
import { Spinner } from '../../../components/ui/spinner.tsx';
import type { FlowStep, StepStatus, StepUpdate } from '../flows.ts';

export type StepMap = Partial<Record<FlowStep, StepUpdate>>;

const busy = (s: StepStatus) => s === 'active' || s === 'wallet' || s === 'chain';

/**
 * The steps of a wallet flow, each with its state in words: waiting, in progress,
 * waiting for the wallet, confirming on chain (with the tx hash and, for several transactions in
 * one step, which one), done / skipped (why, per step), failed with the reason.
 * `flow-step-<key>` carries `data-status`.
 */
export function FlowSteps({ steps, state }: { steps: readonly FlowStep[]; state: StepMap }) {
  const { t } = useTranslation();
  return (
    <ol className="space-y-3" data-testid="flow-steps">
      {steps.map((key, i) => {
        const s = state[key];
        const status: StepStatus = s?.status ?? 'pending';
        return (
          <li key={key} className="flex items-start gap-3" data-testid={`flow-step-${key}`} data-status={status}>
            <StepIcon status={status} n={i + 1} />
            <div className="min-w-0 flex-1">
              <p className={status === 'pending' ? 'text-ink-faint' : status === 'failed' ? 'text-danger' : 'text-ink'}>{t(`market.steps.${key}`)}</p>
              <p
                className={`text-xs ${status === 'failed' ? 'text-danger' : status === 'wallet' ? 'text-warning' : 'text-ink-faint'}`}
                data-testid={status === 'failed' ? 'flow-step-error' : undefined}
                role={status === 'failed' ? 'alert' : undefined}
                aria-live={busy(status) ? 'polite' : undefined}
              >
                {status === 'failed' && s?.message ? s.message : status === 'skipped' ? t(`market.stepSkipped.${key}`) : t(`market.stepStatus.${status}`)}
                {busy(status) && s?.progress && <span data-testid="flow-step-progress"> ({s.progress})</span>}
              </p>
              {s?.hash && (
                <p className="mt-0.5 truncate font-mono text-[11px] text-ink-faint" title={s.hash} data-testid="flow-step-hash">
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

function StepIcon({ status, n }: { status: StepStatus; n: number }) {
  const base = 'mt-0.5 flex size-5 shrink-0 items-center justify-center rounded-full text-[11px] font-bold';
  if (busy(status)) return <Spinner className={`mt-1 ${status === 'wallet' ? 'text-warning' : 'text-brand'}`} />;
  if (status === 'done') return <span aria-hidden className={`${base} bg-success text-white`}>✓</span>;
  if (status === 'skipped') return <span aria-hidden className={`${base} bg-success/60 text-white`}>✓</span>;
  if (status === 'failed') return <span aria-hidden className={`${base} bg-danger text-white`}>×</span>;
  return (
    <span aria-hidden className={`${base} border border-line text-ink-faint`}>
      {n}
    </span>
  );
}
