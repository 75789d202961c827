import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { LIMITS } from '@cfx/contract/limits.ts';
import { useTranslation } from '../../../i18n/index.ts';
import { Price } from '../../../components/ui/price.tsx';
import { LoadingBlock, Spinner } from '../../../components/ui/spinner.tsx';
import { useSecondsLeft } from '../../../components/countdown/use-clock.ts';
import { useUserStore } from '../../../stores/user.ts';
import { confirmCardPay, listPayCards, resendCardPaySms, startCardPay, type CardPayment, type PayCard } from '../api/card-pay.ts';

/** Where a card is bound (the money-out card page: the 4-element check and its SMS code). */
export const BIND_CARD_PATH = '/personal-center/payment-management';

export function usePayCards() {
  const token = useUserStore((s) => s.token);
  return useQuery({ queryKey: ['pay-cards', token], queryFn: listPayCards, enabled: token !== '', staleTime: 0 });
}

/** A bound card as a choice: bank logo, bank name, masked number. */
export function PayCardRow({ card, checked, onChoose }: { card: PayCard; checked?: boolean; onChoose?: () => void }) {
  const body = (
    <>
      <img src={card.logo} alt="" className="h-9 w-9 shrink-0 rounded-full border border-line bg-white p-0.5" />
      <span className="min-w-0 flex-1">
        <span className="block text-sm font-medium text-ink">{card.bankName}</span>
        <span className="tabular block text-xs tracking-wider text-ink-faint">{card.cardMasked}</span>
      </span>
    </>
  );
  if (!onChoose) {
    return (
      <div className="flex items-center gap-3 rounded-control border border-line px-4 py-3" data-testid={`pay-card-${card.id}`} data-bank={card.bankCode}>
        {body}
      </div>
    );
  }
  return (
    <label className={`flex cursor-pointer items-center gap-3 rounded-control border px-4 py-3 transition-colors hover:border-brand ${checked ? 'border-brand bg-brand-soft/40' : 'border-line'}`} data-testid={`pay-card-${card.id}`} data-bank={card.bankCode}>
      <input type="radio" name="pay-card" checked={checked} onChange={onChoose} className="accent-[var(--color-brand)]" />
      {body}
    </label>
  );
}

type Step = { kind: 'pick' } | { kind: 'code'; pay: CardPayment } | { kind: 'confirming'; pay: CardPayment };

/**
 * Paying an order with a bound bank card: choose the card (or go bind one), the bank sends a code to the
 * card's reserved phone, enter it (a new code after the 60 s countdown). Once the bank accepted the code
 * the order is paid when the bank's notify arrives: `onConfirmed` hands over to the page that follows the order.
 */
export function CardPayForm({ orderNo, amountFen, onConfirmed }: { orderNo: string; amountFen: number; onConfirmed: (pay: CardPayment) => void }) {
  const { t } = useTranslation();
  const cards = usePayCards();
  const [chosen, setChosen] = useState<number | null>(null);
  const [step, setStep] = useState<Step>({ kind: 'pick' });
  const [code, setCode] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');
  const left = useSecondsLeft(step.kind === 'code' ? step.pay.resendAt : 0);

  if (cards.isPending) return <LoadingBlock label={t('common.loading')} />;
  if (cards.isError) {
    return (
      <p className="text-sm text-danger" data-testid="card-pay-cards-error">
        {cards.error.message || t('payment.card.loadFailed')}{' '}
        <button type="button" className="text-brand hover:underline" onClick={() => void cards.refetch()}>
          {t('common.retry')}
        </button>
      </p>
    );
  }
  const list = cards.data;
  if (list.length === 0) {
    return (
      <div className="rounded-control border border-dashed border-line px-4 py-5 text-center" data-testid="card-pay-none">
        <p className="text-sm text-ink-soft">{t('payment.card.none')}</p>
        <Link to={BIND_CARD_PATH} className="btn-primary mt-3">
          {t('payment.card.bind')}
        </Link>
      </div>
    );
  }
  const cardId = chosen ?? list[0]!.id;
  const failed = (r: { networkError?: boolean; message: string }) => setError(r.networkError ? t('payment.network') : r.message || t('common.requestFailed'));

  const start = async () => {
    setBusy(true);
    setError('');
    const r = await startCardPay(orderNo, cardId);
    setBusy(false);
    if (r.ok && r.data) {
      setCode('');
      setStep({ kind: 'code', pay: r.data });
    } else failed(r);
  };
  const resend = async (pay: CardPayment) => {
    setBusy(true);
    setError('');
    const r = await resendCardPaySms(pay.payNo);
    setBusy(false);
    if (r.ok && r.data) {
      setStep({ kind: 'code', pay: r.data });
    } else failed(r);
  };
  const confirm = async (pay: CardPayment) => {
    if (code.length !== LIMITS.smsCodeLength) return setError(t('payment.card.needCode'));
    setBusy(true);
    setError('');
    const r = await confirmCardPay(pay.payNo, code);
    setBusy(false);
    if (r.ok && r.data) {
      setStep({ kind: 'confirming', pay: r.data });
      onConfirmed(r.data);
    } else {
      failed(r);
      if (r.status === '1004') {
        // A wrong code: the attempt stays open until its tries are used up.
        const next = { ...pay, triesLeft: pay.triesLeft - 1 };
        setCode('');
        setStep(next.triesLeft > 0 ? { kind: 'code', pay: next } : { kind: 'pick' });
      } else if (!r.networkError && r.status !== '1006' && r.status !== '9999') {
        // Closed (refused by the bank, the order no longer payable): a new attempt needs a new code.
        setStep({ kind: 'pick' });
      }
    }
  };

  if (step.kind === 'confirming') {
    return (
      <p className="flex items-center gap-2 text-sm text-ink-soft" role="status" data-testid="card-pay-confirming">
        <Spinner /> {t('payment.card.confirming')}
      </p>
    );
  }
  return (
    <div className="space-y-3" data-testid="card-pay" data-step={step.kind}>
      {step.kind === 'pick' ? (
        <fieldset className="space-y-2">
          <legend className="mb-2 text-sm text-ink-soft">{t('payment.card.choose')}</legend>
          {list.map((c) => (
            <PayCardRow key={c.id} card={c} checked={c.id === cardId} onChoose={() => setChosen(c.id)} />
          ))}
          <Link to={BIND_CARD_PATH} className="inline-block text-xs text-brand hover:underline">
            {t('payment.card.manage')}
          </Link>
        </fieldset>
      ) : (
        <>
          <PayCardRow card={list.find((c) => c.id === step.pay.cardId) ?? { ...list[0]!, bankName: step.pay.bankName, cardMasked: step.pay.cardMasked, logo: step.pay.logo }} />
          <p className="text-sm text-ink-soft" data-testid="card-pay-sent">
            {t('payment.card.sent', { mobile: step.pay.mobileMasked })}
          </p>
          <div className="flex gap-2">
            <input
              className="field-input tabular min-w-0 flex-1 tracking-widest placeholder:tracking-normal"
              inputMode="numeric"
              autoComplete="one-time-code"
              maxLength={LIMITS.smsCodeLength}
              placeholder={t('payment.card.codePlaceholder')}
              aria-label={t('payment.card.codePlaceholder')}
              value={code}
              onChange={(e) => setCode(e.target.value.replace(/\D/g, ''))}
              data-testid="card-pay-code"
            />
            <button
              type="button"
              className="tabular h-11 w-32 shrink-0 rounded-control border border-brand px-2 text-sm text-brand transition-colors hover:bg-brand-soft disabled:border-line disabled:text-ink-faint disabled:hover:bg-transparent"
              disabled={busy || left > 0}
              onClick={() => void resend(step.pay)}
              data-testid="card-pay-resend"
              data-countdown={left}
            >
              {left > 0 ? t('security.countdown', { s: left }) : t('payment.card.resend')}
            </button>
          </div>
        </>
      )}
      {error && (
        <p className="rounded-control bg-danger/10 px-3 py-2 text-sm text-danger" role="alert" data-testid="card-pay-error">
          {error}
        </p>
      )}
      <div className="flex items-center justify-between gap-3 border-t border-line pt-4">
        <p className="text-sm text-ink-soft">
          {t('payment.toPay')} <Price fen={amountFen} className="text-xl font-bold text-brand" />
        </p>
        {step.kind === 'pick' ? (
          <button type="button" className="btn-primary h-11 min-w-36 text-base" disabled={busy} onClick={() => void start()} data-testid="card-pay-start">
            {busy && <Spinner />}
            {t('payment.card.getCode')}
          </button>
        ) : (
          <div className="flex gap-2">
            <button type="button" className="btn-ghost h-11" disabled={busy} onClick={() => setStep({ kind: 'pick' })}>
              {t('payment.card.change')}
            </button>
            <button type="button" className="btn-primary h-11 min-w-32 text-base" disabled={busy} onClick={() => void confirm(step.pay)} data-testid="card-pay-confirm">
              {busy && <Spinner />}
              {t('payment.card.confirm')}
            </button>
          </div>
        )}
      </div>
    </div>
  );
}
