import { useTranslation } from '../i18n/index.ts';
import { Seo } from '../components/ui/seo.tsx';
import { InvitePanel } from '../features/account/components/invite-panel.tsx';

/** Invite friends (navigation index 7). */
export default function Invite() {
  const { t } = useTranslation();
  return (
    <section className="card p-6" data-testid="invite-page">
      <Seo title={t('invite.title')} description={t('pages.personalCenter.description')} />
      <h1 className="mb-4 text-lg text-ink">{t('invite.title')}</h1>
      <InvitePanel />
    </section>
  );
}
