import { useTranslation } from '../../../i18n/index.ts';
import type { OrderStatus } from '../../../lib/orders/types.ts';
import { STATUS_TONE } from '../../../lib/orders/status.ts';

export function OrderStatusBadge({ status, className = '' }: { status: OrderStatus; className?: string }) {
  const { t } = useTranslation();
  return (
    <span className={`inline-flex h-6 items-center whitespace-nowrap rounded-full px-2.5 text-xs font-medium ${STATUS_TONE[status]} ${className}`} data-testid="order-status" data-status={status}>
      {t(`orders.status.${status}`)}
    </span>
  );
}
