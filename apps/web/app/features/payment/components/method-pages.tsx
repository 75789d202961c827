/**
 * The personal center's payment-method pages (conmponents/alipay, Payment2, Payment3,
 * PaymentCard) as one component parameterised by the method: each route renders
 * <PaymentMethodPage method=…/> for the order given as ?orderNo=.
 */
import { useEffect, useEffectEvent, useRef, useState, type ReactNode } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { useTranslation, type TKey } from '../../../i18n/index.ts';
import { formatFen } from '@cfx/protocol/money.ts';
import { Price } from '../../../components/ui/price.tsx';
import { Seo } from '../../../components/ui/seo.tsx';
import { LoadingBlock, Spinner } from '../../../components/ui/spinner.tsx';
import { useUserStore } from '../../../stores/user.ts';
import { paymentStatusPath } from '../../../lib/orders/status.ts';
import { payOrder } from '../api/pay-order.ts';
import { queryAmount } from '../api/query-amount.ts';
import type { AmountInfo, PayMethod, PayResult } from '../api/types.ts';
import { BIND_CARD_PATH, CardPayForm, PayCardRow, usePayCards } from './card-pay-form.tsx';
import { WechatQrPanel } from './wechat-qr-panel.tsx';

/** The pages: one per payment method ('card': a bound bank card, quick payment through the payout provider). */
export type MethodPageKind = PayMethod | 'card';

/** Each page's title (browser title, and the heading when there is no order). */
const PAGE_TITLE = {
  alipay: 'pc.pages.alipay',
  sandbox: 'pc.pages.payment2',
  balance: 'pc.pages.payment3',
  card: 'pc.pages.paymentCard',
  wechat: 'pc.pages.wechat',
} as const satisfies Record<MethodPageKind, TKey>;

/** One payment page: Alipay or the sandbox cashier start the payment and leave for the provider; the balance and a bound bank card pay here. */
export function PaymentMethodPage({ method }: { method: MethodPageKind }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const orderNo = params.get('orderNo') ?? '';
  const title = t(PAGE_TITLE[method]);
  const onPaid = () => void navigate(paymentStatusPath(orderNo), { replace: true });
  let body: ReactNode;
  if (method === 'card') body = <CardPay orderNo={orderNo} />;
  else if (!orderNo) body = <NoOrder title={title} />;
  else if (method === 'balance') body = <BalancePay orderNo={orderNo} onPaid={onPaid} />;
  else if (method === 'wechat') body = <WechatPay orderNo={orderNo} onPaid={onPaid} />;
  else body = <RedirectPay orderNo={orderNo} method={method} onPaid={onPaid} />;
  return (
    <>
      <Seo title={title} description={t('pages.personalCenter.description')} />
      {body}
    </>
  );
}

function useAmount(orderNo: string) {
  const token = useUserStore((s) => s.token);
  return useQuery({ queryKey: ['pay-amount', orderNo, token], queryFn: () => queryAmount(orderNo), enabled: token !== '' && orderNo !== '', staleTime: 0 });
}

function Shell({ title, status, children }: { title: string; status: string; children: ReactNode }) {
  return (
    <section className="card p-6" data-testid="payment-variant" data-status={status}>
      <h1 className="mb-4 text-lg text-ink">{title}</h1>
      {children}
    </section>
  );
}

/** No order given: these pages are reached from an order. */
export function NoOrder({ title }: { title: string }) {
  const { t } = useTranslation();
  return (
    <Shell title={title} status="no-order">
      <p className="text-sm text-ink-soft">{t('payment.noOrder')}</p>
      <Link to="/personal-center/txn-details?tab=buy&status=pending" className="btn-primary mt-4">
        {t('orders.myPending')}
      </Link>
    </Shell>
  );
}

/** What every method shows while the amount is loading, or when it could not be loaded. */
function AmountPending({ q, title }: { q: ReturnType<typeof useAmount>; title: string }) {
  const { t } = useTranslation();
  if (q.isPending) return <Shell title={title} status="loading"><LoadingBlock label={t('common.loading')} /></Shell>;
  return (
    <Shell title={title} status="error">
      <p className="text-sm text-danger">{q.error?.message || t('payment.loadFailed')}</p>
    </Shell>
  );
}

interface PartProps {
  orderNo: string;
  onPaid: (r: PayResult) => void;
}

const otherMethodsPath = (orderNo: string) => `/pay?orderNo=${encodeURIComponent(orderNo)}`;
const payable = (a: AmountInfo) => a.status === 'created' || a.status === 'paying';

/**
 * Alipay or the sandbox cashier: starts the payment with that method at once and leaves for the
 * provider's page; an unavailable method says so and links to /pay.
 */
function RedirectPay({ orderNo, onPaid, method }: PartProps & { method: Extract<PayMethod, 'alipay' | 'sandbox'> }) {
  const { t } = useTranslation();
  const q = useAmount(orderNo);
  const [state, setState] = useState<{ status: 'idle' | 'starting' | 'leaving' } | { status: 'failed'; message: string }>({ status: 'idle' });
  const started = useRef(false);
  const available = q.data ? q.data.methods.includes(method) && payable(q.data) : false;

  const start = async () => {
    setState({ status: 'starting' });
    const r = await payOrder({ orderNo, method });
    if (r.ok && r.data) {
      if (r.data.payUrl) {
        setState({ status: 'leaving' });
        window.location.assign(r.data.payUrl);
      } else onPaid(r.data);
    } else setState({ status: 'failed', message: r.networkError ? t('payment.network') : r.message || t('common.requestFailed') });
  };

  // Started once, when the method is known to be available.
  const startOnce = useEffectEvent(() => {
    if (started.current) return;
    started.current = true;
    void start();
  });
  useEffect(() => {
    if (available) startOnce();
  }, [available]);

  const title = t(`payment.methods.${method}.name`);
  if (q.isPending || q.isError) return <AmountPending q={q} title={title} />;
  const amount = q.data;
  if (!available) {
    return (
      <Shell title={title} status="unavailable">
        <p className="text-sm text-ink-soft">{amount.methods.includes(method) ? t('payment.notPayable') : t('payment.methodUnavailable')}</p>
        <Link to={otherMethodsPath(orderNo)} className="btn-primary mt-4">
          {t('payment.otherMethods')}
        </Link>
      </Shell>
    );
  }
  return (
    <Shell title={title} status={state.status}>
      <p className="text-sm text-ink-soft">
        {t('payment.toPay')} <Price fen={amount.amountFen} className="text-lg font-bold text-brand" />
      </p>
      {state.status === 'failed' ? (
        <>
          <p className="mt-3 text-sm text-danger" role="alert">
            {state.message}
          </p>
          <button type="button" className="btn-primary mt-4" onClick={() => void start()}>
            {t('common.retry')}
          </button>
        </>
      ) : (
        <p className="mt-3 flex items-center gap-2 text-sm text-ink-faint" role="status">
          <Spinner /> {t('payment.redirecting')}
        </p>
      )}
    </Shell>
  );
}

/** WeChat Pay Native: starts the payment once and shows its QR code here until the order is paid or expires. */
function WechatPay({ orderNo, onPaid }: PartProps) {
  const { t } = useTranslation();
  const q = useAmount(orderNo);
  const [state, setState] = useState<{ status: 'idle' | 'starting' } | { status: 'qr'; codeUrl: string } | { status: 'failed'; message: string }>({ status: 'idle' });
  const started = useRef(false);
  const available = q.data ? q.data.methods.includes('wechat') && payable(q.data) : false;
  const start = async () => {
    setState({ status: 'starting' });
    const r = await payOrder({ orderNo, method: 'wechat' });
    if (r.ok && r.data?.payUrl) setState({ status: 'qr', codeUrl: r.data.payUrl });
    else if (r.ok && r.data) onPaid(r.data);
    else setState({ status: 'failed', message: r.networkError ? t('payment.network') : r.message || t('common.requestFailed') });
  };
  const startOnce = useEffectEvent(() => {
    if (started.current) return;
    started.current = true;
    void start();
  });
  useEffect(() => {
    if (available) startOnce();
  }, [available]);
  const title = t('payment.methods.wechat.name');
  if (q.isPending || q.isError) return <AmountPending q={q} title={title} />;
  const amount = q.data;
  if (!available && state.status !== 'qr') {
    return (
      <Shell title={title} status="unavailable">
        <p className="text-sm text-ink-soft">{amount.methods.includes('wechat') ? t('payment.notPayable') : t('payment.methodUnavailable')}</p>
        <Link to={otherMethodsPath(orderNo)} className="btn-primary mt-4">
          {t('payment.otherMethods')}
        </Link>
      </Shell>
    );
  }
  return (
    <Shell title={title} status={state.status}>
      {state.status === 'qr' ? (
        <WechatQrPanel orderNo={orderNo} codeUrl={state.codeUrl} amountFen={amount.amountFen} onPaid={() => onPaid({ orderNo, method: 'wechat', status: 'paid', payUrl: null, expiresAt: amount.expiresAt })} />
      ) : state.status === 'failed' ? (
        <>
          <p className="text-sm text-danger" role="alert">
            <span className="block font-medium">{t('payment.wechat.failed')}</span>
            {state.message}
          </p>
          <button type="button" className="btn-primary mt-4" onClick={() => void start()}>
            {t('common.retry')}
          </button>
        </>
      ) : (
        <LoadingBlock label={t('payment.wechat.generating')} />
      )}
      <Link to={otherMethodsPath(orderNo)} className="mt-4 inline-block text-sm text-brand hover:underline">
        {t('payment.otherMethods')}
      </Link>
    </Shell>
  );
}

/** The platform balance: amount, balance, pay. */
function BalancePay({ orderNo, onPaid }: PartProps) {
  const { t } = useTranslation();
  const q = useAmount(orderNo);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');
  const title = t('payment.methods.balance.name');
  if (q.isPending || q.isError) return <AmountPending q={q} title={title} />;
  const a = q.data;
  const short = a.balanceFen < a.amountFen;
  const pay = async () => {
    setBusy(true);
    setError('');
    const r = await payOrder({ orderNo, method: 'balance' });
    setBusy(false);
    if (r.ok && r.data) onPaid(r.data);
    else setError(r.networkError ? t('payment.network') : r.message || t('common.requestFailed'));
  };
  return (
    <Shell title={title} status={payable(a) ? 'ready' : 'unavailable'}>
      <dl className="space-y-2 text-sm">
        <div className="flex justify-between">
          <dt className="text-ink-faint">{t('payment.toPay')}</dt>
          <dd>
            <Price fen={a.amountFen} className="font-semibold text-brand" />
          </dd>
        </div>
        <div className="flex justify-between">
          <dt className="text-ink-faint">{t('payment.available')}</dt>
          <dd className={`tabular ${short ? 'text-danger' : 'text-ink'}`}>{formatFen(a.balanceFen)}</dd>
        </div>
      </dl>
      {error && (
        <p className="mt-3 text-sm text-danger" role="alert">
          {error}
        </p>
      )}
      {!payable(a) ? (
        <p className="mt-4 text-sm text-ink-soft">{t('payment.notPayable')}</p>
      ) : (
        <div className="mt-5 flex flex-wrap justify-end gap-2">
          <Link to={otherMethodsPath(orderNo)} className="btn-ghost">
            {t('payment.otherMethods')}
          </Link>
          <button type="button" className="btn-primary" disabled={busy || short} onClick={() => void pay()} data-testid="balance-pay">
            {busy && <Spinner />}
            {short ? t('payment.balanceShort') : t('payment.payFromBalance')}
          </button>
        </div>
      )}
    </Shell>
  );
}

/**
 * Bank cards (quick payment through the payout provider): with an order, pay it with a bound card (the
 * bank's SMS code); without one, the bound cards that can pay, or the way to bind one.
 */
function CardPay({ orderNo }: { orderNo: string }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const q = useAmount(orderNo);
  const title = t('pc.pages.paymentCard');
  if (!orderNo) return <PayCards title={title} />;
  if (q.isPending || q.isError) return <AmountPending q={q} title={title} />;
  const a = q.data;
  if (!a.methods.includes('card') || !payable(a)) {
    return (
      <Shell title={title} status="unavailable">
        <p className="text-sm text-ink-soft">{a.methods.includes('card') ? t('payment.notPayable') : t('payment.cardUnavailable')}</p>
        <Link to={otherMethodsPath(orderNo)} className="btn-primary mt-4">
          {t('payment.otherMethods')}
        </Link>
      </Shell>
    );
  }
  return (
    <Shell title={title} status="ready">
      <CardPayForm orderNo={orderNo} amountFen={a.amountFen} onConfirmed={() => void navigate(paymentStatusPath(orderNo), { replace: true })} />
    </Shell>
  );
}

/** The bound cards usable for payment (masked, bank name and logo); none: bind one on the card page. */
function PayCards({ title }: { title: string }) {
  const { t } = useTranslation();
  const cards = usePayCards();
  if (cards.isPending) return <Shell title={title} status="loading"><LoadingBlock label={t('common.loading')} /></Shell>;
  if (cards.isError) {
    return (
      <Shell title={title} status="error">
        <p className="text-sm text-danger">{cards.error.message || t('payment.card.loadFailed')}</p>
        <button type="button" className="btn-ghost mt-4" onClick={() => void cards.refetch()}>
          {t('common.retry')}
        </button>
      </Shell>
    );
  }
  return (
    <Shell title={title} status={cards.data.length ? 'cards' : 'no-cards'}>
      <p className="text-sm text-ink-soft">{t('payment.card.intro')}</p>
      {cards.data.length === 0 ? (
        <div className="mt-4 rounded-control border border-dashed border-line px-4 py-5 text-center" data-testid="card-pay-none">
          <p className="text-sm text-ink-soft">{t('payment.card.none')}</p>
          <Link to={BIND_CARD_PATH} className="btn-primary mt-3">
            {t('payment.card.bind')}
          </Link>
        </div>
      ) : (
        <div className="mt-4 space-y-2" data-testid="pay-cards">
          {cards.data.map((c) => (
            <PayCardRow key={c.id} card={c} />
          ))}
          <Link to={BIND_CARD_PATH} className="inline-block text-xs text-brand hover:underline">
            {t('payment.card.manage')}
          </Link>
        </div>
      )}
    </Shell>
  );
}
