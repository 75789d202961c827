import { useTranslation } from '../../../i18n/index.ts';
import type { OrderDetail } from '../../../lib/orders/types.ts';
import { PROGRESS, isClosed, progressIndex, textGroup } from '../../../lib/orders/status.ts';

/** 下单 → 已支付 → 链上结算 → 完成, with the current stage animated; a closed order shows where it stopped. */
export function OrderProgress({ order }: { order: Pick<OrderDetail, 'status' | 'timeline'> & { kind?: string } }) {
  const { t } = useTranslation();
  const at = progressIndex(order.status, order.timeline);
  const closed = isClosed(order.status);
  return (
    <ol className="grid grid-cols-4 gap-2" data-testid="order-progress" data-stage={at}>
      {PROGRESS.map((stage, i) => {
        const reached = i <= at;
        const current = i === at && !closed && order.status !== 'completed';
        return (
          <li key={stage} className="flex flex-col items-center gap-1.5 text-center" data-testid={`progress-${stage}`} data-reached={reached ? 'true' : 'false'}>
            <span
              className={`h-1.5 w-full rounded-full ${reached ? (closed ? 'bg-ink-faint' : 'bg-brand') : 'bg-line'} ${current ? 'animate-pulse' : ''}`}
              aria-hidden
            />
            <span className={`text-xs ${reached ? 'text-ink' : 'text-ink-faint'}`}>{t(`${textGroup(order.kind ?? 'market')}.progress.${stage}`)}</span>
          </li>
        );
      })}
    </ol>
  );
}
