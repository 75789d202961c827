import { SETTLED_CATEGORIES, type SettledCategory } from '@cfx/contract/settled-rules.ts';
import { useTranslation } from '../../../i18n/index.ts';
import { formatCnDateTime } from '../../../components/ui/cn-time.ts';
import { Price } from '../../../components/ui/price.tsx';
import type { SettledApplication } from '../api/types.ts';

const STATUS_STYLE: Record<SettledApplication['status'], string> = {
  submitted: 'bg-info/10 text-info',
  reviewing: 'bg-warning/10 text-warning',
  approved: 'bg-success/10 text-success',
  rejected: 'bg-danger/10 text-danger',
};

/** My applications, newest first: status, plan, files, dates and — when rejected — the staff's reason. */
export function MyApplications({ list }: { list: SettledApplication[] }) {
  const { t } = useTranslation();
  return (
    <section data-testid="settled-mine" aria-labelledby="settled-mine-title">
      <h2 id="settled-mine-title" className="mb-4 text-lg font-semibold text-ink">
        {t('settled.mine.title')}
      </h2>
      {list.length === 0 ? (
        <p className="card p-6 text-center text-sm text-ink-faint" data-testid="settled-mine-empty">
          {t('settled.mine.empty')}
        </p>
      ) : (
        <ul className="space-y-3">
          {list.map((a) => (
            <li key={a.id} className="card flex flex-col gap-4 p-4 sm:flex-row sm:p-5" data-testid="settled-application" data-status={a.status} data-id={a.id}>
              {a.artworks[0] && <img src={a.artworks[0].url} alt={a.artworks[0].name} className="size-20 shrink-0 rounded-control object-cover" loading="lazy" />}
              <div className="min-w-0 flex-1">
                <div className="flex flex-wrap items-center gap-2">
                  <h3 className="truncate text-base font-medium text-ink" data-testid="settled-application-name">
                    {a.projectName}
                  </h3>
                  <span className={`rounded-full px-2 py-0.5 text-xs ${STATUS_STYLE[a.status]}`} data-testid="settled-application-status">
                    {t(`settled.status.${a.status}`)}
                  </span>
                </div>
                <p className="mt-1 text-sm text-ink-soft">
                  {a.creatorName} · {(SETTLED_CATEGORIES as readonly string[]).includes(a.category) ? t(`settled.categories.${a.category as SettledCategory}`) : a.category} ·{' '}
                  {t('settled.mine.plan', { supply: a.supply })} × <Price fen={a.priceFen} />
                </p>
                <p className="mt-1 text-xs text-ink-faint">
                  {t('settled.mine.files', { artworks: a.artworks.length, qualifications: a.qualifications.length })} · {t('settled.mine.submittedAt', { time: formatCnDateTime(a.createdAt, false) })}
                  {a.reviewedAt ? ` · ${t('settled.mine.reviewedAt', { time: formatCnDateTime(a.reviewedAt, false) })}` : ''}
                </p>
                {a.status === 'rejected' && a.rejectReason && (
                  <p className="mt-2 rounded-control bg-danger/5 px-3 py-2 text-sm text-danger" data-testid="settled-application-reason">
                    {t('settled.mine.rejectReason', { reason: a.rejectReason })}
                  </p>
                )}
              </div>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
