import type { TicketStatus } from '@cfx/contract/ticket-rules.ts';
import { useTranslation } from '../../../i18n/index.ts';

const STYLE: Record<TicketStatus, string> = {
  open: 'bg-warning/10 text-warning',
  answered: 'bg-success/10 text-success',
  closed: 'bg-canvas text-ink-faint',
};

export function TicketStatusBadge({ status }: { status: TicketStatus }) {
  const { t } = useTranslation();
  return (
    <span className={`shrink-0 rounded-full px-2 py-0.5 text-xs ${STYLE[status]}`} data-testid="ticket-status" data-status={status}>
      {t(`tickets.status.${status}`)}
    </span>
  );
}
