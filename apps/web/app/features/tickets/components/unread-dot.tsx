import { useQuery } from '@tanstack/react-query';
import { useTranslation } from '../../../i18n/index.ts';
import { useUserStore } from '../../../stores/user.ts';
import { QueryProvider } from '../../../components/query-provider.tsx';
import { ticketUnread } from '../api/tickets.ts';

/**
 * The personal-center menu's mark on "contact service": tickets with a customer-service reply I have
 * not opened. The menu sits outside the pages' QueryProvider; in the browser both share one client,
 * so opening a ticket (which invalidates ['ticket-unread']) clears the mark at once.
 */
export function TicketUnreadDot() {
  return (
    <QueryProvider>
      <Dot />
    </QueryProvider>
  );
}

function Dot() {
  const { t } = useTranslation();
  const token = useUserStore((s) => s.token);
  const q = useQuery({ queryKey: ['ticket-unread', token], queryFn: ticketUnread, enabled: token !== '', refetchInterval: 60_000, staleTime: 20_000 });
  const n = q.data?.unreadTickets ?? 0;
  if (n <= 0) return null;
  return (
    <span className="ml-1.5 inline-block size-2 rounded-full bg-danger align-middle" role="status" aria-label={t('tickets.unreadCount', { count: n })} data-testid="ticket-unread-dot" />
  );
}
