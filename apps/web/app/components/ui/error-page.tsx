import { isRouteErrorResponse } from 'react-router';
import { useTranslation } from '../../i18n/index.ts';
import { Seo } from './seo.tsx';

/** Status and message of any thrown value: an error without a status defaults to 500. */
export function describeError(error: unknown, notFound: string, generic: string): { status: number; message: string } {
  if (isRouteErrorResponse(error)) {
    const status = error.status || 500;
    if (status === 404) return { status, message: notFound };
    const data = typeof error.data === 'string' && error.data ? error.data : '';
    return { status, message: data || error.statusText || generic };
  }
  return { status: 500, message: generic };
}

/**
 * The error page: status code, 抱歉！, the message and a link 返回首页 to home.
 * Uses a plain <a> so it also works when the router itself is in an error state.
 */
export function ErrorPage({ error }: { error: unknown }) {
  const { t } = useTranslation();
  const { status, message } = describeError(error, t('error.notFound'), t('error.generic'));
  return (
    <div className="page-width flex min-h-[60vh] flex-col items-center justify-center py-16 text-center" data-testid="error-page">
      <Seo title={status === 404 ? t('pages.notFound.title') : t('error.title')} description={message} />
      <p className="tabular text-7xl font-bold tracking-tight text-brand" data-testid="error-status">
        {status}
      </p>
      <h1 className="mt-4 text-2xl text-ink">{t('error.sorry')}</h1>
      <p className="mt-2 text-ink-soft" data-testid="error-message">
        {message}
      </p>
      <a href="/" className="btn-primary mt-8" data-testid="error-home">
        {t('error.backHome')}
      </a>
    </div>
  );
}
