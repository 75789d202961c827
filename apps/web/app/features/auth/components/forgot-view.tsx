import { useState, type FormEvent } from 'react';
import { useTranslation } from '../../../i18n/index.ts';
import { useAuthOverlay } from '../../../stores/auth-overlay.ts';
import { toast } from '../../../stores/toast.ts';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { checkMobile } from '../api/check-mobile.ts';
import { resetPassword } from '../api/reset-password.ts';
import { useAuthFlow } from '../flow.tsx';
import { validateForgotStep1, validateForgotStep2 } from '../validate.ts';
import { PasswordField, PhoneField } from '../../../components/ui/fields.tsx';
import { SmsCodeField } from './sms-code-field.tsx';

/**
 * View 3, forgot password: step 1 phone + SMS code (checkmobile → data.token), step 2 new
 * password (reset), step 3 success. Step 2 only after the check succeeded, step 3 only after
 * reset answered 000000. In the overlay or on /account/forgot-password.
 */
export function ForgotView() {
  const { t } = useTranslation();
  const step = useAuthOverlay((s) => s.forgotStep);
  const setStep = useAuthOverlay((s) => s.setForgotStep);
  const { go } = useAuthFlow();
  const [mobile, setMobile] = useState('');
  const [code, setCode] = useState('');
  const [resetToken, setResetToken] = useState('');
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [busy, setBusy] = useState(false);

  async function verify(e: FormEvent) {
    e.preventDefault();
    if (busy) return;
    const problem = validateForgotStep1({ mobile, code });
    if (problem) return void toast.warning(t(`auth.validation.${problem}`));
    setBusy(true);
    const r = await checkMobile(mobile, code);
    setBusy(false);
    if (r.ok && r.data?.token) {
      setResetToken(r.data.token);
      if (r.message) toast.success(r.message);
      setStep(2);
    }
  }

  async function reset(e: FormEvent) {
    e.preventDefault();
    if (busy) return;
    const problem = validateForgotStep2({ password, confirm });
    if (problem) return void toast.warning(t(`auth.validation.${problem}`));
    setBusy(true);
    const r = await resetPassword(mobile, resetToken, password);
    setBusy(false);
    if (r.ok) {
      if (r.message) toast.success(r.message);
      setStep(3);
    } else if (!r.networkError && (r.status === '1100' || String(r.code) === '1100')) {
      // The reset token failed (not a lost session): say so; the api client left it to us.
      toast.error(r.message || t('common.requestFailed'));
    }
  }

  const steps = [t('auth.steps.verify'), t('auth.steps.reset'), t('auth.steps.done')];

  return (
    <div data-testid="forgot-view" data-step={step}>
      <ol className="mb-6 flex items-center text-xs" data-testid="forgot-step" data-step={step}>
        {steps.map((label, i) => {
          const n = i + 1;
          const state = n < step ? 'done' : n === step ? 'current' : 'todo';
          return (
            <li key={label} className="flex flex-1 items-center gap-1.5 last:flex-none" aria-current={state === 'current' ? 'step' : undefined}>
              <span
                className={`flex size-6 shrink-0 items-center justify-center rounded-full text-[12px] ${
                  state === 'todo' ? 'bg-canvas text-ink-faint' : 'bg-brand text-white'
                }`}
              >
                {state === 'done' ? '✓' : n}
              </span>
              <span className={state === 'todo' ? 'text-ink-faint' : 'text-ink'}>{label}</span>
              {n < 3 && <span aria-hidden className={`mx-2 h-px flex-1 ${n < step ? 'bg-brand' : 'bg-line'}`} />}
            </li>
          );
        })}
      </ol>

      {step === 1 && (
        <form onSubmit={verify} className="space-y-4" noValidate>
          <PhoneField label={t('auth.mobile')} placeholder={t('auth.mobilePlaceholder')} value={mobile} onValue={setMobile} testId="forgot-mobile" />
          <SmsCodeField mobile={mobile} code={code} onCode={setCode} type="3" countdownKey="forgot" testIdPrefix="forgot" />
          <button type="submit" className="btn-primary h-11 w-full text-base" disabled={busy} data-testid="forgot-next">
            {busy && <Spinner />}
            {busy ? t('auth.submitting') : t('auth.next')}
          </button>
        </form>
      )}

      {step === 2 && (
        <form onSubmit={reset} className="space-y-4" noValidate>
          <p className="text-sm text-ink-soft" data-testid="forgot-mobile-shown">
            {t('auth.mobile')}：<span className="tabular">{mobile}</span>
          </p>
          <PasswordField
            label={t('auth.newPassword')}
            testId="forgot-password"
            autoComplete="new-password"
            placeholder={t('auth.passwordRulePlaceholder')}
            value={password}
            onValue={setPassword}
          />
          <PasswordField
            label={t('auth.confirmPassword')}
            testId="forgot-confirm"
            autoComplete="new-password"
            placeholder={t('auth.confirmPlaceholder')}
            value={confirm}
            onValue={setConfirm}
          />
          <button type="submit" className="btn-primary h-11 w-full text-base" disabled={busy} data-testid="forgot-submit">
            {busy && <Spinner />}
            {busy ? t('auth.submitting') : t('auth.submitReset')}
          </button>
        </form>
      )}

      {step === 3 && (
        <div className="py-4 text-center" data-testid="forgot-done">
          <div aria-hidden className="mx-auto mb-4 flex size-14 items-center justify-center rounded-full bg-success/10 text-2xl text-success">
            ✓
          </div>
          <p className="text-lg text-ink">{t('auth.resetDoneTitle')}</p>
          <p className="mt-1 text-sm text-ink-soft">{t('auth.resetDoneText')}</p>
          <button type="button" className="btn-primary mt-6 h-11 w-full text-base" onClick={() => go('login')} data-testid="forgot-go-login">
            {t('auth.goLogin')}
          </button>
        </div>
      )}

      {step !== 3 && (
        <p className="mt-5 text-center text-sm">
          <button type="button" className="text-brand hover:underline" onClick={() => go('login')} data-testid="forgot-to-login">
            {t('auth.backToLogin')}
          </button>
        </p>
      )}
    </div>
  );
}
