import { useTranslation } from 'react-i18next';
import { ComingSoon } from '../components/ui/coming-soon.tsx';

/** Project detail (/projects/detail/:id?) — placeholder until its issue lands. */
export default function Page() {
  const { t } = useTranslation();
  return <ComingSoon title={t('pages.projectDetail.title')} description={t('pages.projectDetail.description')} />;
}
