import { useSearchParams } from 'react-router';
import { useTranslation } from '../i18n/index.ts';
import { Seo } from '../components/ui/seo.tsx';
import { OrderStatusView } from '../features/orders/components/order-status-view.tsx';
import { NoOrder } from '../features/payment/components/method-pages.tsx';

/**
 * Personal center: payment result (/personal-center/conmponents/pamentSuccess?orderNo=…) — polls the
 * order until it is final: paid → settling (on chain) → completed, with the timeline.
 */
export default function PaymentSuccess() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const orderNo = params.get('orderNo') ?? '';
  return (
    <>
      <Seo title={t('pc.pages.paymentSuccess')} description={t('pages.personalCenter.description')} />
      {orderNo ? <OrderStatusView orderNo={orderNo} /> : <NoOrder title={t('pc.pages.paymentSuccess')} />}
    </>
  );
}
