import { useTranslation } from '../../../i18n/index.ts';
import { formatCnDateTime } from '../../../components/ui/cn-time.ts';
import type { OrderEvent } from '../../../lib/orders/types.ts';

/** Every status move of the order, oldest first (the order-event table), with its time and note. */
export function OrderTimeline({ events }: { events: readonly OrderEvent[] }) {
  const { t } = useTranslation();
  if (events.length === 0) return <p className="text-sm text-ink-faint">{t('common.empty')}</p>;
  return (
    <ol className="relative space-y-4 border-l border-line pl-5" data-testid="order-timeline">
      {events.map((e, i) => (
        <li key={`${e.status}-${e.at}-${i}`} className="relative" data-testid="order-event" data-status={e.status}>
          <span aria-hidden className={`absolute -left-[26px] top-1.5 size-2.5 rounded-full ${i === events.length - 1 ? 'bg-brand' : 'bg-line'}`} />
          <p className="text-sm text-ink">{t(`orders.status.${e.status}`)}</p>
          <p className="tabular text-xs text-ink-faint">{formatCnDateTime(e.at)}</p>
          {e.note && <p className="text-xs text-ink-soft">{e.note}</p>}
        </li>
      ))}
    </ol>
  );
}
