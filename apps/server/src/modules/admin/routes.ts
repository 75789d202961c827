import type { FastifyInstance } from 'fastify';
import { Status } from '@cfx/contract/envelope.ts';
import { AdminPaths } from '@cfx/contract/admin-rules.ts';
import * as A from '@cfx/contract/admin.ts';
import type { AppContext } from '../../context.ts';
import { ApiError } from '../../http/envelope.ts';
import { reviewApplication } from '../settled/index.ts';
import { closeTicket, replyTicket } from '../tickets/index.ts';
import { closeUnpaidOrder } from '../orders/index.ts';
import { refundOrder } from '../orders/index.ts';
import { adminRoute, guardAdminScope } from './admin-route.ts';
import { applicationDetail, listApplications } from './applications.ts';
import { listAudit } from './audit-list.ts';
import { attachedUpload, sendUpload } from './files.ts';
import { listKyc, revokeKyc } from './kyc.ts';
import { checkRefundable, claimSettlement, orderDetailForStaff, searchOrders } from './orders.ts';
import { salesReport } from './sales.ts';
import { insertStaff } from './staff-accounts.ts';
import { meOf, staffChangePassword, staffLogin, staffLogout, staffTotp } from './staff-auth.ts';
import { listStaff, resetPassword, resetTotp, setDisabled, setRoles } from './staff-manage.ts';
import { listTicketsForStaff, ticketForStaff } from './tickets.ts';
import { checkReason, freezeUser, revealMobile, searchUsers, unfreezeUser, userDetail } from './users.ts';
import { afterCreatorChange, checkCreatorEdit, creatorForStaff, listCreatorsForStaff, setCreatorDisabled, setCreatorVerified, updateCreatorByStaff } from './creators.ts';
import { withdrawalRoutes } from './withdrawals.ts';
import { catalogRoutes } from './catalog/routes.ts';

/**
 * The console routes other modules add (they import admin's adminRoute, so admin cannot import
 * them): given by the app at start-up.
 */
export interface AdminPlugins {
  /** The creator studio's release reviews (modules/studio/admin-routes.ts). */
  releaseReviews: (scope: FastifyInstance, ctx: AppContext) => void;
}

/**
 * The operations console's API under ADMIN_BASE (docs/admin.md): registered in its own scope by
 * app.ts. Every route is declared with adminRoute — its access (a permission of the map in
 * @cfx/contract/admin-rules.ts or a sign-in step) and whether it writes an audit row — and is
 * hidden from the public OpenAPI document. The staff token travels in `x-staff-token` only.
 */
export async function adminRoutes(scope: FastifyInstance, ctx: AppContext, plugins: AdminPlugins) {
  guardAdminScope(scope);

  /* ───────────── sign-in (staff-auth.ts) ───────────── */
  adminRoute(scope, ctx, {
    path: AdminPaths.login, access: 'login', audit: true, body: A.loginBody,
    handler: (c) => staffLogin(ctx, c.body, c.meta, c.audit),
  });
  adminRoute(scope, ctx, {
    path: AdminPaths.totp, access: 'code', audit: true, body: A.totpBody, okKey: 'loginOk',
    handler: (c) => staffTotp(ctx, c.staff, c.body.code, c.meta, c.audit),
  });
  adminRoute(scope, ctx, {
    path: AdminPaths.password, access: 'new-password', audit: true, body: A.passwordBody, okKey: 'staffPasswordChanged',
    handler: (c) => staffChangePassword(ctx, c.staff, c.body, c.meta, c.audit),
  });
  adminRoute(scope, ctx, {
    path: AdminPaths.logout, access: 'self', audit: true, okKey: 'logoutOk',
    handler: async (c) => {
      await staffLogout(ctx, c.staff, c.audit);
      return null;
    },
  });
  adminRoute(scope, ctx, { path: AdminPaths.me, access: 'self', audit: false, handler: async (c) => meOf(c.staff) });

  /* ───────────── sales (sales.ts) ───────────── */
  adminRoute(scope, ctx, {
    path: AdminPaths.sales, access: 'sales.read', audit: false, body: A.salesBody,
    handler: (c) => salesReport(ctx, c.body.from, c.body.to),
  });

  /* ───────────── users (users.ts) ───────────── */
  adminRoute(scope, ctx, { path: AdminPaths.usersSearch, access: 'users.read', audit: false, body: A.usersSearchBody, handler: (c) => searchUsers(ctx, c.body) });
  adminRoute(scope, ctx, { path: AdminPaths.userDetail, access: 'users.read', audit: false, body: A.userIdBody, handler: (c) => userDetail(ctx, c.body.userId) });
  adminRoute(scope, ctx, {
    path: AdminPaths.userReveal, access: 'users.reveal', audit: true, body: A.userIdBody,
    handler: async (c) => {
      const r = await c.tx((trx) => revealMobile(trx, c.body.userId), (x) => x.entry);
      return { mobile: r.mobile };
    },
  });
  adminRoute(scope, ctx, {
    path: AdminPaths.userFreeze, access: 'users.freeze', audit: true, body: A.userReasonBody, okKey: 'userFrozenOk',
    handler: async (c) => {
      const reason = checkReason(c.body.reason);
      await c.tx((trx, now) => freezeUser(ctx, trx, c.staff.id, c.body.userId, reason, now), (e) => e);
      return userDetail(ctx, c.body.userId);
    },
  });
  adminRoute(scope, ctx, {
    path: AdminPaths.userUnfreeze, access: 'users.freeze', audit: true, body: A.userReasonBody, okKey: 'userUnfrozenOk',
    handler: async (c) => {
      const reason = checkReason(c.body.reason);
      await c.tx((trx, now) => unfreezeUser(ctx, trx, c.staff.id, c.body.userId, reason, now), (e) => e);
      return userDetail(ctx, c.body.userId);
    },
  });

  /* ───────────── project applications (applications.ts, modules/settled) ───────────── */
  adminRoute(scope, ctx, { path: AdminPaths.applicationsList, access: 'applications.read', audit: false, body: A.applicationsListBody, handler: (c) => listApplications(ctx, c.body) });
  adminRoute(scope, ctx, { path: AdminPaths.applicationDetail, access: 'applications.read', audit: false, body: A.idBody, handler: (c) => applicationDetail(ctx, c.body.id) });
  adminRoute(scope, ctx, {
    path: AdminPaths.applicationReview, access: 'applications.review', audit: true, body: A.reviewBody, okKey: 'applicationReviewed',
    handler: async (c) => {
      const { id, decision } = c.body;
      const reason = decision === 'rejected' ? checkReason(c.body.reason) : (c.body.reason ?? '').trim() || undefined;
      const before = await applicationDetail(ctx, id);
      await c.call(
        (cx) => reviewApplication(cx, c.staff.userId, id, decision, reason),
        () => ({ action: 'application.review', targetType: 'application', targetId: id, summary: { project: before.projectName, before: { status: before.status }, after: { status: decision }, reason: reason ?? null } }),
      );
      return applicationDetail(ctx, id);
    },
  });
  adminRoute(scope, ctx, {
    method: 'GET', path: AdminPaths.applicationFile, access: 'applications.read', audit: true, querystring: A.fileQuery,
    handler: async (c) => {
      const { id, key } = c.query;
      const file = await c.tx(
        async (trx) => {
          const f = await attachedUpload(trx, 'application', id, key);
          if (!f) throw new ApiError(Status.NOT_FOUND_ITEM, 'notFound', {}, 404);
          return f;
        },
        (f) => ({ action: 'application.file', targetType: 'application', targetId: id, summary: { file: f.name } }),
      );
      return sendUpload(ctx, c.reply, key, file.name);
    },
  });

  /* ───────────── creators (creators.ts): read with creators.read, change with catalog.edit ───────────── */
  adminRoute(scope, ctx, { path: AdminPaths.creatorsList, access: 'creators.read', audit: false, body: A.creatorsListBody, handler: (c) => listCreatorsForStaff(ctx, c.body) });
  adminRoute(scope, ctx, { path: AdminPaths.creatorDetail, access: 'creators.read', audit: false, body: A.idBody, handler: (c) => creatorForStaff(ctx, c.body.id) });
  adminRoute(scope, ctx, {
    path: AdminPaths.creatorUpdate, access: 'catalog.edit', audit: true, body: A.creatorUpdateBody, okKey: 'creatorSavedOk',
    handler: async (c) => {
      const before = await creatorForStaff(ctx, c.body.id);
      const set = await checkCreatorEdit(ctx, c.body, before);
      await c.tx(async (trx, now) => updateCreatorByStaff(trx, await creatorForStaff(ctx, c.body.id, trx), set, now), (r) => r.entry);
      afterCreatorChange(ctx);
      return creatorForStaff(ctx, c.body.id);
    },
  });
  for (const [path, on] of [
    [AdminPaths.creatorDisable, true],
    [AdminPaths.creatorEnable, false],
  ] as const) {
    adminRoute(scope, ctx, {
      path, access: 'catalog.edit', audit: true, body: A.creatorReasonBody, okKey: on ? 'creatorDisabledOk' : 'creatorEnabledOk',
      handler: async (c) => {
        const reason = checkReason(c.body.reason);
        await c.tx((trx, now) => setCreatorDisabled(trx, c.body.id, on, reason, now), (e) => e);
        afterCreatorChange(ctx);
        return creatorForStaff(ctx, c.body.id);
      },
    });
  }
  adminRoute(scope, ctx, {
    path: AdminPaths.creatorVerify, access: 'catalog.edit', audit: true, body: A.creatorVerifyBody, okKey: 'creatorVerifiedOk',
    handler: async (c) => {
      await c.tx((trx, now) => setCreatorVerified(trx, c.body.id, c.body.verified, now), (e) => e);
      return creatorForStaff(ctx, c.body.id);
    },
  });

  /* ───────────── real-name verifications (kyc.ts) ───────────── */
  adminRoute(scope, ctx, { path: AdminPaths.kycList, access: 'kyc.read', audit: false, body: A.kycListBody, handler: (c) => listKyc(ctx, c.body) });
  adminRoute(scope, ctx, {
    path: AdminPaths.kycRevoke, access: 'kyc.revoke', audit: true, body: A.userReasonBody, okKey: 'kycRevokedOk',
    handler: async (c) => {
      const reason = checkReason(c.body.reason);
      await c.tx((trx, now) => revokeKyc(ctx, trx, c.staff.id, c.body.userId, reason, now), (e) => e);
      return null;
    },
  });

  /* ───────────── customer-service tickets (tickets.ts, modules/tickets) ───────────── */
  adminRoute(scope, ctx, { path: AdminPaths.ticketsList, access: 'tickets.read', audit: false, body: A.ticketsListBody, handler: (c) => listTicketsForStaff(ctx, c.body) });
  adminRoute(scope, ctx, { path: AdminPaths.ticketDetail, access: 'tickets.read', audit: false, body: A.idBody, handler: (c) => ticketForStaff(ctx, c.body.id) });
  adminRoute(scope, ctx, {
    path: AdminPaths.ticketReply, access: 'tickets.answer', audit: true, body: A.ticketReplyBody, okKey: 'ticketReplied',
    handler: async (c) => {
      const before = await ticketForStaff(ctx, c.body.id);
      await c.call(
        (cx) => replyTicket(cx, c.staff.userId, c.body.id, c.body.text),
        () => ({ action: 'ticket.reply', targetType: 'ticket', targetId: c.body.id, summary: { before: { status: before.status }, after: { status: 'answered' }, chars: [...c.body.text.trim()].length } }),
      );
      return ticketForStaff(ctx, c.body.id);
    },
  });
  adminRoute(scope, ctx, {
    path: AdminPaths.ticketClose, access: 'tickets.answer', audit: true, body: A.idBody, okKey: 'ticketClosedOk',
    handler: async (c) => {
      const before = await ticketForStaff(ctx, c.body.id);
      await c.call(
        (cx) => closeTicket(cx, c.staff.userId, c.body.id),
        () => ({ action: 'ticket.close', targetType: 'ticket', targetId: c.body.id, summary: { before: { status: before.status }, after: { status: 'closed' } } }),
      );
      return ticketForStaff(ctx, c.body.id);
    },
  });
  adminRoute(scope, ctx, {
    method: 'GET', path: AdminPaths.ticketFile, access: 'tickets.read', audit: true, querystring: A.fileQuery,
    handler: async (c) => {
      const { id, key } = c.query;
      const file = await c.tx(
        async (trx) => {
          const f = await attachedUpload(trx, 'ticket', id, key);
          if (!f) throw new ApiError(Status.NOT_FOUND_ITEM, 'notFound', {}, 404);
          return f;
        },
        (f) => ({ action: 'ticket.file', targetType: 'ticket', targetId: id, summary: { file: f.name } }),
      );
      return sendUpload(ctx, c.reply, key, file.name);
    },
  });

  /* ───────────── orders (orders.ts, modules/orders) ───────────── */
  adminRoute(scope, ctx, { path: AdminPaths.ordersSearch, access: 'orders.read', audit: false, body: A.ordersSearchBody, handler: (c) => searchOrders(ctx, c.body) });
  adminRoute(scope, ctx, { path: AdminPaths.orderDetail, access: 'orders.read', audit: false, body: A.orderNoBody, handler: (c) => orderDetailForStaff(ctx, c.body.orderNo) });
  adminRoute(scope, ctx, {
    path: AdminPaths.orderCancel, access: 'orders.act', audit: true, body: A.orderActBody, okKey: 'orderCancelledOk',
    handler: async (c) => {
      const reason = checkReason(c.body.reason);
      const { orderNo } = c.body;
      const before = await orderDetailForStaff(ctx, orderNo);
      await c.call(
        (cx) => closeUnpaidOrder(cx, orderNo, 'cancelled', { reason: `cancelled by staff #${c.staff.id}` }),
        (closed) => {
          if (closed !== true) throw new ApiError(Status.ORDER_STATE, 'orderNotCancellable');
          return { action: 'order.cancel', targetType: 'order', targetId: orderNo, summary: { before: { status: before.status }, after: { status: 'cancelled' }, priceFen: before.priceFen, reason } };
        },
      );
      return orderDetailForStaff(ctx, orderNo);
    },
  });
  adminRoute(scope, ctx, {
    path: AdminPaths.orderRefund, access: 'orders.act', audit: true, body: A.orderActBody, okKey: 'orderRefundedOk',
    handler: async (c) => {
      const reason = checkReason(c.body.reason);
      const { orderNo } = c.body;
      const { priceFen, buyerId } = await checkRefundable(ctx, orderNo);
      await c.call(
        (cx) => refundOrder(cx, orderNo, `refunded by staff #${c.staff.id}`),
        async (refunded, trx) => {
          if (refunded !== true) throw new ApiError(Status.ORDER_STATE, 'orderNotRefundable');
          await claimSettlement(trx, orderNo, ctx.now());
          return { action: 'order.refund', targetType: 'order', targetId: orderNo, summary: { before: { status: 'paid' }, after: { status: 'refunded' }, priceFen, toUser: buyerId, reason } };
        },
      );
      return orderDetailForStaff(ctx, orderNo);
    },
  });

  /* ───────────── withdrawals (withdrawals.ts, modules/payout) ───────────── */
  withdrawalRoutes(scope, ctx);

  /* ───────────── staff (owner: staff-manage.ts) ───────────── */
  adminRoute(scope, ctx, { path: AdminPaths.staffList, access: 'staff.manage', audit: false, handler: () => listStaff(ctx) });
  adminRoute(scope, ctx, {
    path: AdminPaths.staffCreate, access: 'staff.manage', audit: true, body: A.staffCreateBody, okKey: 'staffCreated',
    handler: (c) =>
      c.tx(
        (trx, now) => insertStaff(trx, { username: c.body.username, roles: c.body.roles, createdBy: c.staff.id, now }),
        (r) => ({ action: 'staff.create', targetType: 'staff', targetId: r.staff.id, summary: { username: r.staff.username, after: { roles: r.staff.roles } } }),
      ),
  });
  adminRoute(scope, ctx, {
    path: AdminPaths.staffRoles, access: 'staff.manage', audit: true, body: A.staffRolesBody, okKey: 'staffSaved',
    handler: async (c) => (await c.tx((trx, now) => setRoles(ctx, trx, c.body.staffId, c.body.roles, now), (r) => r.entry)).staff,
  });
  adminRoute(scope, ctx, {
    path: AdminPaths.staffResetTotp, access: 'staff.manage', audit: true, body: A.staffIdBody, okKey: 'staffSaved',
    handler: async (c) => (await c.tx((trx, now) => resetTotp(trx, c.body.staffId, now), (r) => r.entry)).staff,
  });
  adminRoute(scope, ctx, {
    path: AdminPaths.staffResetPassword, access: 'staff.manage', audit: true, body: A.staffIdBody, okKey: 'staffSaved',
    handler: async (c) => {
      const r = await c.tx((trx, now) => resetPassword(trx, c.body.staffId, now), (x) => x.entry);
      return { staff: r.staff, oneTimePassword: r.oneTimePassword };
    },
  });
  adminRoute(scope, ctx, {
    path: AdminPaths.staffDisable, access: 'staff.manage', audit: true, body: A.staffIdBody, okKey: 'staffSaved',
    handler: async (c) => (await c.tx((trx, now) => setDisabled(ctx, trx, c.staff.id, c.body.staffId, true, now), (r) => r.entry)).staff,
  });
  adminRoute(scope, ctx, {
    path: AdminPaths.staffEnable, access: 'staff.manage', audit: true, body: A.staffIdBody, okKey: 'staffSaved',
    handler: async (c) => (await c.tx((trx, now) => setDisabled(ctx, trx, c.staff.id, c.body.staffId, false, now), (r) => r.entry)).staff,
  });

  /* ───────────── catalogue and content editors (catalog/routes.ts) ───────────── */
  await catalogRoutes(scope, ctx);
  /* ───────────── release reviews of the creator studio (studio/admin-routes.ts) ───────────── */
  plugins.releaseReviews(scope, ctx);

  /* ───────────── audit log (audit-list.ts) ───────────── */
  adminRoute(scope, ctx, { path: AdminPaths.auditList, access: 'audit.read', audit: false, body: A.auditListBody, handler: (c) => listAudit(ctx, c.body) });
}
