import { useNavigate, useSearchParams } from 'react-router';
import { useTranslation } from '../i18n/index.ts';
import { Seo } from '../components/ui/seo.tsx';
import { MethodRedirect, NoOrder } from '../features/payment/components/method-pages.tsx';
import { paymentStatusPath } from '../features/orders/status.ts';

/** Personal center: Payment2 (/personal-center/conmponents/Payment2?orderNo=…): pays in the sandbox cashier (the development provider). */
export default function Page() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const orderNo = params.get('orderNo') ?? '';
  return (
    <>
      <Seo title={t('pc.pages.payment2')} description={t('pages.personalCenter.description')} />
      {orderNo ? (
        <MethodRedirect orderNo={orderNo} method="sandbox" onPaid={() => void navigate(paymentStatusPath(orderNo), { replace: true })} />
      ) : (
        <NoOrder title={t('pc.pages.payment2')} />
      )}
    </>
  );
}
