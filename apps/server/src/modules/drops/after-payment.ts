import { jobOf } from '../../jobs/define-job.ts';
import { settleJob } from '../orders/index.ts';
import { fulfilJob } from './fulfil-drop-order.ts';

/**
 * The durable job a paid order needs, inserted in the transaction that marks it paid
 * (payments/apply-payment.ts, payments/pay-order.ts): a market or bid order is settled on chain
 * (`settle:<orderNo>`, orders/settle-order.ts); a drop order is fulfilled — serials allocated,
 * collectibles created and minted (`fulfil:<orderNo>`, drops/fulfil-drop-order.ts).
 */
export function afterPaymentJob(kind: string, orderNo: string): { kind: 'settle' | 'fulfil'; key: string; payload: { orderNo: string } } {
  return kind === 'drop' ? jobOf(fulfilJob, { orderNo }) : jobOf(settleJob, { orderNo });
}
