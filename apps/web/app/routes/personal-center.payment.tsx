import { Link } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from '../i18n/index.ts';
import { Seo } from '../components/ui/seo.tsx';
import { BalancePanel } from '../features/payment/components/balance-panel.tsx';
import { WithdrawPanel } from '../features/payout/components/withdraw-panel.tsx';
import { StrayCredits } from '../features/payout/components/stray-credits.tsx';

/** Personal center: payment (navigation 4) — the platform balance and its latest movements, withdrawals to the bound card, refunds of stray payments. */
export default function Payment() {
  const { t } = useTranslation();
  const qc = useQueryClient();
  // Withdrawals and refunds move the balance: show it again when one changes.
  const refreshBalance = () => void qc.invalidateQueries({ queryKey: ['balance'] });
  return (
    <div className="space-y-6" data-testid="pc-payment">
      <Seo title={t('pc.nav.payment')} description={t('pages.personalCenter.description')} />
      <section className="card p-5">
        <div className="mb-4 flex flex-wrap items-center justify-between gap-2">
          <h1 className="text-lg text-ink">{t('payment.balanceTitle')}</h1>
          <Link to="/personal-center/txn-details?tab=buy&status=pending" className="text-sm text-brand hover:underline">
            {t('orders.myPending')}
          </Link>
        </div>
        <BalancePanel />
      </section>
      <WithdrawPanel onChange={refreshBalance} />
      <StrayCredits onChange={refreshBalance} />
      <section className="card p-5 text-sm text-ink-soft">
        <h2 className="mb-2 text-base text-ink">{t('payment.methodsTitle')}</h2>
        <ul className="list-disc space-y-1 pl-5">
          <li>{t('payment.methods.sandbox.name')} — {t('payment.methods.sandbox.desc')}</li>
          <li>{t('payment.methods.alipay.name')} — {t('payment.methods.alipay.desc')}</li>
          <li>{t('payment.methods.balance.name')} — {t('payment.balanceUse')}</li>
        </ul>
      </section>
    </div>
  );
}
