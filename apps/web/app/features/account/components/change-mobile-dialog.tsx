import { useState, type FormEvent } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from '../../../i18n/index.ts';
import { fetchProfile } from '../../../lib/session.ts';
import { toast } from '../../../stores/toast.ts';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { PhoneField } from '../../../components/ui/fields.tsx';
import { changeMobile } from '../api/change-mobile.ts';
import { sendNewMobileCode } from '../api/send-new-mobile-code.ts';
import { sendSecurityCode } from '../../../lib/send-security-code.ts';
import { verifyCurrentMobile } from '../api/verify-current-mobile.ts';
import { validateCode, validateMobileChange, validateNewMobile } from '../validate.ts';
import { SmsCodeField } from '../../../components/sms-code/sms-code-button.tsx';
import { DialogShell } from '../../../components/ui/dialog-shell.tsx';

type Step = 1 | 2 | 3;

/**
 * Change the phone number in three steps: 1 a security code to the current phone (slider first)
 * proves it and gives a ticket; 2 the new phone and a code sent to it (slider first); 3 done —
 * the server signed out every other device. Each step's state is visible in the step bar.
 */
export function ChangeMobileDialog({
  open,
  onOpenChange,
  maskedMobile,
  currentMobile,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  maskedMobile: string;
  /** The full current phone (from the profile), to refuse the same number in the browser already. */
  currentMobile: string;
}) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const [step, setStep] = useState<Step>(1);
  const [code, setCode] = useState('');
  const [ticket, setTicket] = useState('');
  const [mobile, setMobile] = useState('');
  const [newCode, setNewCode] = useState('');
  const [busy, setBusy] = useState(false);
  const [doneMobile, setDoneMobile] = useState('');

  const reset = () => {
    setStep(1);
    setCode('');
    setTicket('');
    setMobile('');
    setNewCode('');
    setDoneMobile('');
  };

  async function verify(e: FormEvent) {
    e.preventDefault();
    if (busy) return;
    const problem = validateCode(code);
    if (problem) return void toast.warning(t(`security.validation.${problem}`));
    setBusy(true);
    const r = await verifyCurrentMobile(code);
    setBusy(false);
    if (r.ok && r.data) {
      setTicket(r.data.ticket);
      if (r.message) toast.success(r.message);
      setStep(2);
    }
  }

  async function bind(e: FormEvent) {
    e.preventDefault();
    if (busy) return;
    const problem = validateMobileChange({ mobile, current: currentMobile, code: newCode });
    if (problem) return void toast.warning(t(`security.validation.${problem}`));
    setBusy(true);
    const r = await changeMobile(ticket, mobile, newCode);
    setBusy(false);
    if (!r.ok) return;
    if (r.message) toast.success(r.message);
    setDoneMobile(r.data?.mobile ?? '');
    setStep(3);
    await fetchProfile();
    await Promise.all(['security-setting', 'sessions', 'security-events'].map((k) => client.invalidateQueries({ queryKey: [k] })));
  }

  const steps = [t('security.mobileSteps.verify'), t('security.mobileSteps.bind'), t('security.mobileSteps.done')];

  return (
    <DialogShell
      open={open}
      onOpenChange={(o) => {
        if (!o) reset();
        onOpenChange(o);
      }}
      title={t('security.changeMobile')}
      testId="change-mobile-dialog"
      busy={busy}
    >
      <ol className="mb-6 flex items-center text-xs" data-testid="change-mobile-step" data-step={step}>
        {steps.map((label, i) => {
          const n = i + 1;
          const state = n < step ? 'done' : n === step ? 'current' : 'todo';
          return (
            <li key={label} className="flex flex-1 items-center gap-1.5 last:flex-none" aria-current={state === 'current' ? 'step' : undefined}>
              <span className={`flex size-6 shrink-0 items-center justify-center rounded-full text-[12px] ${state === 'todo' ? 'bg-canvas text-ink-faint' : 'bg-brand text-white'}`}>
                {state === 'done' ? '✓' : n}
              </span>
              <span className={state === 'todo' ? 'text-ink-faint' : 'text-ink'}>{label}</span>
              {n < 3 && <span aria-hidden className={`mx-2 h-px flex-1 ${n < step ? 'bg-brand' : 'bg-line'}`} />}
            </li>
          );
        })}
      </ol>

      {step === 1 && (
        <form onSubmit={(e) => void verify(e)} className="space-y-4" noValidate>
          <p className="flex gap-3 text-sm text-ink-soft">
            <span>{t('security.currentMobile')}</span>
            <span className="tabular text-ink" data-testid="change-mobile-current">
              {maskedMobile}
            </span>
          </p>
          <SmsCodeField code={code} onCode={setCode} send={sendSecurityCode} countdownKey="security" testIdPrefix="change-mobile-old" />
          <p className="text-xs text-ink-faint">{t('security.codeSentTo', { mobile: maskedMobile })}</p>
          <button type="submit" className="btn-primary h-11 w-full text-base" disabled={busy} data-testid="change-mobile-next">
            {busy && <Spinner />}
            {busy ? t('security.submitting') : t('security.next')}
          </button>
        </form>
      )}

      {step === 2 && (
        <form onSubmit={(e) => void bind(e)} className="space-y-4" noValidate>
          <PhoneField label={t('security.newMobile')} placeholder={t('security.newMobilePlaceholder')} value={mobile} onValue={setMobile} testId="change-mobile-new-mobile" />
          <SmsCodeField
            code={newCode}
            onCode={setNewCode}
            check={() => {
              const problem = validateNewMobile(mobile, currentMobile);
              return problem ? t(`security.validation.${problem}`) : null;
            }}
            send={(token) => sendNewMobileCode(ticket, mobile, token)}
            countdownKey="newMobile"
            testIdPrefix="change-mobile-new"
          />
          <p className="text-xs text-ink-faint">{t('security.othersSignedOut')}</p>
          <button type="submit" className="btn-primary h-11 w-full text-base" disabled={busy} data-testid="change-mobile-submit">
            {busy && <Spinner />}
            {busy ? t('security.submitting') : t('security.submit')}
          </button>
        </form>
      )}

      {step === 3 && (
        <div className="py-4 text-center" data-testid="change-mobile-done">
          <div aria-hidden className="mx-auto mb-4 flex size-14 items-center justify-center rounded-full bg-success/10 text-2xl text-success">
            ✓
          </div>
          <p className="text-lg text-ink">{t('security.mobileDoneTitle')}</p>
          <p className="mt-1 text-sm text-ink-soft">{t('security.mobileDoneText', { mobile: doneMobile })}</p>
          <button
            type="button"
            className="btn-primary mt-6 h-11 w-full text-base"
            onClick={() => {
              reset();
              onOpenChange(false);
            }}
            data-testid="change-mobile-finish"
          >
            {t('security.done')}
          </button>
        </div>
      )}
    </DialogShell>
  );
}
