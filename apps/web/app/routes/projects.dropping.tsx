import { useTranslation } from 'react-i18next';
import { ComingSoon } from '../components/ui/coming-soon.tsx';

/** Project dropping page (/projects/dropping/:id?) — placeholder until its issue lands. */
export default function Page() {
  const { t } = useTranslation();
  return <ComingSoon title={t('pages.projectDropping.title')} description={t('pages.projectDropping.description')} />;
}
