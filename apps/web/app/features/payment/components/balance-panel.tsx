import { useQuery } from '@tanstack/react-query';
import { useTranslation } from '../../../i18n/index.ts';
import { formatFen } from '@cfx/protocol/money.ts';
import { formatCnDateTime } from '../../../components/ui/cn-time.ts';
import { Price } from '../../../components/ui/price.tsx';
import { EmptyBlock, LoadingBlock } from '../../../components/ui/spinner.tsx';
import { useUserStore } from '../../../stores/user.ts';
import { getBalance } from '../api/get-balance.ts';

const KINDS = ['pay', 'credit', 'settle', 'refund', 'topup', 'suspense', 'withdraw', 'withdraw_failed', 'refund_out', 'refund_out_failed'] as const;
type Kind = (typeof KINDS)[number];

/** The platform balance (ledger): available, my payments still settling, and the latest movements. */
export function BalancePanel() {
  const { t } = useTranslation();
  const token = useUserStore((s) => s.token);
  const q = useQuery({ queryKey: ['balance', token], queryFn: getBalance, enabled: token !== '', staleTime: 5_000 });
  if (q.isPending) return <LoadingBlock label={t('common.loading')} />;
  if (q.isError) {
    return (
      <div className="py-8 text-center text-sm text-ink-faint" data-testid="balance-error">
        {t('payment.balanceFailed')}{' '}
        <button type="button" className="text-brand hover:underline" onClick={() => void q.refetch()}>
          {t('common.retry')}
        </button>
      </div>
    );
  }
  const b = q.data;
  return (
    <div data-testid="balance-panel">
      <div className="grid gap-4 sm:grid-cols-2">
        <div className="rounded-card bg-gradient-to-br from-brand to-brand-strong p-5 text-white">
          <p className="text-sm opacity-80">{t('payment.available')}</p>
          <p className="tabular mt-1 text-3xl font-bold" data-testid="balance-available">
            {formatFen(b.availableFen)}
          </p>
        </div>
        <div className="rounded-card border border-line p-5">
          <p className="text-sm text-ink-faint">{t('payment.inSettlement')}</p>
          <Price fen={b.inSettlementFen} className="mt-1 block text-2xl font-semibold text-ink" testId="balance-settling" />
          <p className="mt-1 text-xs text-ink-faint">{t('payment.inSettlementHint')}</p>
        </div>
      </div>
      <h3 className="mb-2 mt-6 text-sm font-medium text-ink">{t('payment.recent')}</h3>
      {b.recent.length === 0 ? (
        <EmptyBlock label={t('payment.noMovements')} />
      ) : (
        <ul className="divide-y divide-line" data-testid="balance-movements">
          {b.recent.map((m) => (
            <li key={`${m.txnId}`} className="flex items-center justify-between gap-3 py-2.5 text-sm" data-testid="balance-movement" data-kind={m.kind}>
              <div className="min-w-0">
                <p className="text-ink">{(KINDS as readonly string[]).includes(m.kind) ? t(`payment.kinds.${m.kind as Kind}`) : m.kind}</p>
                <p className="tabular truncate text-xs text-ink-faint">
                  {formatCnDateTime(m.at)}
                  {m.orderNo ? ` · ${m.orderNo}` : ''}
                </p>
              </div>
              <span className={`tabular font-medium ${m.amountFen >= 0 ? 'text-success' : 'text-ink'}`}>
                {m.amountFen >= 0 ? '+' : ''}
                {formatFen(m.amountFen)}
              </span>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
