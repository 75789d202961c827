import { useQuery } from '@tanstack/react-query';
import { useUserStore } from '../../stores/user.ts';
import { getOrderDetail } from './get-order-detail.ts';
import { isFinal } from './status.ts';

/**
 * One order (getNftOrderDetail), polled every `pollMs` while it is not final (paid → settling →
 * completed happen in the background: payment notify, settlement job, chain receipt).
 * `deadline` is the payment deadline on the browser's clock (fetch time + remainingMs).
 */
export function useOrder(orderNo: string, { pollMs = 1500, poll = true }: { pollMs?: number; poll?: boolean } = {}) {
  const token = useUserStore((s) => s.token);
  const q = useQuery({
    queryKey: ['order', orderNo, token],
    queryFn: () => getOrderDetail(orderNo),
    enabled: token !== '' && orderNo !== '',
    staleTime: 0,
    refetchInterval: (query) => {
      const status = query.state.data?.status;
      if (!poll || query.state.status === 'error') return false;
      return status && isFinal(status) ? false : pollMs;
    },
  });
  const deadline = q.data ? q.dataUpdatedAt + q.data.remainingMs : 0;
  return { ...q, deadline };
}
