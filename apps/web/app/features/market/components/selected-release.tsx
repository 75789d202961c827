import { Link } from 'react-router';
import { useTranslation } from '../../../i18n/index.ts';
import { Thumb } from '../../../components/ui/thumb.tsx';
import type { ProjectTitle } from '../api/types.ts';

/**
 * The release the market is filtered by (`?project=`), from detailsTitle: cover, name, category,
 * sale status and creator, with links to the release page and to drop the filter. `title` null:
 * the call found no such release (a stale link) — said so, with the same way out.
 */
export function SelectedRelease({ title, clearHref }: { title: ProjectTitle | null; clearHref: string }) {
  const { t } = useTranslation();
  const clear = (
    <Link to={clearHref} preventScrollReset className="btn-ghost h-9 shrink-0" data-testid="selected-release-clear">
      {t('market.selectedRelease.clear')}
    </Link>
  );
  if (!title) {
    return (
      <div className="card mt-4 flex flex-wrap items-center justify-between gap-3 p-4" data-testid="selected-release" data-found="0">
        <p className="text-sm text-ink-faint">{t('market.selectedRelease.missing')}</p>
        {clear}
      </div>
    );
  }
  return (
    <section className="card mt-4 flex flex-wrap items-center gap-4 p-4" data-testid="selected-release" data-found="1" data-project-id={title.id} aria-labelledby="selected-release-name">
      <Thumb src={title.cover} alt="" width={64} height={64} className="size-16 shrink-0 rounded-control bg-canvas object-cover" />
      <div className="min-w-0 flex-1">
        <p className="text-xs text-ink-faint">{t('market.selectedRelease.label')}</p>
        <h2 id="selected-release-name" className="truncate text-lg text-ink" data-testid="selected-release-name">
          {title.name}
        </h2>
        <p className="mt-0.5 flex flex-wrap items-center gap-x-3 gap-y-1 text-xs text-ink-faint">
          <span className="rounded-full bg-brand-soft px-2 py-0.5 text-brand" data-testid="selected-release-status" data-status={title.status}>
            {t(`catalog.status.${title.status}`)}
          </span>
          {title.category && <span>{title.category}</span>}
          <Link to={`/creator/${encodeURIComponent(title.creator.accountId)}`} className="hover:text-brand" data-testid="selected-release-creator">
            {t('market.selectedRelease.by', { name: title.creator.name })}
          </Link>
        </p>
      </div>
      <div className="flex shrink-0 gap-2">
        <Link to={`/projects/detail/${title.id}`} prefetch="intent" className="btn-primary h-9" data-testid="selected-release-link">
          {t('market.selectedRelease.view')}
        </Link>
        {clear}
      </div>
    </section>
  );
}
