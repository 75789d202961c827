/**
 * The operations console (issue #11, docs/admin.md): its API base, the staff token header, every
 * path, the staff roles and THE permission map — the one place that says which role may do what.
 * The server checks every admin route against it; the web console uses it to show only the
 * sections a role may use. No zod here (the web imports these values; zod stays out of its bundle).
 */
import { CatalogAdminPaths } from './admin-catalog-rules.ts';

/** The console's API: same envelope as the gateway, its own prefix, never in the public docs. */
export const ADMIN_BASE = '/mvapi/admin';
/** The staff session token travels in this header only (never a cookie: CSRF-safe; never the user `token`). */
export const STAFF_TOKEN_HEADER = 'x-staff-token';

export const STAFF_ROLES = ['owner', 'operator', 'reviewer', 'support', 'finance'] as const;
export type StaffRole = (typeof STAFF_ROLES)[number];

/**
 * What a staff member may do. `owner` may do everything (it is not listed below); the other roles
 * get exactly the permissions that name them. Catalogue and content permissions are for the
 * release / news / banner editors built on this foundation (docs/admin.md "Extending").
 */
export const PERMISSIONS = {
  /** Create staff, change roles, reset TOTP or password, disable / enable. */
  'staff.manage': [],
  /** Read the audit log. */
  'audit.read': [],
  /** Look users up (masked phone numbers). */
  'users.read': ['support', 'reviewer', 'finance'],
  /** Reveal a user's full phone number (audited). */
  'users.reveal': ['support'],
  /** Freeze / unfreeze a user. */
  'users.freeze': ['support'],
  /** Project applications: list, read, download their private documents. */
  'applications.read': ['reviewer'],
  'applications.review': ['reviewer'],
  /** Real-name verifications (masked): list; revoke with a reason. */
  'kyc.read': ['reviewer'],
  'kyc.revoke': ['reviewer'],
  /** Customer-service tickets: read (with screenshots), answer, close. */
  'tickets.read': ['support'],
  'tickets.answer': ['support'],
  /** Orders: search and detail; cancel an unpaid one, refund a paid unsettled one. */
  'orders.read': ['finance', 'support'],
  'orders.act': ['finance'],
  /** Withdrawals (money out to bank cards): list; submit a stuck one to the provider again. */
  'withdrawals.read': ['finance'],
  'withdrawals.act': ['finance'],
  /** Sales charts (GMV, orders, primary vs resale, commission). */
  'sales.read': ['finance'],
  /** Releases: phases, whitelist CSV, lottery, blind boxes, compose recipes; creators: edit, disable / enable, verify. */
  'catalog.edit': ['operator'],
  /** Creators: list and read (editing them is catalog.edit). */
  'creators.read': ['operator', 'reviewer'],
  /** News, banners, recommend lists. */
  'content.edit': ['operator'],
} as const satisfies Record<string, readonly StaffRole[]>;
export type AdminPermission = keyof typeof PERMISSIONS;
export const ADMIN_PERMISSIONS = Object.keys(PERMISSIONS) as AdminPermission[];

/** Whether a staff member with `roles` holds `permission`. */
export function can(roles: readonly string[], permission: AdminPermission): boolean {
  if (roles.includes('owner')) return true;
  return (PERMISSIONS[permission] as readonly string[]).some((r) => roles.includes(r));
}

/** Every permission `roles` hold (what /auth/me answers; the console builds its navigation from it). */
export function permissionsOf(roles: readonly string[]): AdminPermission[] {
  return ADMIN_PERMISSIONS.filter((p) => can(roles, p));
}

/**
 * Who may call a route besides a permission: `login` (anyone: the password step), `code` (a
 * session whose password was right and that waits for its TOTP code or enrolment), `new-password`
 * (a session that must set a new password after a one-time one, or any full session), `self`
 * (any fully signed-in staff member, about themself).
 */
export type AdminAccess = AdminPermission | 'login' | 'code' | 'new-password' | 'self';

/** Paths under ADMIN_BASE. All POST JSON except the two file downloads (GET ?id=&key=). */
export const AdminPaths = {
  login: '/auth/login',
  totp: '/auth/totp',
  password: '/auth/password',
  logout: '/auth/logout',
  me: '/auth/me',

  sales: '/sales/daily',

  usersSearch: '/users/search',
  userDetail: '/users/detail',
  userReveal: '/users/reveal',
  userFreeze: '/users/freeze',
  userUnfreeze: '/users/unfreeze',

  applicationsList: '/applications/list',
  applicationDetail: '/applications/detail',
  applicationReview: '/applications/review',
  applicationFile: '/applications/file',

  kycList: '/kyc/list',
  kycRevoke: '/kyc/revoke',

  ticketsList: '/tickets/list',
  ticketDetail: '/tickets/detail',
  ticketReply: '/tickets/reply',
  ticketClose: '/tickets/close',
  ticketFile: '/tickets/file',

  ordersSearch: '/orders/search',
  orderDetail: '/orders/detail',
  orderCancel: '/orders/cancel',
  orderRefund: '/orders/refund',

  withdrawalsList: '/withdrawals/list',
  withdrawalRetry: '/withdrawals/retry',

  staffList: '/staff/list',
  staffCreate: '/staff/create',
  staffRoles: '/staff/roles',
  staffResetTotp: '/staff/reset-totp',
  staffResetPassword: '/staff/reset-password',
  staffDisable: '/staff/disable',
  staffEnable: '/staff/enable',

  auditList: '/audit/list',

  creatorsList: '/creators/list',
  creatorDetail: '/creators/detail',
  creatorUpdate: '/creators/update',
  creatorDisable: '/creators/disable',
  creatorEnable: '/creators/enable',
  creatorVerify: '/creators/verify',

  /** The creator studio's release reviews (catalog.edit): {state?, pageNum, pageSize}; {id} approve; {id, reason} reject. */
  releaseReviewsList: '/release-reviews/list',
  releaseReviewApprove: '/release-reviews/approve',
  releaseReviewReject: '/release-reviews/reject',

  /** The catalogue and content editors (releases, phases, whitelist, boxes, compose; news, banners, recommend lists). */
  ...CatalogAdminPaths,
} as const;

/** Staff user names: 3-16 of a-z, 0-9, `_`, `.`, `-`, starting with a letter (stored lower-case). */
export const STAFF_USERNAME_RE = /^[a-z][a-z0-9_.-]{2,15}$/;
/** Staff passwords: 10-64 characters with at least one letter and one digit. */
export const STAFF_PASSWORD_MIN = 10;
export const STAFF_PASSWORD_MAX = 64;
export function validStaffPassword(p: string): boolean {
  return p.length >= STAFF_PASSWORD_MIN && p.length <= STAFF_PASSWORD_MAX && /[A-Za-z]/.test(p) && /\d/.test(p);
}

/** Free-text reasons staff give (freeze, refund, revoke, reject): 2-200 characters. */
export const REASON_MIN = 2;
export const REASON_MAX = 200;

/** TOTP of every staff account (RFC 6238): 30-second steps, 6 digits, HMAC-SHA1; ±1 step accepted. */
export const TOTP = { stepSeconds: 30, digits: 6, window: 1, issuer: 'CFX Art Admin' } as const;

/** Staff sessions: 8 hours at most, ended after 30 idle minutes; a pending one (password done) lives 5 minutes. */
export const STAFF_SESSION = { maxMs: 8 * 3600_000, idleMs: 30 * 60_000, pendingMs: 5 * 60_000 } as const;

/** The longest range the sales charts aggregate at once. */
export const SALES_MAX_DAYS = 366;
