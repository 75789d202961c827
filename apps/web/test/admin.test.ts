import { describe, expect, it } from 'vitest';
import { ADMIN_PERMISSIONS, AdminPaths, permissionsOf, STAFF_ROLES } from '@cfx/contract/admin-rules.ts';
import { adminEn } from '../app/i18n/admin.en.ts';
import { adminZh } from '../app/i18n/admin.zh.ts';
import { ADMIN_NAV, visibleNav } from '../app/features/admin/nav.ts';

/** The console's catalogs and navigation (pure modules; the pages are exercised by e2e/tests/admin.test.ts). */
function keys(obj: unknown, prefix = ''): string[] {
  if (typeof obj !== 'object' || obj === null) return [prefix];
  return Object.entries(obj).flatMap(([k, v]) => keys(v, prefix ? `${prefix}.${k}` : k));
}
const at = (cat: unknown, k: string) => k.split('.').reduce<unknown>((o, p) => (o as Record<string, unknown>)[p], cat);

describe('console catalogs', () => {
  it('en has exactly the keys of zh, no empty text, the same placeholders', () => {
    expect(keys(adminEn).sort()).toEqual(keys(adminZh).sort());
    for (const k of keys(adminZh)) {
      const zh = String(at(adminZh, k));
      const en = String(at(adminEn, k));
      expect(zh, k).not.toBe('');
      expect(en, k).not.toBe('');
      const vars = (s: string) => [...s.matchAll(/\{\{(\w+)\}\}/g)].map((m) => m[1]).sort();
      expect(vars(en), k).toEqual(vars(zh));
    }
  });
  it('names every role', () => {
    for (const r of STAFF_ROLES) expect(adminZh.roles[r]).toBeTruthy();
  });
});

describe('console navigation', () => {
  it('links only to console paths and uses known permissions', () => {
    for (const n of ADMIN_NAV) {
      expect(n.to.startsWith('/admin')).toBe(true);
      if (n.permission) expect(ADMIN_PERMISSIONS).toContain(n.permission);
    }
  });
  it('shows each role its sections only (the extension slots to operators and owners)', () => {
    const paths = (role: (typeof STAFF_ROLES)[number]) => visibleNav(permissionsOf([role])).map((n) => n.to);
    expect(paths('owner')).toEqual(ADMIN_NAV.map((n) => n.to));
    expect(paths('reviewer')).toEqual(['/admin', '/admin/users', '/admin/applications', '/admin/kyc', '/admin/creators']);
    expect(paths('operator')).toEqual(['/admin', '/admin/creators', '/admin/releases', '/admin/release-reviews', '/admin/news', '/admin/banners']);
    expect(paths('finance')).toEqual(['/admin', '/admin/users', '/admin/orders', '/admin/withdrawals']);
    expect(paths('support')).toEqual(['/admin', '/admin/users', '/admin/tickets', '/admin/orders']);
  });
  it('the console API paths are all distinct', () => {
    const all = Object.values(AdminPaths);
    expect(new Set(all).size).toBe(all.length);
  });
});
