import { useNavigate, useSearchParams } from 'react-router';
import { useTranslation } from '../i18n/index.ts';
import { Seo } from '../components/ui/seo.tsx';
import { MethodRedirect, NoOrder } from '../features/payment/components/method-pages.tsx';
import { paymentStatusPath } from '../features/orders/status.ts';

/** Personal center: Alipay (/personal-center/conmponents/alipay?orderNo=…): starts an Alipay payment and leaves for Alipay's page; says so when Alipay is not configured. */
export default function Page() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const orderNo = params.get('orderNo') ?? '';
  return (
    <>
      <Seo title={t('pc.pages.alipay')} description={t('pages.personalCenter.description')} />
      {orderNo ? (
        <MethodRedirect orderNo={orderNo} method="alipay" onPaid={() => void navigate(paymentStatusPath(orderNo), { replace: true })} />
      ) : (
        <NoOrder title={t('pc.pages.alipay')} />
      )}
    </>
  );
}
