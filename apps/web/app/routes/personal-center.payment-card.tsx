import { useSearchParams } from 'react-router';
import { useTranslation } from '../i18n/index.ts';
import { Seo } from '../components/ui/seo.tsx';
import { CardPayUnavailable } from '../features/payment/components/method-pages.tsx';

/** Personal center: PaymentCard (/personal-center/conmponents/PaymentCard): bank-card payment is not offered; links to the other methods. */
export default function Page() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  return (
    <>
      <Seo title={t('pc.pages.paymentCard')} description={t('pages.personalCenter.description')} />
      <CardPayUnavailable orderNo={params.get('orderNo') ?? ''} />
    </>
  );
}
