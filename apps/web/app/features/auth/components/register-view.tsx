import { useState, type FormEvent } from 'react';
import { useTranslation } from '../../../i18n/index.ts';
import { LIMITS } from '@cfx/contract/limits.ts';
import { toast } from '../../../stores/toast.ts';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { register } from '../api/register.ts';
import { useAuthFlow } from '../flow.tsx';
import { validateRegister } from '../validate.ts';
import { AgreementCheckbox } from './agreement.tsx';
import { Field, PhoneField } from '../../../components/ui/fields.tsx';
import { SmsCodeField } from './sms-code-field.tsx';

/** View 2: phone, password, repeat, optional invite code (prefilled from ?inviteCode), SMS code, agreement. In the overlay or on /account/register. */
export function RegisterView() {
  const { t } = useTranslation();
  const { go, signedIn, inviteCode: presetInvite, registChannel } = useAuthFlow();
  const [mobile, setMobile] = useState('');
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [inviteCode, setInviteCode] = useState(presetInvite.slice(0, LIMITS.inviteCodeMax));
  const [code, setCode] = useState('');
  const [agreed, setAgreed] = useState(false);
  const [busy, setBusy] = useState(false);

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (busy) return;
    const problem = validateRegister({ mobile, password, confirm, code, agreed });
    if (problem) return void toast.warning(t(`auth.validation.${problem}`));
    setBusy(true);
    const r = await register({ mobile, password, smsCode: code, inviteCode: inviteCode.trim() || undefined, registChannel: registChannel || undefined });
    setBusy(false);
    if (r.ok && r.data?.token) signedIn(r.data.token, r.message);
  }

  const pwdProps = { type: 'password', autoComplete: 'new-password', maxLength: LIMITS.passwordMax } as const;

  return (
    <form onSubmit={submit} className="space-y-4" noValidate data-testid="register-form">
      <PhoneField label={t('auth.mobile')} placeholder={t('auth.mobilePlaceholder')} value={mobile} onValue={setMobile} testId="register-mobile" />
      <Field
        label={t('auth.password')}
        testId="register-password"
        {...pwdProps}
        placeholder={t('auth.passwordRulePlaceholder')}
        value={password}
        onChange={(e) => setPassword(e.target.value.slice(0, LIMITS.passwordMax))}
      />
      <Field
        label={t('auth.confirmPassword')}
        testId="register-confirm"
        {...pwdProps}
        placeholder={t('auth.confirmPlaceholder')}
        value={confirm}
        onChange={(e) => setConfirm(e.target.value.slice(0, LIMITS.passwordMax))}
      />
      <Field
        label={t('auth.inviteCode')}
        testId="register-invite"
        maxLength={LIMITS.inviteCodeMax}
        placeholder={t('auth.invitePlaceholder')}
        value={inviteCode}
        onChange={(e) => setInviteCode(e.target.value.slice(0, LIMITS.inviteCodeMax))}
      />
      <SmsCodeField mobile={mobile} code={code} onCode={setCode} type="1" countdownKey="register" testIdPrefix="register" />
      <AgreementCheckbox checked={agreed} onChange={setAgreed} testId="register-agree" />
      <button type="submit" className="btn-primary h-11 w-full text-base" disabled={busy} data-testid="register-submit">
        {busy && <Spinner />}
        {busy ? t('auth.submitting') : t('auth.submitRegister')}
      </button>
      <p className="text-center text-sm text-ink-soft">
        {t('auth.hasAccount')}{' '}
        <button type="button" className="text-brand hover:underline" onClick={() => go('login')} data-testid="register-to-login">
          {t('auth.toLogin')}
        </button>
      </p>
    </form>
  );
}
