import { useState, type FormEvent } from 'react';
import { LIMITS, MOBILE_RE } from '@cfx/contract/limits.ts';
import { useTranslation } from '../../../i18n/index.ts';
import { toast } from '../../../stores/toast.ts';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { DialogShell } from '../../../components/ui/dialog-shell.tsx';
import { Field } from '../../../components/ui/fields.tsx';
import { affirmBinding, resendBindingCode, startBinding, type CardForm } from '../api/cards.ts';
import type { BindPurpose, BindRequest, BoundCard } from '../api/types.ts';
import { SmsCodeButton } from '../../../components/sms-code/sms-code-button.tsx';

/** Groups of four as the user types (`6222 0202 0011 2233 445`); digits only, at most 19. */
export function formatCardInput(raw: string): string {
  return raw.replace(/\D/g, '').slice(0, 19).replace(/(\d{4})(?=\d)/g, '$1 ');
}

/**
 * Binding a card (bind), replacing it (replace) or changing its reserved phone (mobile): the 4 elements —
 * the verified person's name and ID number, the card number and the phone reserved at the bank — are
 * checked by the server and the bank when "get code" is pressed; the 6-digit code then goes to the
 * reserved phone (60 s countdown, resend) and "confirm" binds the card.
 */
export function BindCardDialog({ open, purpose, current, onOpenChange, onDone }: { open: boolean; purpose: BindPurpose; current?: BoundCard | null; onOpenChange: (o: boolean) => void; onDone: (card: BoundCard) => void }) {
  const { t } = useTranslation();
  const [form, setForm] = useState<CardForm>({ name: '', idNumber: '', cardNo: '', mobile: '' });
  const [request, setRequest] = useState<BindRequest | null>(null);
  const [sentFor, setSentFor] = useState('');
  const [code, setCode] = useState('');
  const [busy, setBusy] = useState(false);
  const key = JSON.stringify(form);
  const set = (k: keyof CardForm) => (v: string) => setForm((f) => ({ ...f, [k]: v }));

  function reset() {
    setForm({ name: '', idNumber: '', cardNo: '', mobile: '' });
    setRequest(null);
    setSentFor('');
    setCode('');
  }

  function check(): string | null {
    if (purpose !== 'mobile') {
      if (!form.name.trim()) return t('payout.bind.needName');
      if (!/^\d{17}[\dXx]$/.test(form.idNumber.trim())) return t('payout.bind.needId');
      const digits = form.cardNo.replace(/\s/g, '');
      if (digits.length < 12 || digits.length > 19) return t('payout.bind.needCard');
    }
    if (!MOBILE_RE.test(form.mobile)) return t('payout.bind.needMobile');
    return null;
  }

  async function send(token: string) {
    // The same details as the live request: only the code again; otherwise a new check.
    if (request && sentFor === key && request.expiresAt > Date.now()) return resendBindingCode(request.bindId, token);
    const r = await startBinding(purpose, form, token);
    if (r.ok) {
      setRequest(r.data);
      setSentFor(key);
    }
    return r;
  }

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (!request || sentFor !== key) return void toast.warning(t('payout.bind.getCodeFirst'));
    if (code.length !== LIMITS.smsCodeLength) return void toast.warning(t('payout.bind.needCode'));
    setBusy(true);
    const r = await affirmBinding(request.bindId, code);
    setBusy(false);
    if (!r.ok) return;
    toast.success(r.message);
    reset();
    onDone(r.data);
  }

  const title = purpose === 'bind' ? t('payout.bind.titleBind') : purpose === 'replace' ? t('payout.bind.titleReplace') : t('payout.bind.titleMobile');
  return (
    <DialogShell open={open} onOpenChange={(o) => { if (!o) reset(); onOpenChange(o); }} title={title} testId="bind-card-dialog" busy={busy}>
      <form onSubmit={(e) => void submit(e)} className="space-y-3" noValidate>
        <p className="text-xs leading-5 text-ink-faint">{purpose === 'mobile' ? t('payout.bind.mobileHint', { card: current?.cardMasked ?? '' }) : t('payout.bind.hint')}</p>
        {purpose !== 'mobile' && (
          <>
            <Field label={t('payout.bind.name')} placeholder={t('payout.bind.namePlaceholder')} testId="bind-name" autoComplete="name" maxLength={40} value={form.name} onChange={(e) => set('name')(e.target.value)} />
            <Field label={t('payout.bind.idNumber')} placeholder={t('payout.bind.idPlaceholder')} testId="bind-id" maxLength={18} value={form.idNumber} onChange={(e) => set('idNumber')(e.target.value.replace(/[^\dXx]/g, '').toUpperCase())} />
            <Field label={t('payout.bind.cardNo')} placeholder={t('payout.bind.cardPlaceholder')} testId="bind-card-no" inputMode="numeric" autoComplete="cc-number" value={form.cardNo} onChange={(e) => set('cardNo')(formatCardInput(e.target.value))} />
          </>
        )}
        <Field label={t('payout.bind.mobile')} placeholder={purpose === 'mobile' ? t('payout.bind.newMobilePlaceholder') : t('payout.bind.mobilePlaceholder')} testId="bind-mobile" type="tel" inputMode="numeric" maxLength={LIMITS.mobileLength} value={form.mobile} onChange={(e) => set('mobile')(e.target.value.replace(/\D/g, '').slice(0, LIMITS.mobileLength))} />
        {request && sentFor === key && (
          <p className="flex items-center gap-2 rounded-control bg-canvas px-3 py-2 text-sm text-ink-soft" data-testid="bind-request">
            <img src={request.logo} alt="" className="h-5 w-5" />
            <span>{request.bankName}</span>
            <span className="tabular">{request.cardMasked}</span>
            <span className="ml-auto text-xs text-ink-faint">{t('payout.bind.codeSentTo', { mobile: request.mobileMasked })}</span>
          </p>
        )}
        <Field
          label={t('security.code')}
          placeholder={t('security.codePlaceholder')}
          testId="bind-code"
          inputMode="numeric"
          autoComplete="one-time-code"
          maxLength={LIMITS.smsCodeLength}
          value={code}
          onChange={(e) => setCode(e.target.value.replace(/\D/g, '').slice(0, LIMITS.smsCodeLength))}
          trailing={<SmsCodeButton send={send} check={check} countdownKey="bindCard" testId="bind-get-code" />}
        />
        <button type="submit" className="btn-primary h-11 w-full text-base" disabled={busy} data-testid="bind-submit">
          {busy && <Spinner />}
          {t('payout.bind.confirm')}
        </button>
      </form>
    </DialogShell>
  );
}
