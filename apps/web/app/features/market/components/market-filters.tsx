import { useState, type FormEvent } from 'react';
import { Link, useLocation, useNavigate } from 'react-router';
import { useTranslation } from '../../../i18n/index.ts';
import { LinkTabs } from '../../../components/ui/link-tabs.tsx';
import type { FilterMeta, MarketSort } from '../api/types.ts';
import { priceRangeError, type MarketParams } from '../market-query.ts';
import type { ReleaseGroup } from '../release-options.ts';
import { fenToYuanText } from '../money-input.ts';

const SORTS: MarketSort[] = ['default', 'priceAsc', 'priceDesc'];

/**
 * The market filters: release (findAll's releases grouped by sale status, `release-options.ts`),
 * asking-price range in yuan (getFilterRelatedMetaInfo's preset ranges), sort by time or price. Everything is in the URL, so each filtered page is
 * server-rendered and shareable; without JavaScript the form still submits as a GET.
 */
export function MarketFilters({ meta, params, releases }: { meta: FilterMeta | null; params: MarketParams; releases: ReleaseGroup[] }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { search } = useLocation();
  const [project, setProject] = useState(params.projectId ? String(params.projectId) : '');
  const [min, setMin] = useState(params.min);
  const [max, setMax] = useState(params.max);
  const [error, setError] = useState<ReturnType<typeof priceRangeError>>(null);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const err = priceRangeError(min, max);
    setError(err);
    if (err) return;
    const q = new URLSearchParams();
    if (project) q.set('project', project);
    if (min.trim()) q.set('min', min.trim());
    if (max.trim()) q.set('max', max.trim());
    if (params.sort !== 'default') q.set('sort', params.sort);
    const s = q.toString();
    void navigate(`/sales${s ? `?${s}` : ''}`, { preventScrollReset: true });
  };

  const presetHref = (minFen: number, maxFen: number | null) => {
    const q = new URLSearchParams(search);
    q.delete('page');
    q.set('min', fenToYuanText(minFen));
    if (maxFen === null) q.delete('max');
    else q.set('max', fenToYuanText(maxFen));
    return `/sales?${q.toString()}`;
  };

  const sortLabels = new Map((meta?.sorts ?? []).map((s) => [s.value, s.label]));
  return (
    <div className="card p-4" data-testid="market-filters">
      <form method="get" action="/sales" onSubmit={submit} noValidate className="flex flex-wrap items-end gap-3">
        <label className="flex min-w-48 flex-1 flex-col gap-1 text-xs text-ink-faint">
          {t('market.filters.release')}
          <select name="project" className="field-input h-10" value={project} onChange={(e) => setProject(e.target.value)} data-testid="filter-project">
            <option value="">{t('market.filters.allReleases')}</option>
            {releases.map((g) =>
              g.status === null ? (
                g.options.map((p) => (
                  <option key={p.id} value={p.id}>
                    {p.name}
                  </option>
                ))
              ) : (
                <optgroup key={g.status} label={t(`catalog.status.${g.status}`)} data-status={g.status}>
                  {g.options.map((p) => (
                    <option key={p.id} value={p.id}>
                      {p.name}
                    </option>
                  ))}
                </optgroup>
              ),
            )}
          </select>
        </label>
        <fieldset className="flex flex-col gap-1">
          <legend className="mb-1 text-xs text-ink-faint">{t('market.filters.price')}</legend>
          <div className="flex items-center gap-2">
            <input
              name="min"
              className={`field-input tabular h-10 w-28 ${error === 'minInvalid' || error === 'order' ? 'border-danger' : ''}`}
              inputMode="decimal"
              maxLength={12}
              placeholder={t('market.filters.min')}
              aria-label={t('market.filters.min')}
              value={min}
              onChange={(e) => (setMin(e.target.value), setError(null))}
              data-testid="filter-min"
            />
            <span className="text-ink-faint">—</span>
            <input
              name="max"
              className={`field-input tabular h-10 w-28 ${error === 'maxInvalid' || error === 'order' ? 'border-danger' : ''}`}
              inputMode="decimal"
              maxLength={12}
              placeholder={t('market.filters.max')}
              aria-label={t('market.filters.max')}
              value={max}
              onChange={(e) => (setMax(e.target.value), setError(null))}
              data-testid="filter-max"
            />
          </div>
        </fieldset>
        {params.sort !== 'default' && <input type="hidden" name="sort" value={params.sort} />}
        <div className="flex gap-2">
          <button type="submit" className="btn-primary h-10" data-testid="filter-apply">
            {t('market.filters.apply')}
          </button>
          <Link to="/sales" className="btn-ghost h-10" data-testid="filter-reset" preventScrollReset>
            {t('market.filters.reset')}
          </Link>
        </div>
      </form>
      {error && (
        <p className="mt-2 text-xs text-danger" role="alert" data-testid="filter-error">
          {t(`market.filters.errors.${error}`)}
        </p>
      )}
      {meta && meta.priceRanges.length > 0 && (
        <div className="mt-3 flex flex-wrap items-center gap-2 text-xs">
          <span className="text-ink-faint">{t('market.filters.presets')}</span>
          {meta.priceRanges.map((r) => (
            <Link
              key={r.label}
              to={presetHref(r.minFen, r.maxFen)}
              preventScrollReset
              className="rounded-full border border-line px-3 py-1 text-ink-soft hover:border-brand hover:text-brand"
              data-testid="filter-preset"
            >
              {r.label}
            </Link>
          ))}
        </div>
      )}
      <div className="mt-4">
        <LinkTabs
          testId="market-sort"
          param="sort"
          defaultValue="default"
          value={params.sort}
          label={t('market.filters.sort')}
          tabs={SORTS.map((s) => ({ value: s, label: sortLabels.get(s) ?? t(`market.sorts.${s}`) }))}
        />
      </div>
    </div>
  );
}
