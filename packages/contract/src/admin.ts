import { z } from 'zod';
import { idParam, intLike, pageNum, pageSize } from './paging.ts';
import { orderNoParam, orderStatus } from './market.ts';
import { SETTLED_STATUSES } from './settled-rules.ts';
import { TICKET_STATUSES } from './ticket-rules.ts';
import { REASON_MAX, STAFF_ROLES, type AdminPermission, type StaffRole } from './admin-rules.ts';
import type { SettledApplication } from './settled.ts';
import type { TicketDetail, TicketSummary } from './tickets.ts';

/**
 * Request bodies of the operations console (ADMIN_BASE, docs/admin.md) and the shapes it answers.
 * Bodies bound sizes and types; the rules with their messages are applied by the server.
 */
const str = (max: number) => z.string().max(max);
const optText = (max: number) => z.string().max(max).nullish().transform((v) => (v ?? '').trim());
const reason = z.string().max(REASON_MAX * 2);
const paging = { pageNum, pageSize };
/** A day in China time, yyyy-MM-dd. */
const day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/);
const rolesParam = z.array(z.enum(STAFF_ROLES)).min(1).max(STAFF_ROLES.length);

export const loginBody = z.object({ username: str(64), password: str(128) });
export const totpBody = z.object({ code: z.string().trim().max(12) });
export const passwordBody = z.object({ password: str(128), current: str(128).nullish() });

export const salesBody = z.object({ from: day, to: day });

export const usersSearchBody = z.object({ q: optText(64), frozen: z.boolean().nullish(), ...paging });
export const userIdBody = z.object({ userId: idParam });
export const userReasonBody = z.object({ userId: idParam, reason });

export const applicationsListBody = z.object({ status: z.enum(SETTLED_STATUSES).nullish(), ...paging });
export const idBody = z.object({ id: idParam });
export const reviewBody = z.object({ id: idParam, decision: z.enum(['reviewing', 'approved', 'rejected']), reason: reason.nullish() });
/** GET ?id=&key= — a private file attached to application / ticket `id`. */
export const fileQuery = z.object({ id: idParam, key: str(200) });

/** Creators (docs/admin.md "Creators"): search by name, account id or creator id; filters. */
export const creatorsListBody = z.object({
  q: optText(64),
  disabled: z.boolean().nullish(),
  verified: z.boolean().nullish(),
  ...paging,
});
/**
 * A creator's profile as staff edit it: every field optional (omitted or null = unchanged); avatar
 * and banner are URLs answered by the console's image upload (releases/upload) or the current ones.
 */
export const creatorUpdateBody = z.object({
  id: idParam,
  name: str(200).nullish(),
  intro: str(2000).nullish(),
  avatar: str(400).nullish(),
  banner: str(400).nullish(),
  mediaLinks: z
    .array(z.object({ type: str(32), label: str(100), url: str(1000) }))
    .max(50)
    .nullish(),
});
export const creatorReasonBody = z.object({ id: idParam, reason });
export const creatorVerifyBody = z.object({ id: idParam, verified: z.boolean() });

export const kycListBody = z.object({ q: optText(64), status: z.enum(['verified', 'revoked']).nullish().transform((v) => v ?? 'verified'), ...paging });
export const kycRevokeBody = z.object({ userId: idParam, reason });

export const ticketsListBody = z.object({ status: z.enum(TICKET_STATUSES).nullish(), ...paging });
export const ticketReplyBody = z.object({ id: idParam, text: str(20_000) });

export const ordersSearchBody = z.object({
  orderNo: optText(40),
  /** A user: mobile, account id or user id. */
  user: optText(32),
  status: orderStatus.nullish(),
  kind: z.enum(['market', 'bid', 'drop']).nullish(),
  ...paging,
});
export const orderNoBody = z.object({ orderNo: orderNoParam });
export const orderActBody = z.object({ orderNo: orderNoParam, reason });

export const withdrawNoBody = z.object({ withdrawNo: z.string().trim().min(1).max(40).regex(/^[A-Za-z0-9_-]+$/) });
export const withdrawalsListBody = z.object({ status: z.enum(['requested', 'processing', 'succeeded', 'failed']).nullish(), ...paging });

export const staffCreateBody = z.object({ username: str(64), roles: rolesParam });
export const staffRolesBody = z.object({ staffId: idParam, roles: rolesParam });
export const staffIdBody = z.object({ staffId: idParam });

export const auditListBody = z.object({
  staffId: idParam.nullish(),
  action: optText(64),
  targetType: optText(32),
  targetId: optText(64),
  /** Epoch ms bounds of `at` (inclusive from, exclusive to). */
  from: intLike.pipe(z.number().int().min(0)).nullish(),
  to: intLike.pipe(z.number().int().min(0)).nullish(),
  ...paging,
});

/* ───────────── answers ───────────── */

export interface Page<T> {
  list: T[];
  total: number;
  pageNum: number;
  pageSize: number;
}

/** The login steps: `totp` (enter the code), `enrol` (scan, then enter the code), `password` (set a new password), `done`. */
export type LoginStage = 'totp' | 'enrol' | 'password' | 'done';
export interface LoginAnswer {
  stage: LoginStage;
  /** The session token for the next step (a new one once the stage is `done`). */
  token: string;
  /** Only at enrolment: the secret (base32) and its otpauth:// URI for the authenticator app. */
  enrol?: { secret: string; uri: string };
  me?: StaffMe;
}

export interface StaffMe {
  id: number;
  username: string;
  roles: StaffRole[];
  permissions: AdminPermission[];
  lastLoginAt: number | null;
  /** When this session ends at the latest (it also ends after 30 idle minutes). */
  sessionExpiresAt: number;
}

export interface SalesDay {
  /** yyyy-MM-dd, China time. */
  day: string;
  /** Paid orders of that day (not refunded), primary + resale. */
  orders: number;
  primaryOrders: number;
  resaleOrders: number;
  /** Their prices, fen. */
  gmvFen: number;
  primaryFen: number;
  resaleFen: number;
  /** The platform's commission booked that day (ledger `platform:commission`), fen. */
  commissionFen: number;
}
export interface SalesReport {
  from: string;
  to: string;
  days: SalesDay[];
  totals: Omit<SalesDay, 'day'>;
}

export interface AdminUserRow {
  id: number;
  accountId: string;
  nickname: string;
  mobileMasked: string;
  isRealname: boolean;
  isCreator: boolean;
  walletLinked: boolean;
  frozenAt: number | null;
  cancelledAt: number | null;
  createdAt: number;
}
export interface AdminFreezeRecord {
  frozenAt: number;
  reason: string;
  frozenBy: string;
  unfrozenAt: number | null;
  unfreezeReason: string | null;
  unfrozenBy: string | null;
}
export interface AdminUserDetail extends AdminUserRow {
  balanceFen: number;
  orders: number;
  liveSessions: number;
  realname: { nameMasked: string; idMasked: string; verifiedAt: number } | null;
  freezes: AdminFreezeRecord[];
}

export interface AdminApplicationRow extends SettledApplication {
  userId: number;
  accountId: string;
  mobileMasked: string;
}
export interface AdminApplicationDetail extends AdminApplicationRow {
  events: { from: string | null; to: string; reason: string | null; at: number; byStaff: boolean }[];
}

export interface AdminKycRow {
  userId: number;
  accountId: string;
  nickname: string;
  nameMasked: string;
  idMasked: string;
  provider: string;
  verifiedAt: number;
  /** Revoked rows (status=revoked): when, why and by whom. */
  revokedAt?: number;
  reason?: string;
  revokedBy?: string;
}

export interface AdminTicketRow extends TicketSummary {
  userId: number;
  accountId: string;
  nickname: string;
}
export interface AdminTicketDetail extends TicketDetail {
  userId: number;
  accountId: string;
  nickname: string;
}

export interface AdminOrderRow {
  orderNo: string;
  kind: 'market' | 'bid' | 'drop';
  status: z.infer<typeof orderStatus>;
  priceFen: number;
  commissionFen: number;
  buyerId: number;
  buyerNickname: string;
  sellerId: number;
  sellerNickname: string;
  title: string;
  payMethod: string | null;
  createdAt: number;
  paidAt: number | null;
  closedAt: number | null;
  completedAt: number | null;
}
export interface AdminOrderDetail extends AdminOrderRow {
  quantity: number | null;
  sellerIncomeFen: number;
  royaltyFen: number;
  failReason: string | null;
  txHash: string | null;
  events: { from: string | null; to: string; note: string | null; at: number }[];
  payments: { provider: string; tradeNo: string; amountFen: number; outcome: string; at: number }[];
  ledger: { id: string; kind: string; at: number; entries: { account: string; amountFen: number }[] }[];
  /** What the console may do now (the server checks again). */
  canCancel: boolean;
  canRefund: boolean;
}

export interface AdminWithdrawalRow {
  withdrawNo: string;
  userId: number;
  nickname: string;
  amountFen: number;
  feeFen: number;
  netFen: number;
  status: 'requested' | 'processing' | 'succeeded' | 'failed';
  bankName: string;
  cardMasked: string;
  failReason: string | null;
  createdAt: number;
  finishedAt: number | null;
}

export interface AdminStaffRow {
  id: number;
  username: string;
  roles: StaffRole[];
  totpEnabled: boolean;
  mustChangePassword: boolean;
  disabledAt: number | null;
  createdAt: number;
  lastLoginAt: number | null;
}
/** Staff created or reset: the one-time password, shown once. */
export interface StaffWithPassword {
  staff: AdminStaffRow;
  oneTimePassword: string;
}

export interface AuditRow {
  id: number;
  staffId: number | null;
  /** The staff member's user name, or `cli` for the bootstrap tool. */
  actor: string;
  action: string;
  targetType: string;
  targetId: string | null;
  /** Before / after summary: no secrets, personal data masked. */
  summary: Record<string, unknown>;
  ip: string;
  at: number;
}

export type AdminApplicationsPage = Page<AdminApplicationRow>;
export type AdminTicketsPage = Page<AdminTicketRow>;

export interface AdminCreatorRow {
  id: number;
  userId: number;
  accountId: string;
  name: string;
  avatar: string;
  /** Releases of this creator. */
  projectCount: number;
  disabledAt: number | null;
  verifiedAt: number | null;
  /** The application whose approval made this creator, or null. */
  applicationId: number | null;
  createdAt: number;
}

export interface AdminCreatorDetail extends AdminCreatorRow {
  banner: string;
  intro: string;
  mediaLinks: { type: string; label: string; url: string }[];
  updatedAt: number | null;
}
