import { useEffect, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from '../i18n/index.ts';
import { QueryProvider } from '../components/query-provider.tsx';
import { Seo } from '../components/ui/seo.tsx';
import { LoadingBlock } from '../components/ui/spinner.tsx';
import { isCreatorUser, useUserStore } from '../stores/user.ts';
import { useAuthOverlay } from '../stores/auth-overlay.ts';
import { listMyApplications } from '../features/settled/api/list-mine.ts';
import { ApplicationForm } from '../features/settled/components/application-form.tsx';
import { MyApplications } from '../features/settled/components/my-applications.tsx';

/**
 * Project application (/project-enter, for non-creators). Logged out: a login prompt.
 * A creator is sent to their creator page (the header's menu item already points there). Otherwise
 * the application form — closed while one application is open — and my applications with their
 * status and, when rejected, the reason.
 */
export default function ProjectEnter() {
  const { t } = useTranslation();
  return (
    <QueryProvider>
      <Seo title={t('pages.projectEnter.title')} description={t('pages.projectEnter.description')} />
      <div className="page-width max-w-4xl py-8" data-testid="project-enter-page">
        <header className="mb-6">
          <h1 className="text-2xl font-semibold text-ink">{t('settled.title')}</h1>
          <p className="mt-2 text-sm leading-relaxed text-ink-soft">{t('settled.intro')}</p>
          <p className="mt-2 flex gap-4 text-sm">
            <Link to="/help/part3-1" className="text-brand hover:underline">
              {t('settled.howToApply')}
            </Link>
            <Link to="/help/part3-2" className="text-brand hover:underline">
              {t('settled.compliance')}
            </Link>
          </p>
        </header>
        <Gate />
      </div>
    </QueryProvider>
  );
}

function Gate() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const hydrated = useUserStore((s) => s.hydrated);
  const token = useUserStore((s) => s.token);
  const profileLoaded = useUserStore((s) => s.profileLoaded);
  const creator = useUserStore(isCreatorUser);
  const accountId = useUserStore((s) => s.accountId);
  const toCreatorPage = token !== '' && profileLoaded && creator && accountId !== '';

  useEffect(() => {
    if (toCreatorPage) void navigate(`/creator/${encodeURIComponent(accountId)}`, { replace: true });
  }, [toCreatorPage, accountId, navigate]);

  if (!hydrated) return <LoadingBlock label={t('common.loading')} />;
  if (!token) {
    return (
      <div className="card p-8 text-center" data-testid="settled-login">
        <p className="text-ink-soft">{t('settled.loginPrompt')}</p>
        <button type="button" className="btn-primary mt-4" onClick={() => useAuthOverlay.getState().openOverlay('login')} data-testid="settled-login-button">
          {t('header.login')}
        </button>
      </div>
    );
  }
  if (toCreatorPage) return <LoadingBlock label={t('settled.creatorRedirect')} />;
  return <Applications token={token} />;
}

function Applications({ token }: { token: string }) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const q = useQuery({ queryKey: ['settled-mine', token], queryFn: listMyApplications });
  const [submitted, setSubmitted] = useState(false);

  if (q.isPending) return <LoadingBlock label={t('common.loading')} />;
  if (q.isError) {
    return (
      <div className="card flex items-center justify-center gap-3 p-8 text-sm text-ink-faint" data-testid="settled-load-error">
        {t('settled.mine.loadFailed')}
        <button type="button" className="text-brand hover:underline" onClick={() => void q.refetch()} data-testid="settled-retry">
          {t('common.retry')}
        </button>
      </div>
    );
  }
  const { list, hasOpen, limits } = q.data;
  return (
    <div className="space-y-10">
      {submitted ? (
        <div className="card p-8 text-center" role="status" data-testid="settled-success">
          <p className="text-4xl text-success" aria-hidden>
            ✓
          </p>
          <h2 className="mt-2 text-xl font-semibold text-ink">{t('settled.successTitle')}</h2>
          <p className="mt-2 text-sm text-ink-soft">{t('settled.successBody')}</p>
        </div>
      ) : hasOpen ? (
        <p className="rounded-card bg-warning/10 px-4 py-3 text-sm text-warning" data-testid="settled-open-notice">
          {t('settled.openNotice')}
        </p>
      ) : (
        <ApplicationForm
          limits={limits}
          onSubmitted={() => {
            setSubmitted(true);
            window.scrollTo({ top: 0, behavior: 'smooth' });
            void client.invalidateQueries({ queryKey: ['settled-mine'] });
          }}
        />
      )}
      <MyApplications list={list} />
    </div>
  );
}
