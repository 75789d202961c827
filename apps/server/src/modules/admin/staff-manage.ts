import { Status } from '@cfx/contract/envelope.ts';
import type { StaffRole } from '@cfx/contract/admin-rules.ts';
import type { AdminStaffRow, StaffWithPassword } from '@cfx/contract/admin.ts';
import type { AppContext } from '../../context.ts';
import { changed, lockKey, type Q } from '../../db/tx.ts';
import { ApiError } from '../../http/envelope.ts';
import type { AuditEntry } from './audit.ts';
import { hashedOneTimePassword, parseRoles, rolesText, STAFF_COLUMNS, staffView } from './staff-accounts.ts';

/**
 * Staff management for owners (docs/admin.md "Staff"): list, change roles, reset TOTP (the next
 * login enrols again), reset the password (a new one-time password), disable / enable. Every
 * change that could leave no active owner — disabling one, taking the role away — is refused
 * (1073) under a lock on the owner set, so two owners demoting each other at once cannot both win.
 * Disabling, resetting TOTP or the password ends the account's sessions.
 */
export async function listStaff(ctx: AppContext): Promise<AdminStaffRow[]> {
  const rows = await ctx.db.kysely.selectFrom('staff').select([...STAFF_COLUMNS]).orderBy('id').execute();
  return rows.map((r) => staffView({ ...r, id: Number(r.id) }));
}

async function staffRow(trx: Q, id: number) {
  const r = await trx.selectFrom('staff').select([...STAFF_COLUMNS]).where('id', '=', id).executeTakeFirst();
  if (!r) throw new ApiError(Status.NOT_FOUND_ITEM, 'staffNotFound', {}, 404);
  return { ...r, id: Number(r.id) };
}

/** Refuses when, without `id`, no enabled owner would remain. Call under the owners lock. */
async function keepAnOwner(trx: Q, id: number) {
  const others = await trx.selectFrom('staff').select(['id', 'roles']).where('disabled_at', 'is', null).where('id', '<>', id).execute();
  if (!others.some((o) => parseRoles(o.roles).includes('owner'))) throw new ApiError(Status.STAFF_STATE, 'staffLastOwner');
}

const lockOwners = (ctx: AppContext, trx: Q) => lockKey(ctx, trx, 'staff:owners');

async function endSessions(trx: Q, staffId: number, now: number): Promise<number> {
  return changed(await trx.updateTable('staff_sessions').set({ revoked_at: now }).where('staff_id', '=', staffId).where('revoked_at', 'is', null).executeTakeFirst());
}

export async function setRoles(ctx: AppContext, trx: Q, id: number, roles: StaffRole[], now: number): Promise<{ staff: AdminStaffRow; entry: AuditEntry }> {
  await lockOwners(ctx, trx);
  const before = await staffRow(trx, id);
  const next = rolesText(roles);
  if (!next) throw new ApiError(Status.INVALID, 'badParams');
  const wasOwner = parseRoles(before.roles).includes('owner');
  if (wasOwner && !roles.includes('owner') && before.disabled_at === null) await keepAnOwner(trx, id);
  await trx.updateTable('staff').set({ roles: next, updated_at: now }).where('id', '=', id).execute();
  const staff = staffView(await staffRow(trx, id));
  return { staff, entry: { action: 'staff.roles', targetType: 'staff', targetId: id, summary: { username: before.username, before: { roles: parseRoles(before.roles) }, after: { roles: staff.roles } } } };
}

export async function setDisabled(ctx: AppContext, trx: Q, actorId: number, id: number, disable: boolean, now: number): Promise<{ staff: AdminStaffRow; entry: AuditEntry }> {
  await lockOwners(ctx, trx);
  if (disable && id === actorId) throw new ApiError(Status.STAFF_STATE, 'staffNotSelf');
  const before = await staffRow(trx, id);
  if (disable) {
    if (before.disabled_at !== null) throw new ApiError(Status.STAFF_STATE, 'staffAlreadyDisabled');
    if (parseRoles(before.roles).includes('owner')) await keepAnOwner(trx, id);
    await trx.updateTable('staff').set({ disabled_at: now, updated_at: now }).where('id', '=', id).where('disabled_at', 'is', null).execute();
    await endSessions(trx, id, now);
  } else {
    if (before.disabled_at === null) throw new ApiError(Status.STAFF_STATE, 'staffNotDisabled');
    await trx.updateTable('staff').set({ disabled_at: null, updated_at: now }).where('id', '=', id).execute();
  }
  const staff = staffView(await staffRow(trx, id));
  return {
    staff,
    entry: { action: disable ? 'staff.disable' : 'staff.enable', targetType: 'staff', targetId: id, summary: { username: before.username, before: { disabled: before.disabled_at !== null }, after: { disabled: disable } } },
  };
}

export async function resetTotp(trx: Q, id: number, now: number): Promise<{ staff: AdminStaffRow; entry: AuditEntry }> {
  const before = await staffRow(trx, id);
  // totp_last_step stays: a code of the old secret can never be replayed either.
  await trx.updateTable('staff').set({ totp_secret: null, totp_enabled: 0, updated_at: now }).where('id', '=', id).execute();
  const ended = await endSessions(trx, id, now);
  return { staff: staffView(await staffRow(trx, id)), entry: { action: 'staff.reset_totp', targetType: 'staff', targetId: id, summary: { username: before.username, sessionsEnded: ended } } };
}

/** `otp`: as insertStaff's (hashed before the transaction by the create-staff tool). */
export async function resetPassword(trx: Q, id: number, now: number, otp?: { password: string; hash: string }): Promise<StaffWithPassword & { entry: AuditEntry }> {
  const before = await staffRow(trx, id);
  const { password, hash } = otp ?? (await hashedOneTimePassword());
  await trx.updateTable('staff').set({ password_hash: hash, must_change_password: 1, updated_at: now }).where('id', '=', id).execute();
  const ended = await endSessions(trx, id, now);
  return {
    staff: staffView(await staffRow(trx, id)),
    oneTimePassword: password,
    entry: { action: 'staff.reset_password', targetType: 'staff', targetId: id, summary: { username: before.username, sessionsEnded: ended } },
  };
}
