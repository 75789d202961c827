import { useEffect, type ReactNode } from 'react';
import { useLocation } from 'react-router';
import { useTranslation } from '../i18n/index.ts';
import { Seo } from '../components/ui/seo.tsx';
import { AvatarPicker } from '../features/account/components/avatar-picker.tsx';
import { CancelSection } from '../features/account/components/cancel-section.tsx';
import { ExportSection } from '../features/account/components/export-section.tsx';
import { NicknameForm } from '../features/account/components/nickname-form.tsx';
import { PrivacySection } from '../features/account/components/privacy-section.tsx';
import { SecurityEvents, SessionsSection } from '../features/account/components/sessions-section.tsx';
import { SecuritySection } from '../features/account/components/security-section.tsx';
import { RealnameSection } from '../features/realname/components/realname-section.tsx';

/** Hash anchors of this page (the trading gate links #realname). */
const ANCHORS = new Set(['#realname', '#security', '#sessions', '#privacy', '#export', '#cancel']);

/**
 * Account settings (navigation index 3): avatar, nickname, real-name verification, security (change
 * phone and password), signed-in devices, recent security activity, privacy switches, personal-data
 * export and account cancellation.
 */
export default function AccountSettings() {
  const { t } = useTranslation();
  const { hash } = useLocation();
  // /personal-center/account-settings#realname (the trading gate's link): after the route's scroll-to-top.
  useEffect(() => {
    if (!ANCHORS.has(hash)) return;
    const id = setTimeout(() => document.getElementById(hash.slice(1))?.scrollIntoView({ block: 'start' }), 80);
    return () => clearTimeout(id);
  }, [hash]);
  const section = (id: string, title: string, body: ReactNode, hint?: string) => (
    <section className="card scroll-mt-24 p-6" id={id} aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`} className={`text-lg text-ink ${hint ? '' : 'mb-4'}`}>
        {title}
      </h2>
      {hint && <p className="mb-3 mt-1 text-xs text-ink-faint">{hint}</p>}
      {body}
    </section>
  );
  return (
    <div className="space-y-6" data-testid="account-settings">
      <Seo title={t('settings.title')} description={t('pages.personalCenter.description')} />
      <section className="card p-6">
        <h1 className="mb-5 text-lg text-ink">{t('settings.profile')}</h1>
        <h2 className="mb-3 text-sm font-medium text-ink-soft">{t('settings.avatar')}</h2>
        <AvatarPicker />
        <div className="my-6 h-px bg-line" />
        <NicknameForm />
      </section>
      {section('realname', t('realname.title'), <RealnameSection />)}
      {section('security', t('settings.security'), <SecuritySection />, t('settings.securityHint'))}
      {section('sessions', t('security.sessions.title'), <SessionsSection />)}
      {section('security-activity', t('security.events.title'), <SecurityEvents />)}
      {section('privacy', t('settings.privacy'), <PrivacySection />)}
      {section('export', t('privacy.export.title'), <ExportSection />)}
      {section('cancel', t('privacy.cancel.title'), <CancelSection />)}
    </div>
  );
}
