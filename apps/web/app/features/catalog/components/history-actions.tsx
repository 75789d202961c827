import { useState } from 'react';
import { useTranslation } from '../../../i18n/index.ts';
import { formatCnDateTime } from '../../../components/ui/cn-time.ts';
import { Price } from '../../../components/ui/price.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { api } from '../../../lib/api.ts';
import { listHistoryActions } from '../api/list-history-actions.ts';
import type { HistoryAction, Page } from '../api/types.ts';

export const HISTORY_PAGE_SIZE = 10;

/**
 * A collectible's history (mint, list, delist, sale, transfer), newest first. The first page comes
 * from the loader (server-rendered); "load more" fetches the next pages in the browser.
 */
export function HistoryActions({ goodsId, first }: { goodsId: number; first: Page<HistoryAction> | null }) {
  const { t } = useTranslation();
  const [rows, setRows] = useState<HistoryAction[]>(first?.list ?? []);
  const [total, setTotal] = useState(first?.total ?? 0);
  /** Pages loaded so far (0 when the loader's first page failed). */
  const [page, setPage] = useState(first ? 1 : 0);
  const [state, setState] = useState<'idle' | 'loading' | 'error'>(first ? 'idle' : 'error');

  async function loadMore() {
    setState('loading');
    const next = page + 1;
    const r = await listHistoryActions(api, { id: goodsId, pageNum: next, pageSize: HISTORY_PAGE_SIZE });
    if (!r.ok) return setState('error');
    setRows((old) => (next === 1 ? r.data.list : [...old, ...r.data.list]));
    setTotal(r.data.total);
    setPage(next);
    setState('idle');
  }

  if (rows.length === 0 && state === 'idle') {
    return (
      <p className="py-8 text-center text-ink-faint" data-testid="history-empty">
        {t('catalog.noHistory')}
      </p>
    );
  }
  return (
    <div data-testid="history-actions">
      <ul className="divide-y divide-line text-sm">
        {rows.map((a, i) => (
          <li key={`${a.at}-${a.action}-${i}`} className="flex flex-wrap items-center gap-x-4 gap-y-1 py-3" data-testid="history-row" data-action={a.action}>
            <span className="w-14 shrink-0 font-medium text-ink">{t(`catalog.actions.${a.action}`)}</span>
            <span className="min-w-0 flex-1 truncate text-ink-soft">
              {a.from?.nickname ?? '—'} <span aria-hidden>→</span> {a.to?.nickname ?? '—'}
            </span>
            <span className="w-24 text-right font-medium text-ink">
              <Price fen={a.priceFen} />
            </span>
            <span className="tabular w-40 text-right text-xs text-ink-faint">{formatCnDateTime(a.at)}</span>
          </li>
        ))}
      </ul>
      {state === 'error' && (
        <p className="py-4 text-center text-sm text-ink-faint">
          {t('common.loadFailed')}{' '}
          <button type="button" className="text-brand hover:underline" onClick={() => void loadMore()}>
            {t('common.retry')}
          </button>
        </p>
      )}
      {state !== 'error' && rows.length < total && (
        <div className="pt-4 text-center">
          <button type="button" className="btn-ghost h-9" onClick={() => void loadMore()} disabled={state === 'loading'} data-testid="history-more">
            {state === 'loading' ? (
              <>
                <Spinner /> {t('common.loading')}
              </>
            ) : (
              t('catalog.loadMore')
            )}
          </button>
        </div>
      )}
    </div>
  );
}
