import { lazy, Suspense, useEffect, useMemo } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { LIMITS } from '@cfx/contract/limits.ts';
import { STORAGE } from '../../../config.ts';
import { useTranslation } from '../../../i18n/index.ts';
import { writeStorage } from '../../../lib/storage.ts';
import { Seo } from '../../../components/ui/seo.tsx';
import { LoadingBlock } from '../../../components/ui/spinner.tsx';
import { useAuthOverlay, type AuthView } from '../../../stores/auth-overlay.ts';
import { toast } from '../../../stores/toast.ts';
import { useUserStore } from '../../../stores/user.ts';
import { AuthFlowProvider, type AuthFlow } from '../flow.tsx';
import { accountHref, redirectOf } from '../redirect.ts';

const PAGE_OF: Record<AuthView, 'login' | 'register' | 'forgot'> = { login: 'login', register: 'register', forgot: 'forgot' };

/*
 * The forms are the overlay's views, loaded in the browser only (the chunk the overlay uses too): the
 * page's initial JS stays in the public-page budget, and a form is never rendered before hydration,
 * where a native submit would put the typed password into the URL.
 */
const VIEWS = {
  login: lazy(() => import('../components/login-view.tsx').then((m) => ({ default: m.LoginView }))),
  register: lazy(() => import('../components/register-view.tsx').then((m) => ({ default: m.RegisterView }))),
  forgot: lazy(() => import('../components/forgot-view.tsx').then((m) => ({ default: m.ForgotView }))),
};

/**
 * The full-page login, register and forgot-password pages (/account/login, /account/register,
 * /account/forgot-password): the overlay's views (password or SMS code behind the slider captcha),
 * in a page of their own. Moving between them keeps the return target (`redirect` / `from`, only a
 * same-origin relative path, redirect.ts); a sign-in stores the token and loads that page. Someone
 * already signed in is sent there at once. `?inviteCode=` pre-fills the register form.
 */
export function AccountPage({ view }: { view: AuthView }) {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const target = redirectOf(params);
  const inviteCode = (params.get('inviteCode') ?? '').trim().slice(0, LIMITS.inviteCodeMax);
  const registChannel = (params.get('registChannel') ?? '').trim().slice(0, 32);
  const hydrated = useUserStore((s) => s.hydrated);
  const token = useUserStore((s) => s.token);

  const flow = useMemo<AuthFlow>(
    () => ({
      go(next) {
        useAuthOverlay.getState().setForgotStep(1);
        navigate(accountHref(PAGE_OF[next], target, next === 'register' && inviteCode ? { inviteCode } : {}));
      },
      signedIn(newToken, message) {
        useUserStore.getState().setToken(newToken);
        toast.success(message);
        // Shown again after the page load (like a sign-in in the overlay).
        writeStorage(STORAGE.flash, JSON.stringify({ kind: 'success', text: message }), 'session');
        window.location.assign(target);
      },
      inviteCode,
      registChannel,
    }),
    [navigate, target, inviteCode, registChannel],
  );

  // Already signed in (a stored token): straight back to where the user came from.
  const signedInAlready = hydrated && token !== '';
  useEffect(() => {
    if (signedInAlready && view !== 'forgot') navigate(target, { replace: true });
  }, [signedInAlready, view, navigate, target]);

  const View = VIEWS[view];
  const title = view === 'login' ? t('auth.loginTitle') : view === 'register' ? t('auth.registerTitle') : t('auth.forgotTitle');
  const description = t(`pages.account.${view}Description`);
  return (
    <div className="page-width flex justify-center py-10 sm:py-16" data-testid="account-page" data-view={view} data-redirect={target}>
      <Seo title={title} description={description} />
      <section className="w-full max-w-[420px] rounded-card bg-surface px-6 pb-6 pt-5 shadow-card sm:px-8">
        <h1 className="mb-1 text-xl font-semibold text-ink">{title}</h1>
        <p className="mb-5 text-xs text-ink-faint">{target === '/' ? description : t('pages.account.returnHint')}</p>
        <AuthFlowProvider flow={flow}>
          {hydrated ? (
            <Suspense fallback={<LoadingBlock label={t('common.loading')} />}>
              <View key={view} />
            </Suspense>
          ) : (
            <LoadingBlock label={t('common.loading')} />
          )}
        </AuthFlowProvider>
        <p className="mt-6 text-center text-xs">
          <Link to={target} className="text-ink-faint hover:text-brand" data-testid="account-back">
            {t('pages.account.back')}
          </Link>
        </p>
      </section>
    </div>
  );
}
