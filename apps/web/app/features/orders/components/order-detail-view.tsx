import { Link } from 'react-router';
import { useTranslation } from '../../../i18n/index.ts';
import { LoadingBlock } from '../../../components/ui/spinner.tsx';
import { useCancelOrder } from '../hooks/use-cancel-order.ts';
import { isAwaitingPayment } from '../../../lib/orders/status.ts';
import { DeadlineCountdown } from '../../../components/countdown/countdown.tsx';
import { OrderProgress } from './order-progress.tsx';
import { OrderSummary } from './order-summary.tsx';
import { OrderTimeline } from './order-timeline.tsx';
import { useOrder } from '../../../lib/orders/use-order.ts';

/** An order in the personal center: summary, progress, timeline; the buyer of an unpaid order can pay or cancel it. */
export function OrderDetailView({ orderNo, backTo }: { orderNo: string; backTo: string }) {
  const { t } = useTranslation();
  const q = useOrder(orderNo, { pollMs: 3000 });
  const cancel = useCancelOrder(() => void q.refetch());
  if (q.isPending) return <LoadingBlock label={t('orders.loading')} />;
  if (q.isError) {
    return (
      <div className="card p-8 text-center" data-testid="order-detail" data-status="error">
        <p className="text-ink-soft">{q.error.message || t('orders.loadFailed')}</p>
        <Link to={backTo} className="btn-ghost mt-4">
          {t('orders.back')}
        </Link>
      </div>
    );
  }
  const o = q.data;
  const awaiting = isAwaitingPayment(o.status) && o.remainingMs > 0;
  return (
    <div className="space-y-6" data-testid="order-detail" data-status={o.status}>
      <Link to={backTo} className="text-sm text-brand hover:underline" data-testid="order-detail-back">
        ← {t('orders.back')}
      </Link>
      <section className="card p-6">
        <OrderSummary order={o} />
        {awaiting && o.role === 'buyer' && (
          <div className="mt-5 flex flex-wrap items-center justify-between gap-3 rounded-control bg-warning/10 px-4 py-3">
            <p className="text-sm text-warning">
              {t('orders.payWithin')} <DeadlineCountdown deadline={q.deadline} onEnd={() => void q.refetch()} />
            </p>
            <div className="flex gap-2">
              <button type="button" className="btn-ghost h-9" disabled={cancel.isPending} onClick={() => cancel.mutate(o.orderNo)} data-testid="order-cancel">
                {t('orders.cancel')}
              </button>
              <Link to={`/pay?orderNo=${encodeURIComponent(o.orderNo)}`} className="btn-primary h-9" data-testid="order-pay">
                {t('orders.goPay')}
              </Link>
            </div>
          </div>
        )}
        <div className="mt-6">
          <OrderProgress order={o} />
        </div>
      </section>
      <section className="card p-6">
        <h2 className="mb-4 text-base text-ink">{t('orders.timeline')}</h2>
        <OrderTimeline events={o.timeline} />
      </section>
    </div>
  );
}
