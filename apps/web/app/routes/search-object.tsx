import { useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { ComingSoon } from '../components/ui/coming-soon.tsx';

/** Search results (/search-object?str=…) — placeholder until the search issue lands. */
export default function SearchObject() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const str = params.get('str')?.trim() ?? '';
  return (
    <div className="page-width py-10">
      {str && (
        <h1 className="mb-6 text-xl text-ink" data-testid="search-query">
          {t('search.resultsFor', { str })}
        </h1>
      )}
      <ComingSoon bare title={t('pages.search.title')} description={t('pages.search.description')} />
    </div>
  );
}
