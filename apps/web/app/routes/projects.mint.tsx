import { useTranslation } from '../i18n/index.ts';
import { ComingSoon } from '../components/ui/coming-soon.tsx';

/** Project mint page (/projects/mint/:id?) — placeholder until its issue lands. */
export default function Page() {
  const { t } = useTranslation();
  return <ComingSoon title={t('pages.projectMint.title')} description={t('pages.projectMint.description')} />;
}
