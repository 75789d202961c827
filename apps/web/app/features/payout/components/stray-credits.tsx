import { useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { formatFen } from '@cfx/protocol/money.ts';
import { useTranslation } from '../../../i18n/index.ts';
import { useUserStore } from '../../../stores/user.ts';
import { toast } from '../../../stores/toast.ts';
import { formatCnDateTime } from '../../../components/ui/cn-time.ts';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { listStrayCredits, refundStrayCredit } from '../api/money.ts';

/**
 * Payments credited to my balance because they could not pay their order (a duplicate, a late payment,
 * a wrong amount), each with "refund to original method" and its refund's state. Hidden when there are none.
 */
export function StrayCredits({ onChange }: { onChange?: () => void }) {
  const { t } = useTranslation();
  const token = useUserStore((s) => s.token);
  const qc = useQueryClient();
  const [busy, setBusy] = useState<number | null>(null);
  const q = useQuery({
    queryKey: ['stray-credits', token],
    queryFn: () => listStrayCredits(1),
    enabled: token !== '',
    refetchInterval: (query) => (query.state.data?.list.some((c) => c.refund && (c.refund.status === 'requested' || c.refund.status === 'processing')) ? 2000 : false),
  });
  if (!q.data || q.data.list.length === 0) return null;
  async function refund(paymentId: number) {
    setBusy(paymentId);
    const r = await refundStrayCredit(paymentId);
    setBusy(null);
    if (!r.ok) return;
    toast.success(r.message);
    void qc.invalidateQueries({ queryKey: ['stray-credits'] });
    onChange?.();
  }
  return (
    <section className="card p-5" data-testid="stray-credits">
      <h2 className="mb-1 text-base text-ink">{t('payout.stray.title')}</h2>
      <p className="mb-3 text-xs leading-5 text-ink-faint">{t('payout.stray.hint')}</p>
      <ul className="divide-y divide-line">
        {q.data.list.map((c) => (
          <li key={c.paymentId} className="flex flex-wrap items-center justify-between gap-3 py-2.5 text-sm" data-testid="stray-credit" data-reason={c.reason}>
            <div className="min-w-0">
              <p className="text-ink">{t(`payout.stray.reasons.${c.reason}`)} · {t(`payment.methods.${c.provider as 'sandbox' | 'alipay'}.name`)}</p>
              <p className="tabular truncate text-xs text-ink-faint">{formatCnDateTime(c.creditedAt)} · {c.orderNo}</p>
            </div>
            <div className="flex items-center gap-3">
              <span className="tabular font-medium text-ink">{formatFen(c.amountFen)}</span>
              {c.refund && <span className="text-xs text-ink-soft" data-testid="stray-refund-status" data-status={c.refund.status}>{t(`payout.stray.states.${c.refund.status}`)}</span>}
              {c.refundable && (
                <button type="button" className="rounded-control border border-brand px-3 py-1 text-brand hover:bg-brand-soft disabled:opacity-50" disabled={busy !== null} onClick={() => void refund(c.paymentId)} data-testid="stray-refund">
                  {busy === c.paymentId && <Spinner />}
                  {t('payout.stray.refund')}
                </button>
              )}
            </div>
          </li>
        ))}
      </ul>
    </section>
  );
}
