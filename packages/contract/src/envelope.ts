import { z } from 'zod';

/** Status codes of the gateway. `000000` is success; `1100` is a lost session. */
export const Status = {
  OK: '000000',
  /** Invalid parameter, including the password rule (reset 1001) and a refused SMS send. */
  INVALID: '1001',
  /** Phone number not registered (reset 1002). */
  NOT_REGISTERED: '1002',
  ALREADY_REGISTERED: '1003',
  BAD_SMS_CODE: '1004',
  BAD_CREDENTIALS: '1005',
  RATE_LIMITED: '1006',
  BAD_CAPTCHA: '1007',
  BAD_SIGNATURE: '1008',
  WALLET_CONFLICT: '1009',
  /** Real-name verification refused (mismatch, under 18, already used). */
  REALNAME_REFUSED: '1010',
  /** Trading needs real-name verification, age 18+ and a linked wallet. */
  TRADE_NOT_ALLOWED: '1011',
  /** The collectible, order or bid belongs to another user. */
  FORBIDDEN: '1012',
  /** The collectible or listing is not in a state that allows it (not minted, on sale, reserved, holding period, own goods, …). */
  GOODS_STATE: '1013',
  /** The chain disagrees: the token is not owned by the seller's wallet or the exchange is not approved. */
  CHAIN_MISMATCH: '1014',
  /** The order is not in a state that allows it (not payable, expired, not cancellable). */
  ORDER_STATE: '1015',
  /** Payment refused: method unavailable, insufficient balance, invalid cashier link. */
  PAYMENT_REFUSED: '1016',
  /** The bid is not in a state that allows it. */
  BID_STATE: '1017',
  /** The chain service is unavailable (no chain configured or the node does not answer). */
  CHAIN_UNAVAILABLE: '1018',
  /** Earlier signed orders of this collectible are not cancelled on chain yet (Exchange.cancelOrder first). */
  ORDERS_NOT_CANCELLED: '1019',
  /** Ordering paused for this buyer: cooldown after a cancelled / expired order of the listing, or the daily cap of those. */
  ORDER_COOLDOWN: '1020',
  /** Primary sale (drops): busy — too many buyers at this moment or too many attempts; retry after a moment (Retry-After header). */
  DROP_QUEUEING: '1021',
  /** Primary sale (drops): no stock left (or less than asked for). */
  DROP_SOLD_OUT: '1022',
  /** Primary sale (drops): the purchase limit of this real-name identity for the release is reached. */
  DROP_LIMIT: '1023',
  /** Primary sale (drops): the release is not on sale now (not started, ended, or not sold as a drop). */
  DROP_NOT_ON_SALE: '1024',
  /** Primary sale (drops): the caller may not buy or claim in the current phase (not whitelisted, not a lottery winner), or has used up that phase's quota. */
  DROP_NOT_ELIGIBLE: '1025',
  /** A release's lottery: not in a state that allows it (no lottery, sign-up not open or closed, already entered). */
  LOTTERY_STATE: '1026',
  /** An upload refused: no file, empty, too large, or not an accepted type (judged by its bytes). */
  UPLOAD_REFUSED: '1030',
  /** Project application: not allowed in its state (one already open, or not reviewable as asked). */
  SETTLED_STATE: '1031',
  /** Creator studio: not possible in the draft's state (edit a submitted or approved draft, submit twice, review one not submitted). */
  DRAFT_STATE: '1036',
  /** Account cancellation refused: the account still holds goods or money that would be lost (data: {blockers}). */
  ACCOUNT_HAS_ASSETS: '1032',
  /** Account cancellation not possible in its state (a request already pending, none to withdraw, account closed). */
  ACCOUNT_CANCEL_STATE: '1033',
  /** The account is frozen by the platform (operations console): login and trading are refused. */
  ACCOUNT_FROZEN: '1034',
  /** Operations console (ADMIN_BASE): missing, invalid, expired, idle or pending staff session. */
  STAFF_AUTH: '1070',
  /** Operations console: the staff member's roles do not include the route's permission. */
  STAFF_FORBIDDEN: '1071',
  /** Operations console: wrong, replayed or missing TOTP code, or a locked-out login. */
  STAFF_TOTP: '1072',
  /** Operations console: not possible in the current state (the last owner, a disabled account, a taken name, …). */
  STAFF_STATE: '1073',
  /** Blind box: not a box, not revealed yet, already opened, or its opening is in another state (docs/drops.md "Blind boxes"). */
  BOX_STATE: '1050',
  /** Compose: the rule is not active or has no results left, the selection does not fit it, or the compose is in another state. */
  COMPOSE_STATE: '1051',
  /** Shift / gift refused: a bad or foreign destination, a receiver who cannot receive, or the daily gift limit. */
  TRANSFER_REFUSED: '1052',
  /** A customer-service ticket not in a state that allows it (closed, reopen window over, already open). */
  TICKET_STATE: '1041',
  /** Bank card refused: bad number (Luhn), unsupported bank or a credit card, holder not the verified person, the bank's 4-element check failed (docs/payouts.md). */
  CARD_REFUSED: '1060',
  /** Payout account, card, merchant or split relation not in a state that allows it (none bound, already open, a withdrawal in flight). */
  PAYOUT_STATE: '1061',
  /** A withdrawal outside its limits: below the minimum, above the maximum, the daily count or amount, not more than the fee. */
  WITHDRAW_REFUSED: '1062',
  /** A refund to the original payment method refused: not a stray payment, already refunded, the credit already spent, method without refunds. */
  REFUND_REFUSED: '1063',
  NOT_FOUND: '1404',
  /** An unknown release, collectible, news item, creator or image id (answered with HTTP 404). */
  NOT_FOUND_ITEM: '1404',
  /** Missing, invalid, expired or logged-out token. */
  SESSION_LOST: '1100',
  SERVER_ERROR: '9999',
} as const;
export type StatusCode = (typeof Status)[keyof typeof Status];

/** The spec's envelope: every API answer carries status, code, data, message and msg. */
export function envelope<T extends z.ZodType>(data: T) {
  return z.object({
    status: z.string(),
    code: z.union([z.string(), z.number()]),
    data,
    message: z.string(),
    msg: z.string(),
  });
}

export const anyEnvelope = envelope(z.unknown());
export type Envelope<T> = { status: string; code: string | number; data: T; message: string; msg: string };

/** Header names the gateway reads. */
export const TOKEN_HEADER = 'token';
export const CHANNEL_HEADER = 'channel';
export const API_BASE = '/mvapi/public';
