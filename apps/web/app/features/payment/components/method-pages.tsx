/**
 * The personal center's payment variants (spec §2 conmponents/alipay, Payment2, Payment3,
 * PaymentCard): one payment method each, for an order given as ?orderNo=.
 */
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { useTranslation } from '../../../i18n/index.ts';
import { formatFen } from '@cfx/protocol/money.ts';
import { Price } from '../../../components/ui/price.tsx';
import { LoadingBlock, Spinner } from '../../../components/ui/spinner.tsx';
import { useUserStore } from '../../../stores/user.ts';
import { payOrder } from '../api/pay-order.ts';
import { queryAmount } from '../api/query-amount.ts';
import type { PayMethod, PayResult } from '../api/types.ts';

function useAmount(orderNo: string) {
  const token = useUserStore((s) => s.token);
  return useQuery({ queryKey: ['pay-amount', orderNo, token], queryFn: () => queryAmount(orderNo), enabled: token !== '' && orderNo !== '', staleTime: 0 });
}

function Shell({ title, testId, status, children }: { title: string; testId: string; status: string; children: ReactNode }) {
  return (
    <section className="card p-6" data-testid={testId} data-status={status}>
      <h1 className="mb-4 text-lg text-ink">{title}</h1>
      {children}
    </section>
  );
}

/** No order given: these pages are reached from an order. */
export function NoOrder({ title }: { title: string }) {
  const { t } = useTranslation();
  return (
    <Shell title={title} testId="payment-variant" status="no-order">
      <p className="text-sm text-ink-soft">{t('payment.noOrder')}</p>
      <Link to="/personal-center/txn-details?tab=buy&status=pending" className="btn-primary mt-4">
        {t('orders.myPending')}
      </Link>
    </Shell>
  );
}

/**
 * Alipay (conmponents/alipay) or the sandbox cashier (conmponents/Payment2): starts the payment with
 * that method and leaves for the provider's page; unavailable methods say so and link to /pay.
 */
export function MethodRedirect({ orderNo, method, onPaid }: { orderNo: string; method: Extract<PayMethod, 'alipay' | 'sandbox'>; onPaid: (r: PayResult) => void }) {
  const { t } = useTranslation();
  const q = useAmount(orderNo);
  const [state, setState] = useState<{ status: 'idle' | 'starting' | 'leaving' } | { status: 'failed'; message: string }>({ status: 'idle' });
  const started = useRef(false);
  const available = q.data ? q.data.methods.includes(method) && (q.data.status === 'created' || q.data.status === 'paying') : false;

  const start = async () => {
    setState({ status: 'starting' });
    const r = await payOrder({ orderNo, method });
    if (r.ok && r.data) {
      if (r.data.payUrl) {
        setState({ status: 'leaving' });
        window.location.assign(r.data.payUrl);
      } else onPaid(r.data);
    } else setState({ status: 'failed', message: r.networkError ? t('payment.network') : r.message || t('common.requestFailed') });
  };

  useEffect(() => {
    if (available && !started.current) {
      started.current = true;
      void start();
    }
    // Started once, when the method is known to be available.
  }, [available]);

  const title = t(`payment.methods.${method}.name`);
  if (q.isPending) return <Shell title={title} testId="payment-variant" status="loading"><LoadingBlock label={t('common.loading')} /></Shell>;
  if (q.isError) {
    return (
      <Shell title={title} testId="payment-variant" status="error">
        <p className="text-sm text-danger">{q.error.message || t('payment.loadFailed')}</p>
      </Shell>
    );
  }
  if (!available) {
    return (
      <Shell title={title} testId="payment-variant" status="unavailable">
        <p className="text-sm text-ink-soft">{q.data.methods.includes(method) ? t('payment.notPayable') : t('payment.methodUnavailable')}</p>
        <Link to={`/pay?orderNo=${encodeURIComponent(orderNo)}`} className="btn-primary mt-4">
          {t('payment.otherMethods')}
        </Link>
      </Shell>
    );
  }
  return (
    <Shell title={title} testId="payment-variant" status={state.status}>
      <p className="text-sm text-ink-soft">
        {t('payment.toPay')} <Price fen={q.data.amountFen} className="text-lg font-bold text-brand" />
      </p>
      {state.status === 'failed' ? (
        <>
          <p className="mt-3 text-sm text-danger" role="alert">
            {state.message}
          </p>
          <button type="button" className="btn-primary mt-4" onClick={() => void start()}>
            {t('common.retry')}
          </button>
        </>
      ) : (
        <p className="mt-3 flex items-center gap-2 text-sm text-ink-faint" role="status">
          <Spinner /> {t('payment.redirecting')}
        </p>
      )}
    </Shell>
  );
}

/** The platform balance (conmponents/Payment3): amount, balance, pay. */
export function BalancePay({ orderNo, onPaid }: { orderNo: string; onPaid: (r: PayResult) => void }) {
  const { t } = useTranslation();
  const q = useAmount(orderNo);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');
  const title = t('payment.methods.balance.name');
  if (q.isPending) return <Shell title={title} testId="payment-variant" status="loading"><LoadingBlock label={t('common.loading')} /></Shell>;
  if (q.isError) {
    return (
      <Shell title={title} testId="payment-variant" status="error">
        <p className="text-sm text-danger">{q.error.message || t('payment.loadFailed')}</p>
      </Shell>
    );
  }
  const a = q.data;
  const payable = a.status === 'created' || a.status === 'paying';
  const short = a.balanceFen < a.amountFen;
  const pay = async () => {
    setBusy(true);
    setError('');
    const r = await payOrder({ orderNo, method: 'balance' });
    setBusy(false);
    if (r.ok && r.data) onPaid(r.data);
    else setError(r.networkError ? t('payment.network') : r.message || t('common.requestFailed'));
  };
  return (
    <Shell title={title} testId="payment-variant" status={payable ? 'ready' : 'unavailable'}>
      <dl className="space-y-2 text-sm">
        <div className="flex justify-between">
          <dt className="text-ink-faint">{t('payment.toPay')}</dt>
          <dd>
            <Price fen={a.amountFen} className="font-semibold text-brand" />
          </dd>
        </div>
        <div className="flex justify-between">
          <dt className="text-ink-faint">{t('payment.available')}</dt>
          <dd className={`tabular ${short ? 'text-danger' : 'text-ink'}`}>{formatFen(a.balanceFen)}</dd>
        </div>
      </dl>
      {error && (
        <p className="mt-3 text-sm text-danger" role="alert">
          {error}
        </p>
      )}
      {!payable ? (
        <p className="mt-4 text-sm text-ink-soft">{t('payment.notPayable')}</p>
      ) : (
        <div className="mt-5 flex flex-wrap justify-end gap-2">
          <Link to={`/pay?orderNo=${encodeURIComponent(orderNo)}`} className="btn-ghost">
            {t('payment.otherMethods')}
          </Link>
          <button type="button" className="btn-primary" disabled={busy || short} onClick={() => void pay()} data-testid="balance-pay">
            {busy && <Spinner />}
            {short ? t('payment.balanceShort') : t('payment.payFromBalance')}
          </button>
        </div>
      )}
    </Shell>
  );
}

/** Bank-card payment (conmponents/PaymentCard): not offered by this platform's providers. */
export function CardPayUnavailable({ orderNo }: { orderNo: string }) {
  const { t } = useTranslation();
  return (
    <Shell title={t('pc.pages.paymentCard')} testId="payment-variant" status="unavailable">
      <p className="text-sm text-ink-soft">{t('payment.cardUnavailable')}</p>
      {orderNo && (
        <Link to={`/pay?orderNo=${encodeURIComponent(orderNo)}`} className="btn-primary mt-4">
          {t('payment.otherMethods')}
        </Link>
      )}
    </Shell>
  );
}
