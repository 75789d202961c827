import { useTranslation } from 'react-i18next';
import { ComingSoon } from '../components/ui/coming-soon.tsx';

/** Personal center: Payment3 (/personal-center/conmponents/Payment3) — placeholder until its issue lands. */
export default function Page() {
  const { t } = useTranslation();
  return <ComingSoon bare title={t('pc.pages.payment3')} />;
}
