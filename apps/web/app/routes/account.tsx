import { useTranslation } from '../i18n/index.ts';
import { ComingSoon } from '../components/ui/coming-soon.tsx';

/** Catch-all under /account (content not shown in the spec) — placeholder until its issue lands. */
export default function Page() {
  const { t } = useTranslation();
  return <ComingSoon title={t('pages.account.title')} description={t('pages.account.description')} />;
}
