import { useEffect, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { useTranslation } from '../i18n/index.ts';
import { QueryProvider } from '../components/query-provider.tsx';
import { Seo } from '../components/ui/seo.tsx';
import { LoadingBlock, Spinner } from '../components/ui/spinner.tsx';
import { useUserStore } from '../stores/user.ts';
import { DeadlineCountdown } from '../components/countdown/countdown.tsx';
import { OrderSummary } from '../features/orders/components/order-summary.tsx';
import { useOrder } from '../lib/orders/use-order.ts';
import { goodsPath, isAwaitingPayment, isClosed, paymentStatusPath as statusPath, textGroup } from '../lib/orders/status.ts';
import { PayPanel } from '../features/payment/components/pay-panel.tsx';
import { WechatQrPanel } from '../features/payment/components/wechat-qr-panel.tsx';
import type { PayMethod } from '../features/payment/api/types.ts';
import { useAuthOverlay } from '../stores/app-stores.ts';

const METHODS: PayMethod[] = ['sandbox', 'alipay', 'wechat', 'balance', 'card'];

/**
 * Payment (/pay?orderNo=…[&method=…]): the order summary and countdown, the payment methods the
 * server offers (sandbox cashier by default, Alipay when configured, the platform balance) and the
 * pay button. The pay answer decides what happens: a cashier / Alipay URL to leave for, WeChat Pay's
 * code_url shown here as a QR code (wechat-qr-panel.tsx), or a balance payment that is already paid. The cashier sends the buyer back here; once the order is
 * paid (notify received) the status page takes over (personal-center pamentSuccess).
 */
export default function Pay() {
  const { t } = useTranslation();
  return (
    <QueryProvider>
      <Seo title={t('pages.pay.title')} description={t('pages.pay.description')} />
      <div className="page-width max-w-3xl py-8" data-testid="pay-page">
        <h1 className="mb-5 text-2xl text-ink">{t('payment.title')}</h1>
        <PayGate />
      </div>
    </QueryProvider>
  );
}

function PayGate() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const hydrated = useUserStore((s) => s.hydrated);
  const token = useUserStore((s) => s.token);
  const orderNo = params.get('orderNo') ?? '';
  if (!hydrated) return <LoadingBlock label={t('common.loading')} />;
  if (!token) {
    return (
      <div className="card p-8 text-center" data-testid="pay-guest">
        <p className="text-ink-soft">{t('payment.loginToPay')}</p>
        <button type="button" className="btn-primary mt-4" onClick={() => useAuthOverlay.getState().openOverlay('login')}>
          {t('header.login')}
        </button>
      </div>
    );
  }
  if (!/^[A-Za-z0-9_-]{1,40}$/.test(orderNo)) {
    return (
      <div className="card p-8 text-center" data-testid="pay-no-order">
        <p className="text-ink-soft">{t('payment.noOrder')}</p>
        <Link to="/personal-center/txn-details?tab=buy&status=pending" className="btn-primary mt-4">
          {t('orders.myPending')}
        </Link>
      </div>
    );
  }
  const m = params.get('method');
  return <PayOrder orderNo={orderNo} preferred={METHODS.includes(m as PayMethod) ? (m as PayMethod) : null} />;
}

function PayOrder({ orderNo, preferred }: { orderNo: string; preferred: PayMethod | null }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const q = useOrder(orderNo, { pollMs: 2000 });
  const status = q.data?.status;
  const settled = status !== undefined && !isAwaitingPayment(status) && !isClosed(status);
  // WeChat Pay Native: the code_url to show as a QR code (null: choosing a method).
  const [qr, setQr] = useState<string | null>(null);

  // Paid (balance, or the cashier's notify arrived): the status page follows the settlement.
  useEffect(() => {
    if (settled) void navigate(statusPath(orderNo), { replace: true });
  }, [settled, orderNo, navigate]);

  if (q.isPending || settled) return <LoadingBlock label={t('common.loading')} />;
  if (q.isError) {
    return (
      <div className="card p-8 text-center" data-testid="pay-error-page">
        <p className="text-danger" role="alert">
          {q.error.message || t('orders.loadFailed')}
        </p>
        <button type="button" className="btn-ghost mt-4" onClick={() => void q.refetch()}>
          {t('common.retry')}
        </button>
      </div>
    );
  }
  const o = q.data;
  const closed = isClosed(o.status) || o.remainingMs <= 0;
  return (
    <div className="space-y-5" data-testid="pay-order" data-status={o.status}>
      {!closed && (
        <div className="flex flex-wrap items-center justify-between gap-2 rounded-card bg-warning/10 px-5 py-4">
          <p className="text-sm text-warning">{o.status === 'paying' && !qr ? t('payment.confirming') : t('payment.payBefore')}</p>
          <p className="text-sm text-warning">
            {t('orders.payWithin')} <DeadlineCountdown deadline={q.deadline} className="text-lg text-warning" onEnd={() => void q.refetch()} />
          </p>
        </div>
      )}
      {o.status === 'paying' && !closed && !qr && (
        <p className="flex items-center gap-2 text-sm text-ink-soft" role="status" data-testid="pay-confirming">
          <Spinner /> {t('payment.confirmingHint')}
        </p>
      )}
      <section className="card p-6">
        <OrderSummary order={o} compact />
      </section>
      {closed ? (
        <div className="card p-6 text-center" data-testid="pay-closed">
          <p className="text-ink-soft">{t(`${textGroup(o.kind)}.explain.${isClosed(o.status) ? o.status : 'expired'}`)}</p>
          <Link to={goodsPath(o)} className="btn-ghost mt-4">
            {t(o.kind === 'drop' ? 'orders.backToRelease' : 'orders.backToAsset')}
          </Link>
        </div>
      ) : o.role !== 'buyer' ? (
        <p className="card p-6 text-sm text-ink-soft">{t('payment.sellerView')}</p>
      ) : qr ? (
        <section className="card p-6">
          <WechatQrPanel orderNo={o.orderNo} codeUrl={qr} amountFen={o.priceFen} onPaid={() => void navigate(statusPath(o.orderNo), { replace: true })} onBack={() => setQr(null)} />
        </section>
      ) : (
        <section className="card p-6">
          <PayPanel
            orderNo={o.orderNo}
            preferred={preferred ?? o.payMethod}
            onResult={(r) => {
              if (r.method === 'wechat' && r.payUrl) setQr(r.payUrl);
              else if (r.payUrl) window.location.assign(r.payUrl);
              else void navigate(statusPath(o.orderNo), { replace: true });
            }}
          />
        </section>
      )}
    </div>
  );
}
