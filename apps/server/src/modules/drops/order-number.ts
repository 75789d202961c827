/** Drop orders' numbers begin with this (market orders: MO, bids' orders: BO). */
export const DROP_ORDER_PREFIX = 'DO';

/** Whether `orderNo` is a drop order's number (its payment needs no settlement dry run). */
export function isDropOrderNo(orderNo: string): boolean {
  return orderNo.startsWith(DROP_ORDER_PREFIX);
}
