import { useTranslation } from '../i18n/index.ts';
import { Seo } from '../components/ui/seo.tsx';
import { MessageCenter } from '../features/messages/components/message-center.tsx';

/** Personal center: message center (navigation index 5) — my messages and their settings (features/messages). */
export default function Page() {
  const { t } = useTranslation();
  return (
    <>
      <Seo title={t('messageCenter.title')} description={t('pages.personalCenter.description')} />
      <MessageCenter />
    </>
  );
}
