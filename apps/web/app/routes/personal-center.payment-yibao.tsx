import { useTranslation } from '../i18n/index.ts';
import { ComingSoon } from '../components/ui/coming-soon.tsx';

/** Personal center: YeePay payment (/personal-center/paymentYibao) — placeholder until its issue lands. */
export default function Page() {
  const { t } = useTranslation();
  return <ComingSoon bare title={t('pc.pages.paymentYibao')} />;
}
