import { useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { LIMITS } from '@cfx/contract/limits.ts';
import { useTranslation } from '../../../i18n/index.ts';
import { useUserStore } from '../../../stores/user.ts';
import { toast } from '../../../stores/toast.ts';
import { formatCnDateTime } from '../../../components/ui/cn-time.ts';
import { LoadingBlock, Spinner } from '../../../components/ui/spinner.tsx';
import { DialogShell } from '../../../components/ui/dialog-shell.tsx';
import { Field } from '../../../components/ui/fields.tsx';
import { getSecondAccount } from '../api/account.ts';
import { sendSecurityCode } from '../../../lib/send-security-code.ts';
import { unbindCard } from '../api/cards.ts';
import type { BindPurpose, BoundCard } from '../api/types.ts';
import { BindCardDialog } from './bind-card-dialog.tsx';
import { SmsCodeButton } from '../../../components/sms-code/sms-code-button.tsx';
import { IdentityUpload } from './identity-upload.tsx';

export const ACCOUNT_QUERY = 'payout-account';

/** The bound card as a bank card: logo, bank, masked number, holder and reserved phone. */
export function CardFace({ card }: { card: BoundCard }) {
  const { t } = useTranslation();
  return (
    <div className="relative overflow-hidden rounded-card bg-gradient-to-br from-brand to-brand-strong p-5 text-white shadow-pop" data-testid="bound-card" data-bank={card.bankCode}>
      <div className="flex items-center gap-3">
        <img src={card.logo} alt="" className="h-10 w-10 rounded-full bg-white/90 p-0.5" />
        <div>
          <p className="text-base font-semibold">{card.bankName}</p>
          <p className="text-xs opacity-80">{t('payout.card.debit')}</p>
        </div>
      </div>
      <p className="tabular mt-6 text-xl tracking-widest" data-testid="bound-card-number">
        {card.cardMasked}
      </p>
      <div className="mt-4 flex flex-wrap justify-between gap-2 text-xs opacity-90">
        <span>{t('payout.card.holder', { name: card.holderMasked })}</span>
        <span data-testid="bound-card-mobile">{t('payout.card.reserved', { mobile: card.mobileMasked })}</span>
        <span>{t('payout.card.boundAt', { time: formatCnDateTime(card.boundAt, false) })}</span>
      </div>
    </div>
  );
}

/** The unbind dialog: the security code of my own phone; refused by the server while a withdrawal is on its way. */
function UnbindDialog({ open, onOpenChange, onDone }: { open: boolean; onOpenChange: (o: boolean) => void; onDone: () => void }) {
  const { t } = useTranslation();
  const [code, setCode] = useState('');
  const [busy, setBusy] = useState(false);
  async function submit() {
    if (code.length !== LIMITS.smsCodeLength) return void toast.warning(t('payout.bind.needCode'));
    setBusy(true);
    const r = await unbindCard(code);
    setBusy(false);
    if (!r.ok) return;
    toast.success(r.message);
    setCode('');
    onDone();
  }
  return (
    <DialogShell open={open} onOpenChange={onOpenChange} title={t('payout.card.unbindTitle')} testId="unbind-dialog" busy={busy}>
      <div className="space-y-4">
        <p className="text-sm text-ink-soft">{t('payout.card.unbindHint')}</p>
        <Field
          label={t('security.code')}
          placeholder={t('security.codePlaceholder')}
          testId="unbind-code"
          inputMode="numeric"
          maxLength={LIMITS.smsCodeLength}
          value={code}
          onChange={(e) => setCode(e.target.value.replace(/\D/g, '').slice(0, LIMITS.smsCodeLength))}
          trailing={<SmsCodeButton send={sendSecurityCode} countdownKey="security" testId="unbind-get-code" />}
        />
        <button type="button" className="btn-primary h-11 w-full text-base" disabled={busy} onClick={() => void submit()} data-testid="unbind-submit">
          {busy && <Spinner />}
          {t('payout.card.unbind')}
        </button>
      </div>
    </DialogShell>
  );
}

const actionClass = 'rounded-control border border-line px-3 py-1.5 text-sm text-ink-soft transition-colors hover:border-brand hover:text-brand disabled:opacity-50';

/** /personal-center/payment-management: my bank card and its flows, and the ID-card photos. */
export function CardManagement() {
  const { t } = useTranslation();
  const token = useUserStore((s) => s.token);
  const qc = useQueryClient();
  const q = useQuery({ queryKey: [ACCOUNT_QUERY, token], queryFn: getSecondAccount, enabled: token !== '' });
  const [dialog, setDialog] = useState<BindPurpose | 'unbind' | null>(null);
  const refresh = () => void qc.invalidateQueries({ queryKey: [ACCOUNT_QUERY] });
  if (q.isPending) return <LoadingBlock label={t('common.loading')} />;
  if (q.isError) {
    return (
      <p className="py-8 text-center text-sm text-ink-faint" data-testid="card-panel" data-status="error">
        {t('payout.loadFailed')}{' '}
        <button type="button" className="text-brand hover:underline" onClick={() => void q.refetch()}>
          {t('common.retry')}
        </button>
      </p>
    );
  }
  const a = q.data;
  const busy = a.inFlight.count > 0;
  return (
    <div className="space-y-6" data-testid="card-panel" data-status={a.card ? 'bound' : 'none'}>
      <section className="card p-5">
        <h2 className="mb-4 text-base text-ink">{t('payout.card.title')}</h2>
        {!a.realname.verified ? (
          <p className="rounded-control bg-canvas px-4 py-6 text-center text-sm text-ink-soft" data-testid="card-need-realname">
            {t('payout.card.needRealname')}
          </p>
        ) : a.card ? (
          <div className="grid gap-4 md:grid-cols-[minmax(0,360px)_1fr] md:items-start">
            <CardFace card={a.card} />
            <div className="space-y-3 text-sm text-ink-soft">
              <p>{t('payout.card.boundHint')}</p>
              {busy && <p className="text-warning" data-testid="card-busy">{t('payout.card.busy')}</p>}
              <div className="flex flex-wrap gap-2">
                <button type="button" className={actionClass} disabled={busy} onClick={() => setDialog('replace')} data-testid="card-replace">{t('payout.card.replace')}</button>
                <button type="button" className={actionClass} onClick={() => setDialog('mobile')} data-testid="card-change-mobile">{t('payout.card.changeMobile')}</button>
                <button type="button" className={actionClass} disabled={busy} onClick={() => setDialog('unbind')} data-testid="card-unbind">{t('payout.card.unbind')}</button>
              </div>
            </div>
          </div>
        ) : (
          <div className="rounded-control border border-dashed border-line px-4 py-8 text-center">
            <p className="mb-3 text-sm text-ink-soft">{t('payout.card.none', { name: a.realname.nameMasked })}</p>
            <button type="button" className="btn-primary h-10 px-6" onClick={() => setDialog('bind')} data-testid="bind-card-open">
              {t('payout.card.bind')}
            </button>
          </div>
        )}
        <p className="mt-4 text-xs leading-5 text-ink-faint">{t('payout.card.rules')}</p>
      </section>
      {a.realname.verified && <IdentityUpload account={a} onChange={refresh} />}
      <BindCardDialog
        open={dialog === 'bind' || dialog === 'replace' || dialog === 'mobile'}
        purpose={dialog === 'replace' || dialog === 'mobile' ? dialog : 'bind'}
        current={a.card}
        onOpenChange={(o) => !o && setDialog(null)}
        onDone={() => {
          setDialog(null);
          refresh();
        }}
      />
      <UnbindDialog
        open={dialog === 'unbind'}
        onOpenChange={(o) => !o && setDialog(null)}
        onDone={() => {
          setDialog(null);
          refresh();
        }}
      />
    </div>
  );
}
