import type { AdminPermission } from '@cfx/contract/admin-rules.ts';
import type { AdminKey } from './i18n.ts';

/**
 * The console's navigation: one entry per section, shown only to staff whose roles hold its
 * permission (null: everyone signed in). Add a section here and its route module in routes.ts,
 * nothing else (docs/admin.md "Extending").
 */
export interface AdminNavItem {
  to: string;
  label: AdminKey;
  permission: AdminPermission | null;
  group: 'ops' | 'catalog' | 'admin';
  testId: string;
}

export const ADMIN_NAV: AdminNavItem[] = [
  { to: '/admin', label: 'nav.dashboard', permission: null, group: 'ops', testId: 'admin-nav-dashboard' },
  { to: '/admin/users', label: 'nav.users', permission: 'users.read', group: 'ops', testId: 'admin-nav-users' },
  { to: '/admin/applications', label: 'nav.applications', permission: 'applications.read', group: 'ops', testId: 'admin-nav-applications' },
  { to: '/admin/kyc', label: 'nav.kyc', permission: 'kyc.read', group: 'ops', testId: 'admin-nav-kyc' },
  { to: '/admin/tickets', label: 'nav.tickets', permission: 'tickets.read', group: 'ops', testId: 'admin-nav-tickets' },
  { to: '/admin/orders', label: 'nav.orders', permission: 'orders.read', group: 'ops', testId: 'admin-nav-orders' },
  { to: '/admin/withdrawals', label: 'nav.withdrawals', permission: 'withdrawals.read', group: 'ops', testId: 'admin-nav-withdrawals' },
  { to: '/admin/creators', label: 'nav.creators', permission: 'creators.read', group: 'catalog', testId: 'admin-nav-creators' },
  { to: '/admin/releases', label: 'nav.releases', permission: 'catalog.edit', group: 'catalog', testId: 'admin-nav-releases' },
  { to: '/admin/release-reviews', label: 'nav.releaseReviews', permission: 'catalog.edit', group: 'catalog', testId: 'admin-nav-release-reviews' },
  { to: '/admin/news', label: 'nav.news', permission: 'content.edit', group: 'catalog', testId: 'admin-nav-news' },
  { to: '/admin/banners', label: 'nav.banners', permission: 'content.edit', group: 'catalog', testId: 'admin-nav-banners' },
  { to: '/admin/staff', label: 'nav.staff', permission: 'staff.manage', group: 'admin', testId: 'admin-nav-staff' },
  { to: '/admin/audit', label: 'nav.audit', permission: 'audit.read', group: 'admin', testId: 'admin-nav-audit' },
];

export const NAV_GROUPS: { id: AdminNavItem['group']; label: AdminKey }[] = [
  { id: 'ops', label: 'nav.groupOps' },
  { id: 'catalog', label: 'nav.groupCatalog' },
  { id: 'admin', label: 'nav.groupAdmin' },
];

/** The sections a staff member sees. */
export function visibleNav(permissions: readonly string[]): AdminNavItem[] {
  return ADMIN_NAV.filter((n) => n.permission === null || permissions.includes(n.permission));
}
