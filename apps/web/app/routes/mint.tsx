import { useTranslation } from '../i18n/index.ts';
import { ComingSoon } from '../components/ui/coming-soon.tsx';

/** Mint (/mint) — placeholder until its issue lands. */
export default function Page() {
  const { t } = useTranslation();
  return <ComingSoon title={t('pages.mint.title')} description={t('pages.mint.description')} />;
}
