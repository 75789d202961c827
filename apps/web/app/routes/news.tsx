import { useTranslation } from 'react-i18next';
import { ComingSoon } from '../components/ui/coming-soon.tsx';

/** News list (/news) — placeholder until its issue lands. */
export default function Page() {
  const { t } = useTranslation();
  return <ComingSoon title={t('pages.news.title')} description={t('pages.news.description')} />;
}
