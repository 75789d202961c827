import { useTranslation } from '../i18n/index.ts';
import { ComingSoon } from '../components/ui/coming-soon.tsx';

/** Personal center: contact service — placeholder until its issue lands. */
export default function Page() {
  const { t } = useTranslation();
  return <ComingSoon bare title={t('pc.nav.contactService')} />;
}
