import { useTranslation } from '../i18n/index.ts';
import { ComingSoon } from '../components/ui/coming-soon.tsx';

/** Personal center: make (content not shown in the spec) — placeholder until its issue lands. */
export default function Page() {
  const { t } = useTranslation();
  return <ComingSoon bare title={t('pc.pages.make')} />;
}
