import { useTranslation } from 'react-i18next';
import { ComingSoon } from '../components/ui/coming-soon.tsx';

/** Collectible detail (/assets/:id) — placeholder until its issue lands. */
export default function Page() {
  const { t } = useTranslation();
  return <ComingSoon title={t('pages.asset.title')} description={t('pages.asset.description')} />;
}
