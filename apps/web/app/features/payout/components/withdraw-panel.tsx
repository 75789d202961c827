import { useEffect, useEffectEvent, useState } from 'react';
import { Link } from 'react-router';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { LIMITS } from '@cfx/contract/limits.ts';
import { formatFen } from '@cfx/protocol/money.ts';
import { useTranslation } from '../../../i18n/index.ts';
import { useUserStore } from '../../../stores/user.ts';
import { toast } from '../../../stores/toast.ts';
import { formatCnDateTime } from '../../../components/ui/cn-time.ts';
import { EmptyBlock, LoadingBlock, Spinner } from '../../../components/ui/spinner.tsx';
import { DialogShell } from '../../../components/ui/dialog-shell.tsx';
import { Field } from '../../../components/ui/fields.tsx';
import { sendSecurityCode } from '../../../lib/send-security-code.ts';
import { listWithdrawals, previewWithdrawal, withdraw } from '../api/money.ts';
import type { WithdrawPreview, Withdrawal } from '../api/types.ts';
import { SmsCodeButton } from '../../../components/sms-code/sms-code-button.tsx';

/** "12.34" (yuan typed) → 1234 fen; null when it is not an amount of at most two decimals. */
export function yuanToFen(text: string): number | null {
  const m = /^(\d{1,9})(?:\.(\d{0,2}))?$/.exec(text.trim());
  if (!m) return null;
  return Number(m[1]) * 100 + Number((m[2] ?? '').padEnd(2, '0'));
}

const WITHDRAWALS = 'payout-withdrawals';

function WithdrawDialog({ open, onOpenChange, onDone }: { open: boolean; onOpenChange: (o: boolean) => void; onDone: () => void }) {
  const { t } = useTranslation();
  const [text, setText] = useState('');
  const [code, setCode] = useState('');
  const [busy, setBusy] = useState(false);
  const [preview, setPreview] = useState<WithdrawPreview | null>(null);
  const fen = yuanToFen(text) ?? 0;
  // The fee, net amount and limits as the server computes them (debounced).
  useEffect(() => {
    if (!open) return;
    const ctl = new AbortController();
    const timer = setTimeout(() => {
      previewWithdrawal(fen, ctl.signal).then(setPreview, () => undefined);
    }, 250);
    return () => {
      clearTimeout(timer);
      ctl.abort();
    };
  }, [fen, open]);
  async function submit() {
    if (!fen) return void toast.warning(t('payout.withdraw.needAmount'));
    if (preview?.refusal) return void toast.warning(preview.refusal);
    if (code.length !== LIMITS.smsCodeLength) return void toast.warning(t('payout.bind.needCode'));
    setBusy(true);
    const r = await withdraw(fen, code);
    setBusy(false);
    if (!r.ok) return;
    toast.success(r.message);
    setText('');
    setCode('');
    onDone();
  }
  const p = preview;
  return (
    <DialogShell open={open} onOpenChange={onOpenChange} title={t('payout.withdraw.title')} testId="withdraw-dialog" busy={busy}>
      {!p ? (
        <LoadingBlock label={t('common.loading')} />
      ) : !p.card || p.accountState !== 'active' ? (
        <div className="space-y-3 text-sm text-ink-soft" data-testid="withdraw-not-ready">
          <p>{p.card ? t('payout.withdraw.needAccount') : t('payout.withdraw.needCard')}</p>
          <Link to={p.card ? '/personal-center/paymentYibao' : '/personal-center/payment-management'} className="text-brand hover:underline" onClick={() => onOpenChange(false)}>
            {t('payout.account.goDo')}
          </Link>
        </div>
      ) : (
        <div className="space-y-4">
          <div className="flex items-center gap-3 rounded-control bg-canvas p-3 text-sm" data-testid="withdraw-card">
            <img src={p.card.logo} alt="" className="h-8 w-8" />
            <div>
              <p className="text-ink">{p.card.bankName}</p>
              <p className="tabular text-xs text-ink-faint">{p.card.cardMasked}</p>
            </div>
          </div>
          <div>
            <div className="flex items-center justify-between text-sm">
              <span className="text-ink-soft">{t('payout.withdraw.amount')}</span>
              <button type="button" className="text-brand hover:underline" onClick={() => setText((Math.min(p.availableFen, p.limits.maxFen) / 100).toFixed(2))} data-testid="withdraw-all">
                {t('payout.withdraw.all', { amount: formatFen(p.availableFen) })}
              </button>
            </div>
            <Field label={t('payout.withdraw.amount')} placeholder={t('payout.withdraw.amountPlaceholder', { min: formatFen(p.limits.minFen) })} testId="withdraw-amount" inputMode="decimal" value={text} onChange={(e) => setText(e.target.value.replace(/[^\d.]/g, '').slice(0, 12))} />
          </div>
          <dl className="grid grid-cols-2 gap-y-1 text-sm">
            <dt className="text-ink-faint">{t('payout.withdraw.fee', { rate: (p.limits.feePermille / 10).toFixed(1), min: formatFen(p.limits.minFeeFen) })}</dt>
            <dd className="tabular text-right text-ink" data-testid="withdraw-fee">{formatFen(p.feeFen)}</dd>
            <dt className="text-ink-faint">{t('payout.withdraw.net')}</dt>
            <dd className="tabular text-right text-lg font-semibold text-ink" data-testid="withdraw-net">{formatFen(p.netFen)}</dd>
          </dl>
          {p.refusal && fen > 0 && <p className="text-sm text-danger" data-testid="withdraw-refusal">{p.refusal}</p>}
          <p className="text-xs leading-5 text-ink-faint" data-testid="withdraw-limits">
            {t('payout.withdraw.limits', { min: formatFen(p.limits.minFen), max: formatFen(p.limits.maxFen), count: p.limits.dailyCount, daily: formatFen(p.limits.dailyMaxFen), used: p.todayCount })}
          </p>
          <Field
            label={t('security.code')}
            placeholder={t('payout.withdraw.codePlaceholder')}
            testId="withdraw-code"
            inputMode="numeric"
            maxLength={LIMITS.smsCodeLength}
            value={code}
            onChange={(e) => setCode(e.target.value.replace(/\D/g, '').slice(0, LIMITS.smsCodeLength))}
            trailing={<SmsCodeButton send={sendSecurityCode} countdownKey="security" check={() => (!fen ? t('payout.withdraw.needAmount') : p.refusal)} testId="withdraw-get-code" />}
          />
          <button type="button" className="btn-primary h-11 w-full text-base" disabled={busy} onClick={() => void submit()} data-testid="withdraw-submit">
            {busy && <Spinner />}
            {t('payout.withdraw.confirm', { amount: formatFen(p.netFen) })}
          </button>
        </div>
      )}
    </DialogShell>
  );
}

function StatusChip({ w }: { w: Withdrawal }) {
  const { t } = useTranslation();
  const tone = w.status === 'succeeded' ? 'text-success' : w.status === 'failed' ? 'text-danger' : 'text-warning';
  return <span className={`text-xs ${tone}`} data-testid="withdrawal-status">{t(`payout.withdraw.states.${w.status}`)}</span>;
}

/** The withdraw button and my withdrawals (polled while one is on its way). */
export function WithdrawPanel({ onChange }: { onChange?: () => void }) {
  const { t } = useTranslation();
  const token = useUserStore((s) => s.token);
  const qc = useQueryClient();
  const [open, setOpen] = useState(false);
  const q = useQuery({
    queryKey: [WITHDRAWALS, token],
    queryFn: () => listWithdrawals(1),
    enabled: token !== '',
    refetchInterval: (query) => (query.state.data?.list.some((w) => w.status === 'requested' || w.status === 'processing') ? 2000 : false),
  });
  const inFlight = q.data?.list.some((w) => w.status === 'requested' || w.status === 'processing');
  // The latest onChange, told when no withdrawal is on its way any more (the balance moved).
  const settled = useEffectEvent(() => onChange?.());
  useEffect(() => {
    if (!inFlight) settled();
  }, [inFlight]);
  return (
    <section className="card p-5" data-testid="withdraw-panel">
      <div className="mb-4 flex flex-wrap items-center justify-between gap-2">
        <h2 className="text-base text-ink">{t('payout.withdraw.history')}</h2>
        <div className="flex items-center gap-3">
          <Link to="/personal-center/payment-management" className="text-sm text-brand hover:underline">{t('payout.withdraw.manageCard')}</Link>
          <button type="button" className="btn-primary h-9 px-5" onClick={() => setOpen(true)} data-testid="withdraw-open">{t('payout.withdraw.open')}</button>
        </div>
      </div>
      {q.isPending ? (
        <LoadingBlock label={t('common.loading')} />
      ) : q.isError ? (
        <p className="text-sm text-ink-faint">{t('payout.loadFailed')}</p>
      ) : q.data.list.length === 0 ? (
        <EmptyBlock label={t('payout.withdraw.none')} />
      ) : (
        <ul className="divide-y divide-line" data-testid="withdrawals">
          {q.data.list.map((w) => (
            <li key={w.withdrawNo} className="flex items-center justify-between gap-3 py-2.5 text-sm" data-testid="withdrawal-row" data-status={w.status}>
              <div className="min-w-0">
                <p className="text-ink">{t('payout.withdraw.to', { bank: w.bankName, last4: w.cardMasked.slice(-4) })}</p>
                <p className="tabular truncate text-xs text-ink-faint">
                  {formatCnDateTime(w.createdAt)} · {t('payout.withdraw.feeShort', { fee: formatFen(w.feeFen) })}
                  {w.failReason ? ` · ${w.failReason}` : ''}
                </p>
              </div>
              <div className="text-right">
                <p className="tabular font-medium text-ink">-{formatFen(w.amountFen)}</p>
                <StatusChip w={w} />
              </div>
            </li>
          ))}
        </ul>
      )}
      <WithdrawDialog
        open={open}
        onOpenChange={setOpen}
        onDone={() => {
          setOpen(false);
          void qc.invalidateQueries({ queryKey: [WITHDRAWALS] });
          onChange?.();
        }}
      />
    </section>
  );
}
