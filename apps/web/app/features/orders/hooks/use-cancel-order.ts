import { useMutation } from '@tanstack/react-query';
import { useTranslation } from '../../../i18n/index.ts';
import { toast } from '../../../stores/toast.ts';
import { cancelOrder } from '../api/cancel-order.ts';

/**
 * The buyer cancels an unpaid order (cannelOrder), the one handler of the buy page and the order
 * detail: success shows the server's message (else 订单已取消) and calls `onCancelled`; a failure
 * shows the server's message (the api client). `isPending` disables the button meanwhile.
 */
export function useCancelOrder(onCancelled: () => void) {
  const { t } = useTranslation();
  return useMutation({
    mutationFn: (orderNo: string) => cancelOrder(orderNo),
    onSuccess: (r) => {
      if (!r.ok) return;
      toast.success(r.message || t('orders.cancelled'));
      onCancelled();
    },
  });
}
