import { useEffect, useEffectEvent, useState } from 'react';
import { useTranslation } from '../../../i18n/index.ts';
import { Price } from '../../../components/ui/price.tsx';
import { QrCode } from '../../../components/ui/qr-code.tsx';
import { LoadingBlock, Spinner } from '../../../components/ui/spinner.tsx';
import { DeadlineCountdown } from '../../../components/countdown/countdown.tsx';
import { useOrder } from '../../../lib/orders/use-order.ts';
import { isAwaitingPayment, isClosed } from '../../../lib/orders/status.ts';

/**
 * What a QR code of a `code_url` encodes: WeChat Pay's own `weixin://…` as is; the sandbox's
 * scan-and-pay page (a path on this site) as an absolute URL, so a phone can open it.
 */
export function qrTarget(codeUrl: string, origin: string): string {
  return codeUrl.startsWith('/') ? `${origin}${codeUrl}` : codeUrl;
}

/** The sandbox's code_url is a page of this server (http or a path); WeChat Pay's is weixin://. */
export const isSandboxCode = (codeUrl: string) => !codeUrl.startsWith('weixin://');

/**
 * WeChat Pay Native on PC: the QR code of the order's `code_url`, the amount and the time left to pay.
 * The order is polled (every 2 s) and `onPaid` is called once it is paid (the notify arrived); when the
 * time is up or the order closed the code is shown as expired. `onBack` returns to the method choice.
 */
export function WechatQrPanel({ orderNo, codeUrl, amountFen, onPaid, onBack }: { orderNo: string; codeUrl: string; amountFen: number; onPaid: () => void; onBack?: () => void }) {
  const { t } = useTranslation();
  const q = useOrder(orderNo, { pollMs: 2000 });
  const [origin, setOrigin] = useState('');
  useEffect(() => setOrigin(window.location.origin), []);
  const status = q.data?.status;
  const paid = status !== undefined && !isAwaitingPayment(status) && !isClosed(status);
  const paidOnce = useEffectEvent(() => onPaid());
  useEffect(() => {
    if (paid) paidOnce();
  }, [paid]);
  const [timeUp, setTimeUp] = useState(false);

  if (q.isPending || !origin) return <LoadingBlock label={t('payment.wechat.generating')} />;
  const expired = timeUp || (status !== undefined && isClosed(status)) || (q.data !== undefined && q.data.remainingMs <= 0);
  const state = paid ? 'paid' : expired ? 'expired' : 'waiting';
  return (
    <div className="flex flex-col items-center text-center" data-testid="wechat-qr" data-state={state}>
      <h2 className="text-lg font-medium text-ink">{t('payment.wechat.title')}</h2>
      <p className="mt-1 text-sm text-ink-soft">
        {t('payment.wechat.amount')} <Price fen={amountFen} className="text-xl font-bold text-brand" testId="wechat-amount" />
      </p>
      <div className="relative mt-4 rounded-card border border-line p-3">
        <QrCode value={qrTarget(codeUrl, origin)} size={200} label={t('payment.wechat.qrLabel')} className={expired ? 'opacity-20' : ''} />
        {expired && (
          <p className="absolute inset-0 flex items-center justify-center px-6 text-sm font-medium text-danger" role="alert" data-testid="wechat-expired">
            {t('payment.wechat.expired')}
          </p>
        )}
      </div>
      {!expired && (
        <>
          <p className="mt-3 text-sm text-ink-soft">{t('payment.wechat.scanHint')}</p>
          <p className="mt-2 text-sm text-ink-faint">
            {t('payment.wechat.remaining')}{' '}
            <DeadlineCountdown deadline={q.deadline} className="text-base text-warning" testId="wechat-countdown" onEnd={() => setTimeUp(true)} />
          </p>
          <p className="mt-3 flex items-center gap-2 text-sm text-ink-faint" role="status" data-testid="wechat-waiting">
            <Spinner /> {t('payment.wechat.waiting')}
          </p>
        </>
      )}
      {q.isError && (
        <p className="mt-3 text-sm text-danger" role="alert">
          {q.error.message || t('payment.loadFailed')}{' '}
          <button type="button" className="text-brand hover:underline" onClick={() => void q.refetch()}>
            {t('common.retry')}
          </button>
        </p>
      )}
      <div className="mt-5 flex flex-wrap justify-center gap-3">
        {isSandboxCode(codeUrl) && !expired && (
          <a href={qrTarget(codeUrl, origin)} target="_blank" rel="noreferrer" className="btn-ghost" data-testid="wechat-sandbox-open">
            {t('payment.wechat.sandboxOpen')}
          </a>
        )}
        {onBack && (
          <button type="button" className="btn-ghost" onClick={onBack} data-testid="wechat-back">
            {t('payment.wechat.changeMethod')}
          </button>
        )}
      </div>
    </div>
  );
}
