import { useState, type FormEvent } from 'react';
import * as Tabs from '@radix-ui/react-tabs';
import { useTranslation } from '../../../i18n/index.ts';
import { STORAGE } from '../../../config.ts';
import { readStorage, writeStorage } from '../../../lib/storage.ts';
import { toast } from '../../../stores/toast.ts';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { loginWithPassword, loginWithSms } from '../api/login.ts';
import { useAuthFlow } from '../flow.tsx';
import { validatePasswordLogin, validateSmsLogin, type ValidationKey } from '../validate.ts';
import { AgreementCheckbox } from './agreement.tsx';
import { PasswordField, PhoneField, Checkbox } from '../../../components/ui/fields.tsx';
import { SmsCodeField } from './sms-code-field.tsx';

/** View 1: tabs 账号登录 (password) and 短信登录 (SMS). In the overlay or on /account/login (flow.tsx). */
export function LoginView() {
  const { t } = useTranslation();
  const { go } = useAuthFlow();
  const [tab, setTab] = useState<'password' | 'sms'>('password');
  const tabClass =
    'relative pb-2 text-base text-ink-faint transition-colors data-[state=active]:font-medium data-[state=active]:text-ink data-[state=active]:after:absolute data-[state=active]:after:inset-x-1/4 data-[state=active]:after:bottom-0 data-[state=active]:after:h-0.5 data-[state=active]:after:rounded data-[state=active]:after:bg-brand';
  return (
    <Tabs.Root value={tab} onValueChange={(v) => setTab(v as 'password' | 'sms')}>
      <Tabs.List className="mb-5 flex gap-8" aria-label={t('auth.loginTitle')}>
        <Tabs.Trigger value="password" className={tabClass} data-testid="login-tab-password">
          {t('auth.tabPassword')}
        </Tabs.Trigger>
        <Tabs.Trigger value="sms" className={tabClass} data-testid="login-tab-sms">
          {t('auth.tabSms')}
        </Tabs.Trigger>
      </Tabs.List>
      {/* forceMount keeps each tab's typed values when switching */}
      <Tabs.Content value="password" forceMount hidden={tab !== 'password'}>
        <PasswordLoginForm />
      </Tabs.Content>
      <Tabs.Content value="sms" forceMount hidden={tab !== 'sms'}>
        <SmsLoginForm />
      </Tabs.Content>
      <p className="mt-5 text-center text-sm text-ink-soft">
        {t('auth.noAccount')}{' '}
        <button type="button" className="text-brand hover:underline" onClick={() => go('register')} data-testid="login-to-register">
          {t('auth.toRegister')}
        </button>
      </p>
    </Tabs.Root>
  );
}

function warn(t: (k: `auth.validation.${ValidationKey}`) => string, key: ValidationKey | null): boolean {
  if (!key) return false;
  toast.warning(t(`auth.validation.${key}`));
  return true;
}

function PasswordLoginForm() {
  const { t } = useTranslation();
  const { go, signedIn } = useAuthFlow();
  const [saved] = useState(() => readStorage(STORAGE.savedMobile) ?? '');
  const [mobile, setMobile] = useState(saved);
  const [password, setPassword] = useState('');
  const [remember, setRemember] = useState(saved !== '');
  const [agreed, setAgreed] = useState(false);
  const [busy, setBusy] = useState(false);

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (busy || warn(t, validatePasswordLogin({ mobile, password, agreed }))) return;
    setBusy(true);
    const r = await loginWithPassword(mobile, password);
    setBusy(false);
    if (r.ok && r.data?.token) {
      // "Save account info": remember the phone number for the next login.
      writeStorage(STORAGE.savedMobile, remember ? mobile : null);
      signedIn(r.data.token, t('auth.loginOk'));
    }
  }

  return (
    <form onSubmit={submit} className="space-y-4" noValidate data-testid="login-password-form">
      <PhoneField label={t('auth.mobile')} placeholder={t('auth.mobilePlaceholder')} value={mobile} onValue={setMobile} testId="login-mobile" />
      <PasswordField
        label={t('auth.password')}
        testId="login-password"
        autoComplete="current-password"
        placeholder={t('auth.passwordPlaceholder')}
        value={password}
        onValue={setPassword}
      />
      <div className="flex items-center justify-between">
        <Checkbox checked={remember} onChange={setRemember} testId="login-save-account">
          {t('auth.saveAccount')}
        </Checkbox>
        <button type="button" className="text-xs text-brand hover:underline" onClick={() => go('forgot')} data-testid="login-forgot">
          {t('auth.forgotLink')}
        </button>
      </div>
      <AgreementCheckbox checked={agreed} onChange={setAgreed} testId="login-agree" />
      <button type="submit" className="btn-primary h-11 w-full text-base" disabled={busy} data-testid="login-submit">
        {busy && <Spinner />}
        {busy ? t('auth.submitting') : t('auth.submitLogin')}
      </button>
    </form>
  );
}

function SmsLoginForm() {
  const { t } = useTranslation();
  const { signedIn } = useAuthFlow();
  const [mobile, setMobile] = useState(() => readStorage(STORAGE.savedMobile) ?? '');
  const [code, setCode] = useState('');
  const [agreed, setAgreed] = useState(false);
  const [busy, setBusy] = useState(false);

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (busy || warn(t, validateSmsLogin({ mobile, code, agreed }))) return;
    setBusy(true);
    const r = await loginWithSms(mobile, code);
    setBusy(false);
    if (r.ok && r.data?.token) signedIn(r.data.token, t('auth.loginOk'));
  }

  return (
    <form onSubmit={submit} className="space-y-4" noValidate data-testid="login-sms-form">
      <PhoneField label={t('auth.mobile')} placeholder={t('auth.mobilePlaceholder')} value={mobile} onValue={setMobile} testId="sms-login-mobile" />
      <SmsCodeField mobile={mobile} code={code} onCode={setCode} type="2" countdownKey="smsLogin" testIdPrefix="sms-login" />
      <AgreementCheckbox checked={agreed} onChange={setAgreed} testId="sms-login-agree" />
      <button type="submit" className="btn-primary h-11 w-full text-base" disabled={busy} data-testid="sms-login-submit">
        {busy && <Spinner />}
        {busy ? t('auth.submitting') : t('auth.submitLogin')}
      </button>
    </form>
  );
}
