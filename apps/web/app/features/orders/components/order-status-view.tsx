import { Link } from 'react-router';
import { useTranslation } from '../../../i18n/index.ts';
import { LoadingBlock, Spinner } from '../../../components/ui/spinner.tsx';
import type { OrderStatus } from '../../../lib/orders/types.ts';
import { goodsPath, isFinal, textGroup } from '../../../lib/orders/status.ts';
import { OrderProgress } from './order-progress.tsx';
import { OrderSummary } from './order-summary.tsx';
import { OrderTimeline } from './order-timeline.tsx';
import { useOrder } from '../../../lib/orders/use-order.ts';

const TONE: Partial<Record<OrderStatus, string>> = { completed: 'text-success', refunded: 'text-danger', cancelled: 'text-ink-soft', expired: 'text-ink-soft' };

/**
 * After paying (personal-center pamentSuccess): polls getNftOrderDetail until the order is final —
 * paid → settling (the operator executes the seller's signed order on chain) → completed — with the
 * progress bar, the timeline and the settlement transaction.
 */
export function OrderStatusView({ orderNo }: { orderNo: string }) {
  const { t } = useTranslation();
  const q = useOrder(orderNo);
  if (q.isPending) return <LoadingBlock label={t('orders.loading')} />;
  if (q.isError) {
    return (
      <div className="card p-8 text-center" data-testid="payment-status" data-status="error">
        <p className="text-ink-soft">{q.error.message || t('orders.loadFailed')}</p>
        <button type="button" className="btn-ghost mt-4" onClick={() => void q.refetch()}>
          {t('common.retry')}
        </button>
      </div>
    );
  }
  const o = q.data;
  const final = isFinal(o.status);
  return (
    <div className="space-y-6" data-testid="payment-status" data-status={o.status}>
      <section className="card p-6 text-center">
        <p className={`text-2xl font-semibold ${TONE[o.status] ?? 'text-ink'}`} data-testid="payment-status-title">
          {t(`${textGroup(o.kind)}.headline.${o.status}`)}
        </p>
        <p className="mt-2 text-sm text-ink-soft" data-testid="payment-status-text">
          {t(`${textGroup(o.kind)}.explain.${o.status}`)}
        </p>
        {!final && (
          <p className="mt-3 inline-flex items-center gap-2 text-xs text-ink-faint" role="status">
            <Spinner /> {t('orders.polling')}
          </p>
        )}
        <div className="mx-auto mt-6 max-w-lg">
          <OrderProgress order={o} />
        </div>
        <div className="mt-6 flex flex-wrap justify-center gap-2">
          <Link to={goodsPath(o)} className="btn-ghost" data-testid="payment-status-asset">
            {t('orders.viewAsset')}
          </Link>
          <Link to={`/personal-center/txn-details?orderNo=${encodeURIComponent(o.orderNo)}`} className="btn-ghost" data-testid="payment-status-detail">
            {t('orders.viewDetail')}
          </Link>
          {o.status === 'completed' && (
            <Link to="/personal-center" className="btn-primary" data-testid="payment-status-assets">
              {t('orders.myAssets')}
            </Link>
          )}
        </div>
      </section>
      <section className="card p-6">
        <OrderSummary order={o} />
      </section>
      <section className="card p-6">
        <h2 className="mb-4 text-base text-ink">{t('orders.timeline')}</h2>
        <OrderTimeline events={o.timeline} />
      </section>
    </div>
  );
}
