import { useState, type FormEvent } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { AdminPaths, STAFF_PASSWORD_MAX, validStaffPassword } from '@cfx/contract/admin-rules.ts';
import type { LoginAnswer } from '@cfx/contract/admin.ts';
import { PasswordField } from '../components/ui/fields.tsx';
import { QrCode } from '../components/ui/qr-code.tsx';
import { Spinner } from '../components/ui/spinner.tsx';
import { adminApi } from '../features/admin/api.ts';
import { notify } from '../features/admin/components/ui.tsx';
import { useAdminT } from '../features/admin/i18n.ts';
import { staffToken, useStaffStore } from '../features/admin/session.ts';

export function headers() {
  return { 'X-Robots-Tag': 'noindex, nofollow', 'Cache-Control': 'no-store' };
}

type Step = { stage: 'password' } | { stage: 'totp' | 'enrol'; token: string; enrol?: LoginAnswer['enrol'] } | { stage: 'new-password'; token: string };

/**
 * Staff sign-in (docs/admin.md "Sign-in"): user name + password, then the authenticator code —
 * at the first sign-in after scanning the enrolment QR code (otpauth:// URI, drawn locally with
 * uqr) — then, after a one-time password, a new password. The token of each step is kept in
 * memory only; the final one goes to this tab's sessionStorage.
 */
export default function AdminLogin() {
  const t = useAdminT();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const setMe = useStaffStore((s) => s.setMe);
  const [step, setStep] = useState<Step>({ stage: 'password' });
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const [pw1, setPw1] = useState('');
  const [pw2, setPw2] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');

  const next = () => {
    const n = params.get('next') ?? '';
    return n.startsWith('/admin') && !n.startsWith('/admin/login') ? n : '/admin';
  };

  const finish = (a: LoginAnswer) => {
    staffToken.set(a.token);
    if (a.me) setMe(a.me);
    notify.ok(t('login.done'));
    navigate(next(), { replace: true });
  };

  const advance = (a: LoginAnswer) => {
    setError('');
    if (a.stage === 'done') finish(a);
    else if (a.stage === 'password') setStep({ stage: 'new-password', token: a.token });
    else setStep({ stage: a.stage, token: a.token, enrol: a.enrol });
  };

  const run = async (fn: () => Promise<void>) => {
    setBusy(true);
    try {
      await fn();
    } finally {
      setBusy(false);
    }
  };

  const submitPassword = (e: FormEvent) => {
    e.preventDefault();
    if (!username.trim() || !password) return setError(t('login.required'));
    void run(async () => {
      const r = await adminApi<LoginAnswer>(AdminPaths.login, { username, password });
      if (r.ok) advance(r.data);
      else setError(r.message || t('common.networkError'));
    });
  };

  const submitCode = (e: FormEvent) => {
    e.preventDefault();
    if (step.stage !== 'totp' && step.stage !== 'enrol') return;
    if (!/^\d{6}$/.test(code.trim())) return setError(t('login.codeRule'));
    void run(async () => {
      const r = await adminApi<LoginAnswer>(AdminPaths.totp, { code: code.trim() }, { token: step.token });
      setCode('');
      if (r.ok) advance(r.data);
      else if (r.status === '1070') {
        setStep({ stage: 'password' });
        setError(r.message);
      } else setError(r.message || t('common.networkError'));
    });
  };

  const submitNewPassword = (e: FormEvent) => {
    e.preventDefault();
    if (step.stage !== 'new-password') return;
    if (!validStaffPassword(pw1)) return setError(t('login.passwordRule'));
    if (pw1 !== pw2) return setError(t('login.passwordMismatch'));
    void run(async () => {
      const r = await adminApi<LoginAnswer>(AdminPaths.password, { password: pw1 }, { token: step.token });
      if (r.ok) advance(r.data);
      else if (r.status === '1070') {
        setStep({ stage: 'password' });
        setError(r.message);
      } else setError(r.message || t('common.networkError'));
    });
  };

  const field = 'field-input';
  return (
    <div className="flex min-h-screen items-center justify-center bg-night px-4 py-10" data-testid="admin-login">
      <title>{`${t('login.title')} - CFX Art`}</title>
      <meta name="robots" content="noindex, nofollow" />
      <div className="w-full max-w-md rounded-card bg-surface p-8 shadow-pop">
        <p className="text-sm text-ink-faint">{t('app.brand')}</p>
        {step.stage === 'password' && (
          <form onSubmit={submitPassword} noValidate data-testid="admin-login-form">
            <h1 className="mb-1 mt-1 text-xl font-semibold text-ink">{t('login.title')}</h1>
            <p className="mb-6 text-sm text-ink-faint">{t('login.intro')}</p>
            <label className="mb-4 block text-sm">
              <span className="mb-1 block text-ink-soft">{t('login.username')}</span>
              <input className={field} autoComplete="username" value={username} onChange={(e) => setUsername(e.target.value)} data-testid="admin-login-username" />
            </label>
            <PasswordField visibleLabel className="mb-2" label={t('login.password')} autoComplete="current-password" maxLength={null} value={password} onValue={setPassword} testId="admin-login-password" />
            <Submit busy={busy} label={t('login.submit')} testId="admin-login-submit" />
          </form>
        )}
        {(step.stage === 'totp' || step.stage === 'enrol') && (
          <form onSubmit={submitCode} noValidate data-testid={step.stage === 'enrol' ? 'admin-enrol' : 'admin-totp'}>
            <h1 className="mb-1 mt-1 text-xl font-semibold text-ink">{step.stage === 'enrol' ? t('login.enrolTitle') : t('login.totpTitle')}</h1>
            <p className="mb-5 text-sm text-ink-faint">{step.stage === 'enrol' ? t('login.enrolIntro') : t('login.totpIntro')}</p>
            {step.stage === 'enrol' && step.enrol && (
              <div className="mb-5 flex flex-col items-center gap-3">
                <QrCode value={step.enrol.uri} size={180} label={t('login.qrLabel')} />
                <div className="w-full text-center text-xs">
                  <p className="text-ink-faint">{t('login.secretLabel')}</p>
                  <code className="mt-1 block select-all break-all rounded bg-canvas px-2 py-1.5 font-mono text-sm tracking-wider text-ink" data-testid="admin-enrol-secret">
                    {step.enrol.secret}
                  </code>
                </div>
              </div>
            )}
            <label className="mb-2 block text-sm">
              <span className="mb-1 block text-ink-soft">{t('login.code')}</span>
              <input
                className={`${field} text-center font-mono text-lg tracking-[0.4em]`}
                inputMode="numeric"
                autoComplete="one-time-code"
                maxLength={6}
                value={code}
                onChange={(e) => setCode(e.target.value.replace(/\D/g, ''))}
                data-testid="admin-totp-code"
              />
            </label>
            <Submit busy={busy} label={t('login.verify')} testId="admin-totp-submit" />
          </form>
        )}
        {step.stage === 'new-password' && (
          <form onSubmit={submitNewPassword} noValidate data-testid="admin-new-password">
            <h1 className="mb-1 mt-1 text-xl font-semibold text-ink">{t('login.passwordTitle')}</h1>
            <p className="mb-5 text-sm text-ink-faint">{t('login.passwordIntro')}</p>
            <PasswordField
              visibleLabel
              className="mb-4"
              label={t('login.newPassword')}
              hint={t('login.passwordRule')}
              autoComplete="new-password"
              maxLength={STAFF_PASSWORD_MAX}
              value={pw1}
              onValue={setPw1}
              testId="admin-newpw"
            />
            <PasswordField visibleLabel className="mb-2" label={t('login.newPassword2')} autoComplete="new-password" maxLength={STAFF_PASSWORD_MAX} value={pw2} onValue={setPw2} testId="admin-newpw2" />
            <Submit busy={busy} label={t('login.savePassword')} testId="admin-newpw-submit" />
          </form>
        )}
        {error && (
          <p className="mt-4 text-sm text-danger" role="alert" data-testid="admin-login-error">
            {error}
          </p>
        )}
      </div>
    </div>
  );
}

function Submit({ busy, label, testId }: { busy: boolean; label: string; testId: string }) {
  return (
    <button type="submit" className="btn-primary mt-4 w-full" disabled={busy} data-testid={testId}>
      {busy && <Spinner />} {label}
    </button>
  );
}
