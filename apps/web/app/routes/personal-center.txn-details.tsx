import { useSearchParams } from 'react-router';
import { useTranslation } from '../i18n/index.ts';
import { LinkTabs } from '../components/ui/link-tabs.tsx';
import { Seo } from '../components/ui/seo.tsx';
import { OrderDetailView } from '../features/orders/components/order-detail-view.tsx';
import { DealList, OrderList } from '../features/orders/components/order-lists.tsx';
import { BidList } from '../features/personal/components/sales-and-bids.tsx';

const TABS = ['buy', 'sell', 'receipts', 'bids'] as const;
type Tab = (typeof TABS)[number];

/**
 * Personal center: transaction details (navigation 1) — buy records, sale records, sale receipts
 * (completed deals with the chain tx) and my bids (?tab=); ?orderNo= shows one order with its timeline.
 */
export default function TxnDetails() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const orderNo = params.get('orderNo');
  const raw = params.get('tab') ?? 'buy';
  const tab: Tab = (TABS as readonly string[]).includes(raw) ? (raw as Tab) : 'buy';
  return (
    <div data-testid="txn-details" data-tab={orderNo ? 'order' : tab}>
      <Seo title={t('pc.nav.txnDetails')} description={t('pages.personalCenter.description')} />
      {orderNo ? (
        <OrderDetailView orderNo={orderNo} backTo="/personal-center/txn-details" />
      ) : (
        <section className="card p-5">
          <h1 className="mb-4 text-lg text-ink">{t('pc.nav.txnDetails')}</h1>
          <LinkTabs testId="txn-tabs" param="tab" defaultValue="buy" value={tab} label={t('pc.nav.txnDetails')} tabs={TABS.map((v) => ({ value: v, label: t(`personal.txnTabs.${v}`) }))} />
          <div className="mt-5">
            {tab === 'buy' && <OrderList role="buyer" />}
            {tab === 'sell' && <OrderList role="seller" />}
            {tab === 'receipts' && <DealList />}
            {tab === 'bids' && <BidList type="sent" />}
          </div>
        </section>
      )}
    </div>
  );
}
