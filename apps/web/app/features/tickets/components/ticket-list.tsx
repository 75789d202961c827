import { Link, useSearchParams } from 'react-router';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { TICKET_STATUSES, type TicketStatus } from '@cfx/contract/ticket-rules.ts';
import { useTranslation } from '../../../i18n/index.ts';
import { formatCnDateTime } from '../../../components/ui/cn-time.ts';
import { Pager } from '../../../components/ui/pager.tsx';
import { EmptyBlock, LoadingBlock } from '../../../components/ui/spinner.tsx';
import { useUserStore } from '../../../stores/user.ts';
import { listTickets } from '../api/tickets.ts';
import { TicketStatusBadge } from './status-badge.tsx';

const PAGE_SIZE = 10;

/** My tickets, latest activity first, filtered by ?status= and paged by ?page=; a dot marks unread staff replies. */
export function TicketList() {
  const { t } = useTranslation();
  const token = useUserStore((s) => s.token);
  const [params] = useSearchParams();
  const raw = params.get('status');
  const status = (TICKET_STATUSES as readonly string[]).includes(raw ?? '') ? (raw as TicketStatus) : undefined;
  const page = Math.max(1, Math.min(10_000, Number(params.get('page')) || 1));
  const q = useQuery({
    queryKey: ['tickets', token, status ?? 'all', page],
    queryFn: () => listTickets(page, PAGE_SIZE, status),
    enabled: token !== '',
    placeholderData: keepPreviousData,
  });
  const tabs: (TicketStatus | undefined)[] = [undefined, ...TICKET_STATUSES];

  return (
    <div data-testid="ticket-list">
      <div className="mb-4 flex flex-wrap items-center justify-between gap-3">
        <nav className="flex gap-1 text-sm" aria-label={t('tickets.myTickets')}>
          {tabs.map((s) => (
            <Link
              key={s ?? 'all'}
              to={{ search: s ? `?status=${s}` : '' }}
              className={`rounded-full px-3 py-1 ${s === status ? 'bg-brand-soft text-brand' : 'text-ink-soft hover:text-brand'}`}
              aria-current={s === status ? 'page' : undefined}
              data-testid={`ticket-tab-${s ?? 'all'}`}
            >
              {s ? t(`tickets.status.${s}`) : t('tickets.all')}
            </Link>
          ))}
        </nav>
        <Link to={{ search: '?new=1' }} className="btn-primary" data-testid="ticket-new">
          {t('tickets.newTicket')}
        </Link>
      </div>
      {q.data && (
        <p className="mb-3 text-xs text-ink-faint">
          {q.data.unreadTickets > 0 && (
            <span className="mr-3 text-danger" data-testid="ticket-unread-total">
              {t('tickets.unreadCount', { count: q.data.unreadTickets })}
            </span>
          )}
          {t('tickets.remainingToday', { count: q.data.remainingToday })}
        </p>
      )}
      {q.isPending ? (
        <LoadingBlock label={t('common.loading')} />
      ) : q.isError ? (
        <p className="py-6 text-center text-sm text-ink-faint">
          {t('common.loadFailed')}{' '}
          <button type="button" className="text-brand hover:underline" onClick={() => void q.refetch()}>
            {t('common.retry')}
          </button>
        </p>
      ) : q.data.list.length === 0 ? (
        <EmptyBlock label={t('tickets.empty')} />
      ) : (
        <ul className="divide-y divide-line" id="ticket-items">
          {q.data.list.map((tk) => (
            <li key={tk.id}>
              <Link to={{ search: `?id=${tk.id}` }} className="flex items-start gap-3 py-4 hover:bg-canvas/60" data-testid="ticket-item" data-id={tk.id} data-unread={tk.unread > 0 ? '1' : '0'}>
                <div className="min-w-0 flex-1">
                  <div className="flex items-center gap-2">
                    <TicketStatusBadge status={tk.status} />
                    <span className="truncate font-medium text-ink" data-testid="ticket-item-subject">
                      {tk.subject}
                    </span>
                    {tk.unread > 0 && (
                      <span className="flex shrink-0 items-center gap-1 text-xs text-danger" data-testid="ticket-item-unread">
                        <span className="size-2 rounded-full bg-danger" aria-hidden="true" />
                        {t('tickets.unreadBadge')}
                      </span>
                    )}
                  </div>
                  <p className="mt-1 text-xs text-ink-faint">
                    {t(`tickets.categories.${tk.category}`)} · {t('tickets.lastActivity', { time: formatCnDateTime(tk.lastMessageAt, false) })}
                    {tk.orderNo ? ` · ${t('tickets.orderLabel', { no: tk.orderNo })}` : ''}
                  </p>
                </div>
                <span className="text-ink-faint" aria-hidden="true">
                  ›
                </span>
              </Link>
            </li>
          ))}
        </ul>
      )}
      {q.data && <Pager page={page} total={q.data.total} pageSize={PAGE_SIZE} anchor="ticket-items" />}
    </div>
  );
}
