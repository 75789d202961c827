import { useTranslation } from '../i18n/index.ts';
import { ComingSoon } from '../components/ui/coming-soon.tsx';

/** Project application (/project-enter) — placeholder until its issue lands. */
export default function Page() {
  const { t } = useTranslation();
  return <ComingSoon title={t('pages.projectEnter.title')} description={t('pages.projectEnter.description')} />;
}
