/** Order states: created → paying → paid → settling → completed, or cancelled / expired / refunded. */
import type { OrderStatus } from './types.ts';

export const AWAITING_PAYMENT: readonly OrderStatus[] = ['created', 'paying'];
export const IN_SETTLEMENT: readonly OrderStatus[] = ['paid', 'settling'];
export const FINAL: readonly OrderStatus[] = ['completed', 'cancelled', 'expired', 'refunded'];
export const CLOSED: readonly OrderStatus[] = ['cancelled', 'expired', 'refunded'];

export const isAwaitingPayment = (s: OrderStatus) => AWAITING_PAYMENT.includes(s);
export const isFinal = (s: OrderStatus) => FINAL.includes(s);
export const isClosed = (s: OrderStatus) => CLOSED.includes(s);

/** The progress bar's stages and how far an order got (-1: closed before paying). */
export const PROGRESS = ['created', 'paid', 'settling', 'completed'] as const;
export type ProgressStage = (typeof PROGRESS)[number];

export function progressIndex(status: OrderStatus, timeline: readonly { status: OrderStatus }[] = []): number {
  switch (status) {
    case 'created':
    case 'paying':
      return 0;
    case 'paid':
      return 1;
    case 'settling':
      return 2;
    case 'completed':
      return 3;
    default: {
      // closed: as far as the timeline got before it closed
      let best = -1;
      for (const e of timeline) best = Math.max(best, e.status === 'created' || e.status === 'paying' ? 0 : e.status === 'paid' ? 1 : e.status === 'settling' ? 2 : -1);
      return best;
    }
  }
}

export const STATUS_TONE: Record<OrderStatus, string> = {
  created: 'bg-warning/15 text-warning',
  paying: 'bg-warning/15 text-warning',
  paid: 'bg-info/10 text-info',
  settling: 'bg-info/10 text-info',
  completed: 'bg-success/10 text-success',
  cancelled: 'bg-ink-faint/15 text-ink-soft',
  expired: 'bg-ink-faint/15 text-ink-soft',
  refunded: 'bg-danger/10 text-danger',
};

/** The payment status page of an order (personal center, pamentSuccess). */
export const paymentStatusPath = (orderNo: string) => `/personal-center/conmponents/pamentSuccess?orderNo=${encodeURIComponent(orderNo)}`;

/** Where an order's goods link goes: the collectible; a drop order's first collectible, or its release before it has one. */
export function goodsPath(o: { kind: string; goods: { id: number }; drop?: { projectId: number } | null }): string {
  if (o.kind === 'drop' && o.drop && !o.goods.id) return `/projects/dropping/${o.drop.projectId}`;
  return `/assets/${o.goods.id}`;
}

/** The i18n group of an order's status texts: drop orders mint instead of settling a resale. */
export const textGroup = (kind: string) => (kind === 'drop' ? 'drops' : 'orders');
