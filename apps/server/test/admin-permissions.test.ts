import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_PERMISSIONS, AdminPaths, can, PERMISSIONS, STAFF_ROLES, type AdminPermission, type StaffRole } from '@cfx/contract/admin-rules.ts';
import { adminRouteTable, type AdminRouteInfo } from '../src/modules/admin/admin-route.ts';
import { adminCall, adminGet, makeStaff, type Staff } from './admin-helpers.ts';
import { makeApp, type TestApp } from './helpers.ts';

/**
 * The permission map is enforced on every console route: the test walks the routes the app
 * actually registered (adminRouteTable), checks each declares an access, and calls each one
 * without a token (1070) and as every role — refused with 1071 exactly when the map says the role
 * lacks the route's permission.
 */
let t: TestApp;
let routes: AdminRouteInfo[];
const staff = {} as Record<StaffRole, Staff>;

beforeAll(async () => {
  t = await makeApp();
  routes = adminRouteTable(t.ctx);
  for (const role of STAFF_ROLES) staff[role] = await makeStaff(t, [role]);
});
afterAll(async () => {
  await t?.close();
});

async function hit(r: AdminRouteInfo, token?: string) {
  if (r.method === 'GET') {
    const res = await adminGet(t, `${r.path}?id=1&key=private/doc/000000/none.pdf`, token);
    return res.json() as { status: string };
  }
  return adminCall(t, r.path, {}, token);
}

const SIGN_IN = ['login', 'code', 'new-password', 'self'];
const isPermission = (a: string): a is AdminPermission => (ADMIN_PERMISSIONS as string[]).includes(a);

describe('the route table', () => {
  it('has every console path, each route with a known access', () => {
    expect(routes.length).toBeGreaterThanOrEqual(Object.keys(AdminPaths).length);
    expect(new Set(routes.map((r) => r.path))).toEqual(new Set(Object.values(AdminPaths)));
    for (const r of routes) expect(SIGN_IN.includes(r.access) || isPermission(r.access), `${r.path}: ${r.access}`).toBe(true);
  });
  it('the map gives owner everything and every other role something', () => {
    for (const p of ADMIN_PERMISSIONS) expect(can(['owner'], p)).toBe(true);
    for (const role of STAFF_ROLES.filter((x) => x !== 'owner')) expect(ADMIN_PERMISSIONS.some((p) => can([role], p)), role).toBe(true);
    expect(can(['reviewer'], 'orders.act')).toBe(false);
    expect(can(['reviewer', 'finance'], 'orders.act')).toBe(true);
    expect(Object.keys(PERMISSIONS).sort()).toEqual([...ADMIN_PERMISSIONS].sort());
  });
});

describe('without a staff token', () => {
  it('every route but the password step answers 1070', async () => {
    for (const r of routes.filter((x) => x.access !== 'login')) {
      expect((await hit(r)).status, r.path).toBe('1070');
      expect((await hit(r, 'not-a-real-token')).status, r.path).toBe('1070');
    }
  });
});

describe('as each role', () => {
  it('a route is refused (1071) exactly when the role lacks its permission', async () => {
    for (const r of routes.filter((x) => isPermission(x.access))) {
      for (const role of STAFF_ROLES) {
        const status = (await hit(r, staff[role].token)).status;
        if (can([role], r.access as AdminPermission)) expect(['1070', '1071'], `${role} ${r.path}`).not.toContain(status);
        else expect(status, `${role} ${r.path}`).toBe('1071');
      }
    }
  });
  it('self routes work for every role', async () => {
    for (const role of STAFF_ROLES) expect((await adminCall(t, AdminPaths.me, {}, staff[role].token)).status).toBe('000000');
  });
  it('for example: a reviewer cannot refund, freeze or manage staff; support cannot review', async () => {
    const rev = staff.reviewer.token;
    expect(await adminCall(t, AdminPaths.orderRefund, { orderNo: 'X1', reason: '测试退款' }, rev)).toMatchObject({ status: '1071', message: 'your role does not allow this' });
    expect(await adminCall(t, AdminPaths.userFreeze, { userId: 1, reason: '测试冻结' }, rev)).toMatchObject({ status: '1071' });
    expect(await adminCall(t, AdminPaths.staffCreate, { username: 'newbie', roles: ['owner'] }, rev)).toMatchObject({ status: '1071' });
    expect(await adminCall(t, AdminPaths.applicationReview, { id: 1, decision: 'approved' }, staff.support.token)).toMatchObject({ status: '1071' });
    expect(await adminCall(t, AdminPaths.auditList, {}, staff.finance.token)).toMatchObject({ status: '1071' });
  });
  it('a role change applies at once to live sessions', async () => {
    const s = await makeStaff(t, ['support']);
    expect((await adminCall(t, AdminPaths.usersSearch, {}, s.token)).status).toBe('000000');
    expect(await adminCall(t, AdminPaths.staffRoles, { staffId: s.id, roles: ['finance'] }, staff.owner.token)).toMatchObject({ status: '000000', data: { roles: ['finance'] } });
    expect((await adminCall(t, AdminPaths.ticketsList, {}, s.token)).status).toBe('1071');
    expect((await adminCall(t, AdminPaths.ordersSearch, {}, s.token)).status).toBe('000000');
  });
});
