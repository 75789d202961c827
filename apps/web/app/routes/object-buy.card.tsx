import { useTranslation } from 'react-i18next';
import { ComingSoon } from '../components/ui/coming-soon.tsx';

/** Buy flow card (/object-buy/conponents/card) — placeholder until its issue lands. */
export default function Page() {
  const { t } = useTranslation();
  return <ComingSoon title={t('pages.objectBuyCard.title')} description={t('pages.objectBuyCard.description')} />;
}
