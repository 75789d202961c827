import { Link, useLocation } from 'react-router';
import { useTranslation } from '../../i18n/index.ts';

/** Page numbers to show: first, last, and a window around the current page; 0 marks a gap. */
export function pageWindow(page: number, pages: number, around = 2): number[] {
  const out: number[] = [];
  for (let p = 1; p <= pages; p++) {
    if (p === 1 || p === pages || Math.abs(p - page) <= around) out.push(p);
    else if (out[out.length - 1] !== 0) out.push(0);
  }
  return out;
}

/**
 * Paging by links (`?page=N`, other query parameters kept), so every page is server-rendered and
 * shareable. `anchor` is the id of the list to scroll back to after a click.
 */
export function Pager({ page, total, pageSize, anchor, param = 'page' }: { page: number; total: number; pageSize: number; anchor?: string; param?: string }) {
  const { t } = useTranslation();
  const { pathname, search } = useLocation();
  const pages = Math.ceil(total / pageSize);
  if (pages <= 1) return null;
  const href = (p: number) => {
    const q = new URLSearchParams(search);
    if (p <= 1) q.delete(param);
    else q.set(param, String(p));
    const s = q.toString();
    return `${pathname}${s ? `?${s}` : ''}`;
  };
  const onClick = () => {
    if (anchor) document.getElementById(anchor)?.scrollIntoView({ block: 'start', behavior: 'smooth' });
  };
  const cell = 'inline-flex h-9 min-w-9 items-center justify-center rounded-control px-2 text-sm tabular';
  return (
    <nav aria-label={t('listing.pager')} className="mt-8 flex flex-wrap items-center justify-center gap-1.5" data-testid="pager">
      {page > 1 ? (
        <Link to={href(page - 1)} onClick={onClick} className={`${cell} border border-line bg-surface hover:border-brand hover:text-brand`} data-testid="pager-prev" rel="prev">
          {t('listing.prevPage')}
        </Link>
      ) : (
        <span className={`${cell} border border-line text-ink-faint`} aria-disabled="true">
          {t('listing.prevPage')}
        </span>
      )}
      {pageWindow(page, pages).map((p, i) =>
        p === 0 ? (
          <span key={`gap${i}`} className="px-1 text-ink-faint" aria-hidden>
            …
          </span>
        ) : (
          <Link
            key={p}
            to={href(p)}
            onClick={onClick}
            aria-current={p === page ? 'page' : undefined}
            data-testid={`pager-${p}`}
            className={`${cell} ${p === page ? 'bg-brand font-medium text-white' : 'border border-line bg-surface hover:border-brand hover:text-brand'}`}
          >
            {p}
          </Link>
        ),
      )}
      {page < pages ? (
        <Link to={href(page + 1)} onClick={onClick} className={`${cell} border border-line bg-surface hover:border-brand hover:text-brand`} data-testid="pager-next" rel="next">
          {t('listing.nextPage')}
        </Link>
      ) : (
        <span className={`${cell} border border-line text-ink-faint`} aria-disabled="true">
          {t('listing.nextPage')}
        </span>
      )}
    </nav>
  );
}
