import { useTranslation } from 'react-i18next';
import { ComingSoon } from '../components/ui/coming-soon.tsx';

/** Personal center: payment success (/personal-center/conmponents/pamentSuccess) — placeholder until its issue lands. */
export default function Page() {
  const { t } = useTranslation();
  return <ComingSoon bare title={t('pc.pages.paymentSuccess')} />;
}
