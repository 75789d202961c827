import crypto from 'node:crypto';
import { Status } from '@cfx/contract/envelope.ts';
import { STAFF_ROLES, STAFF_USERNAME_RE, type StaffRole } from '@cfx/contract/admin-rules.ts';
import type { AdminStaffRow } from '@cfx/contract/admin.ts';
import type { StaffTable } from '../../db/schema.ts';
import { isUniqueViolation, type Q } from '../../db/tx.ts';
import { ApiError } from '../../http/envelope.ts';
import { hashPassword } from '../../util/crypto.ts';

/**
 * Staff accounts: creation with a one-time password (the CLI bootstraps the first owner this way;
 * owners create the others), roles, and the row → API view. Every staff account acts in the
 * domain tables whose actor columns reference users (ticket replies, application reviews) as its
 * own users row: a non-login account whose phone and invite code can never be typed (`s:<name>`,
 * a lower-case invite code — codes are upper-cased before lookup) and no password.
 */

/** The roles stored as text (comma-separated), read back in the order of STAFF_ROLES; unknown values dropped. */
export function parseRoles(text: string): StaffRole[] {
  const set = new Set(text.split(',').map((s) => s.trim()));
  return STAFF_ROLES.filter((r) => set.has(r));
}
export function rolesText(roles: readonly StaffRole[]): string {
  return STAFF_ROLES.filter((r) => roles.includes(r)).join(',');
}

export function normaliseUsername(raw: string): string {
  return raw.trim().toLowerCase();
}

export function checkUsername(raw: string): string {
  const u = normaliseUsername(raw);
  if (!STAFF_USERNAME_RE.test(u)) throw new ApiError(Status.INVALID, 'staffBadUsername');
  return u;
}

const OTP_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';
/** A one-time password: 16 characters in four groups (letters and digits, no look-alikes), ~79 bits. */
export function oneTimePassword(): string {
  for (;;) {
    let s = '';
    for (let i = 0; i < 16; i++) s += OTP_ALPHABET[crypto.randomInt(OTP_ALPHABET.length)];
    if (/\d/.test(s) && /[a-z]/.test(s)) return s.match(/.{4}/g)!.join('-');
  }
}

type StaffRowLike = Pick<StaffTable, 'username' | 'roles' | 'totp_enabled' | 'must_change_password' | 'disabled_at' | 'created_at' | 'last_login_at'> & { id: number };
export function staffView(r: StaffRowLike): AdminStaffRow {
  return {
    id: Number(r.id),
    username: r.username,
    roles: parseRoles(r.roles),
    totpEnabled: Number(r.totp_enabled) === 1,
    mustChangePassword: Number(r.must_change_password) === 1,
    disabledAt: r.disabled_at === null ? null : Number(r.disabled_at),
    createdAt: Number(r.created_at),
    lastLoginAt: r.last_login_at === null ? null : Number(r.last_login_at),
  };
}

export const STAFF_COLUMNS = ['id', 'username', 'roles', 'totp_enabled', 'must_change_password', 'disabled_at', 'created_at', 'last_login_at'] as const;

/**
 * Creates a staff account (inside the caller's transaction) with a fresh one-time password: the
 * first login must enrol TOTP and then set a new password. A taken user name is 1073.
 */
/** A one-time password with its hash, made before a transaction opens (scrypt takes a while; see insertStaff). */
export async function hashedOneTimePassword(): Promise<{ password: string; hash: string }> {
  const password = oneTimePassword();
  return { password, hash: await hashPassword(password) };
}

/**
 * `otp`: a one-time password hashed beforehand (hashedOneTimePassword), so that the transaction does
 * not hold the database's write lock through scrypt — the create-staff tool runs beside a server on
 * the same SQLite file, whose writers wait for that lock. Without it one is made here.
 */
export async function insertStaff(
  trx: Q,
  input: { username: string; roles: readonly StaffRole[]; createdBy: number | null; now: number },
  otp?: { password: string; hash: string },
): Promise<{ staff: AdminStaffRow; oneTimePassword: string }> {
  const username = checkUsername(input.username);
  const roles = rolesText(input.roles);
  if (!roles) throw new ApiError(Status.INVALID, 'badParams');
  if (await trx.selectFrom('staff').select('id').where('username', '=', username).executeTakeFirst()) {
    throw new ApiError(Status.STAFF_STATE, 'staffUsernameTaken');
  }
  const { password, hash } = otp ?? (await hashedOneTimePassword());
  try {
    const user = await trx
      .insertInto('users')
      .values({
        account_id: `staff:${username}`,
        mobile: `s:${username}`,
        password_hash: null,
        nickname: `staff:${username}`.slice(0, 64),
        profpic_id: '1',
        is_realname: 0,
        is_creator: 0,
        wallet_address: null,
        invite_code: `s${crypto.randomBytes(4).toString('hex').slice(0, 7)}`,
        invited_by: null,
        regist_channel: 'staff',
        created_at: input.now,
        cancelled_at: null,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const row = await trx
      .insertInto('staff')
      .values({
        username,
        password_hash: hash,
        roles,
        totp_secret: null,
        totp_enabled: 0,
        totp_last_step: 0,
        must_change_password: 1,
        user_id: Number(user.id),
        disabled_at: null,
        created_by: input.createdBy,
        created_at: input.now,
        last_login_at: null,
        updated_at: input.now,
      })
      .returning([...STAFF_COLUMNS])
      .executeTakeFirstOrThrow();
    return { staff: staffView({ ...row, id: Number(row.id) }), oneTimePassword: password };
  } catch (err) {
    if (isUniqueViolation(err)) throw new ApiError(Status.STAFF_STATE, 'staffUsernameTaken');
    throw err;
  }
}

/** Ids of the users rows that staff accounts act as (left out of the console's user lists). */
export function staffUserIds(q: Q) {
  return q.selectFrom('staff').select('user_id');
}
