import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from '../../../i18n/index.ts';
import { formatFen } from '@cfx/protocol/money.ts';
import { Price } from '../../../components/ui/price.tsx';
import { LoadingBlock, Spinner } from '../../../components/ui/spinner.tsx';
import { useUserStore } from '../../../stores/user.ts';
import { payOrder } from '../api/pay-order.ts';
import { queryAmount } from '../api/query-amount.ts';
import type { PayMethod, PayResult } from '../api/types.ts';
import { METHOD_ORDER as ORDER, defaultMethod } from '../methods.ts';
import { CardPayForm } from './card-pay-form.tsx';

/**
 * The payment methods of an unpaid order (queryAmount: what is available now and my balance) and
 * the pay button. `onResult` gets the pay answer: a `payUrl` to leave for (sandbox cashier /
 * Alipay), or `status: 'paid'` for a balance payment.
 */
export function PayPanel({ orderNo, preferred, onResult }: { orderNo: string; preferred?: PayMethod | null; onResult: (r: PayResult) => void }) {
  const { t } = useTranslation();
  const token = useUserStore((s) => s.token);
  const q = useQuery({ queryKey: ['pay-amount', orderNo, token], queryFn: () => queryAmount(orderNo), enabled: token !== '', staleTime: 0 });
  const [chosen, setChosen] = useState<PayMethod | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');

  if (q.isPending) return <LoadingBlock label={t('common.loading')} />;
  if (q.isError) {
    return (
      <div className="py-6 text-center text-sm text-ink-faint" data-testid="pay-methods-error">
        {q.error.message || t('payment.loadFailed')}{' '}
        <button type="button" className="text-brand hover:underline" onClick={() => void q.refetch()}>
          {t('common.retry')}
        </button>
      </div>
    );
  }
  const info = q.data;
  const method = chosen ?? defaultMethod(info.methods, preferred);
  const short = info.balanceFen < info.amountFen;

  const pay = async () => {
    if (!method || busy) return;
    setBusy(true);
    setError('');
    const r = await payOrder({ orderNo, method });
    if (r.ok && r.data) {
      onResult(r.data);
      // Leaving for the cashier: keep the button busy until the page changes.
      if (r.data.payUrl) return;
    } else {
      setError(r.networkError ? t('payment.network') : r.message || t('common.requestFailed'));
      void q.refetch();
    }
    setBusy(false);
  };

  return (
    <div data-testid="pay-methods" data-method={method ?? ''}>
      <fieldset>
        <legend className="mb-3 text-sm font-medium text-ink">{t('payment.chooseMethod')}</legend>
        <div className="space-y-2.5">
          {ORDER.filter((m) => info.methods.includes(m)).map((m) => {
            const disabled = m === 'balance' && short;
            return (
              <label
                key={m}
                className={`flex cursor-pointer items-center gap-3 rounded-control border px-4 py-3 transition-colors ${method === m ? 'border-brand bg-brand-soft/40' : 'border-line'} ${disabled ? 'cursor-not-allowed opacity-60' : 'hover:border-brand'}`}
                data-testid={`pay-method-${m}`}
              >
                <input type="radio" name="pay-method" value={m} checked={method === m} disabled={disabled} onChange={() => setChosen(m)} className="accent-[var(--color-brand)]" />
                <span className="min-w-0 flex-1">
                  <span className="block text-sm font-medium text-ink">{t(`payment.methods.${m}.name`)}</span>
                  <span className="block text-xs text-ink-faint">
                    {m === 'balance' ? t('payment.methods.balance.desc', { balance: formatFen(info.balanceFen) }) : t(`payment.methods.${m}.desc`)}
                    {disabled && <span className="ml-1 text-danger">{t('payment.balanceShort')}</span>}
                  </span>
                </span>
              </label>
            );
          })}
        </div>
      </fieldset>
      {error && (
        <p className="mt-3 rounded-control bg-danger/10 px-3 py-2 text-sm text-danger" role="alert" data-testid="pay-error">
          {error}
        </p>
      )}
      {method === 'card' ? (
        // A bound bank card: choose it, the bank's SMS code, confirm (card-pay-form.tsx).
        <div className="mt-5">
          <CardPayForm orderNo={orderNo} amountFen={info.amountFen} onConfirmed={(p) => onResult({ orderNo: p.orderNo, method: 'card', status: p.orderStatus, payUrl: null, expiresAt: p.expiresAt })} />
        </div>
      ) : (
        <div className="mt-5 flex items-center justify-between gap-3 border-t border-line pt-4">
          <p className="text-sm text-ink-soft">
            {t('payment.toPay')} <Price fen={info.amountFen} className="text-xl font-bold text-brand" testId="pay-amount" />
          </p>
          <button type="button" className="btn-primary h-11 min-w-36 text-base" disabled={!method || busy} onClick={() => void pay()} data-testid="pay-submit">
            {busy && <Spinner />}
            {t('payment.payNow')}
          </button>
        </div>
      )}
    </div>
  );
}
