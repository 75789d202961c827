import { useNavigate, useSearchParams } from 'react-router';
import { useTranslation } from '../i18n/index.ts';
import { Seo } from '../components/ui/seo.tsx';
import { BalancePay, NoOrder } from '../features/payment/components/method-pages.tsx';
import { paymentStatusPath } from '../features/orders/status.ts';

/** Personal center: Payment3 (/personal-center/conmponents/Payment3?orderNo=…): pays from the platform balance. */
export default function Page() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const orderNo = params.get('orderNo') ?? '';
  return (
    <>
      <Seo title={t('pc.pages.payment3')} description={t('pages.personalCenter.description')} />
      {orderNo ? <BalancePay orderNo={orderNo} onPaid={() => void navigate(paymentStatusPath(orderNo), { replace: true })} /> : <NoOrder title={t('pc.pages.payment3')} />}
    </>
  );
}
