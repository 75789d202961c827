import { useTranslation } from '../i18n/index.ts';
import { Seo } from '../components/ui/seo.tsx';
import { CardManagement } from '../features/payout/components/card-panel.tsx';

/** Personal center: payment management — my bank card (bind, replace, reserved phone, unbind) and the ID-card photos. */
export default function Page() {
  const { t } = useTranslation();
  return (
    <div className="space-y-4" data-testid="pc-payment-management">
      <Seo title={t('pc.pages.paymentManagement')} description={t('pages.personalCenter.description')} />
      <h1 className="text-lg text-ink">{t('pc.pages.paymentManagement')}</h1>
      <CardManagement />
    </div>
  );
}
