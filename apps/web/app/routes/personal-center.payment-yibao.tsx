import { useTranslation } from '../i18n/index.ts';
import { Seo } from '../components/ui/seo.tsx';
import { AccountPanel } from '../features/payout/components/account-panel.tsx';

/** Personal center: the payout account (/personal-center/paymentYibao) — open it, its state, a creator's merchant and split relation. */
export default function Page() {
  const { t } = useTranslation();
  return (
    <div className="space-y-4" data-testid="pc-payment-yibao">
      <Seo title={t('pc.pages.paymentYibao')} description={t('pages.personalCenter.description')} />
      <h1 className="text-lg text-ink">{t('pc.pages.paymentYibao')}</h1>
      <AccountPanel />
    </div>
  );
}
