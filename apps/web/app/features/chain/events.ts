/**
 * How a chain record reads to a person. The indexer (apps/server src/chain/indexer.ts) stores our
 * contracts' events: Transfer (from → to), Approval (owner → approved), OrderExecuted (seller →
 * buyer), OrderCancelled (seller).
 */
export type ChainEventLabel = 'mint' | 'transfer' | 'burn' | 'approve' | 'revoke' | 'sale' | 'cancel';

/**
 * The zero address in any form: empty, 0x00…00, or base32 (all-zero payload = 34 × 'a' plus an
 * 8-character checksum, e.g. `cfx:aaaa…0sfbnjm2`; the verbose `CFX:TYPE.NULL:` form too).
 */
export function isZeroAddress(address: string | null | undefined): boolean {
  if (!address) return true;
  if (/^0x0{40}$/i.test(address)) return true;
  return /^[a-z]+:(?:type\.null:)?a{34}[0-9a-z]{8}$/i.test(address);
}

/** The label of a record, or null for an event this page does not know (shown by its name). */
export function eventLabelOf(r: { event: string; from: string; to: string }): ChainEventLabel | null {
  switch (r.event) {
    case 'Transfer':
      if (isZeroAddress(r.from)) return 'mint';
      if (isZeroAddress(r.to)) return 'burn';
      return 'transfer';
    case 'Approval':
      return isZeroAddress(r.to) ? 'revoke' : 'approve';
    case 'OrderExecuted':
      return 'sale';
    case 'OrderCancelled':
      return 'cancel';
    default:
      return null;
  }
}
