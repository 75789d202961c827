import { useTranslation } from '../../i18n/index.ts';
import { Link } from 'react-router';
import { Seo } from './seo.tsx';

/**
 * The tidy placeholder of pages whose content arrives with later issues.
 * `title` is the page name (already translated); `bare` skips the outer page width (nested use).
 */
export function ComingSoon({ title, description, bare = false }: { title: string; description?: string; bare?: boolean }) {
  const { t } = useTranslation();
  const body = (
    <div className="card flex flex-col items-center px-6 py-16 text-center" data-testid="coming-soon">
      <div aria-hidden className="mb-5 flex size-16 items-center justify-center rounded-full bg-brand-soft text-3xl text-brand">
        ✦
      </div>
      <h1 className="text-xl text-ink">{title}</h1>
      <p className="mt-2 text-base font-medium text-brand">{t('common.comingSoon')}</p>
      <p className="mt-2 max-w-md text-ink-soft">{t('common.comingSoonDesc', { page: title })}</p>
      <Link to="/" className="btn-ghost mt-6">
        {t('placeholder.backHome')}
      </Link>
    </div>
  );
  return (
    <>
      <Seo title={title} description={description} />
      {bare ? body : <div className="page-width py-10">{body}</div>}
    </>
  );
}
