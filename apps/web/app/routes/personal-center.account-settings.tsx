import { useEffect } from 'react';
import { useLocation } from 'react-router';
import { useTranslation } from '../i18n/index.ts';
import { Seo } from '../components/ui/seo.tsx';
import { AvatarPicker } from '../features/account/components/avatar-picker.tsx';
import { NicknameForm } from '../features/account/components/nickname-form.tsx';
import { PrivacySection, SecuritySection } from '../features/account/components/security-section.tsx';
import { RealnameSection } from '../features/realname/components/realname-section.tsx';

/** Account settings (navigation index 3): avatar, nickname, real-name verification, read-only security and privacy. */
export default function AccountSettings() {
  const { t } = useTranslation();
  const { hash } = useLocation();
  // /personal-center/account-settings#realname (the trading gate's link): after the route's scroll-to-top.
  useEffect(() => {
    if (hash !== '#realname') return;
    const id = setTimeout(() => document.getElementById('realname')?.scrollIntoView({ block: 'start' }), 80);
    return () => clearTimeout(id);
  }, [hash]);
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
      <section className="card scroll-mt-24 p-6" id="realname" aria-labelledby="realname-title">
        <h2 id="realname-title" className="mb-4 text-lg text-ink">
          {t('realname.title')}
        </h2>
        <RealnameSection />
      </section>
      <section className="card p-6">
        <h2 className="text-lg text-ink">{t('settings.security')}</h2>
        <p className="mb-3 mt-1 text-xs text-ink-faint">{t('settings.securityHint')}</p>
        <SecuritySection />
      </section>
      <section className="card p-6">
        <h2 className="mb-3 text-lg text-ink">{t('settings.privacy')}</h2>
        <PrivacySection />
      </section>
    </div>
  );
}
