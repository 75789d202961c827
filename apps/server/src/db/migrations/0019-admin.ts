import type { Kysely, Migration } from 'kysely';
import type { Db } from '../database.ts';
import { serialId } from '../serial-id.ts';

/**
 * The operations console (issue #11, modules/admin, docs/admin.md):
 * - `staff`: console accounts — unique lower-case user name, scrypt password hash, roles, the TOTP
 *   secret sealed with the data key, the last accepted TOTP step (replay refusal), a forced password
 *   change after a one-time password, the users row the staff member acts as where domain tables
 *   reference users (ticket replies, application reviews), disabled time;
 * - `staff_sessions`: hashed tokens with their stage (totp / enrol / password / full), absolute and
 *   idle expiry, revocation, masked IP;
 * - `staff_login_failures`: failed password / TOTP tries for the lockout;
 * - `audit_log`: every mutating staff action with a before/after summary (no secrets, masked data);
 * - `user_freezes` + `users.frozen_at`: freezes with reasons (the column is the current state the
 *   session check reads);
 * - `kyc_revocations`: revoked real-name verifications (masked copies; the realname row is deleted).
 * Same DDL on SQLite and PostgreSQL; times epoch ms.
 */
export function migration(db: Db): Migration {
  const id = serialId(db);
  return {
    async up(k: Kysely<any>) {
      await k.schema.alterTable('users').addColumn('frozen_at', 'bigint').execute();

      await k.schema
        .createTable('staff')
        .addColumn('id', id.type, id.pk)
        .addColumn('username', 'varchar(32)', (c) => c.notNull().unique())
        .addColumn('password_hash', 'varchar(200)', (c) => c.notNull())
        .addColumn('roles', 'varchar(100)', (c) => c.notNull())
        .addColumn('totp_secret', 'text')
        .addColumn('totp_enabled', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('totp_last_step', 'bigint', (c) => c.notNull().defaultTo(0))
        .addColumn('must_change_password', 'integer', (c) => c.notNull().defaultTo(1))
        .addColumn('user_id', 'bigint', (c) => c.notNull().unique().references('users.id'))
        .addColumn('disabled_at', 'bigint')
        .addColumn('created_by', 'bigint')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('last_login_at', 'bigint')
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .execute();

      await k.schema
        .createTable('staff_sessions')
        .addColumn('token_hash', 'varchar(64)', (c) => c.primaryKey())
        .addColumn('staff_id', 'bigint', (c) => c.notNull().references('staff.id'))
        .addColumn('stage', 'varchar(16)', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('expires_at', 'bigint', (c) => c.notNull())
        .addColumn('last_seen_at', 'bigint', (c) => c.notNull())
        .addColumn('revoked_at', 'bigint')
        .addColumn('ip_masked', 'varchar(64)', (c) => c.notNull())
        .addColumn('user_agent', 'varchar(300)', (c) => c.notNull())
        .execute();
      await k.schema.createIndex('staff_sessions_staff').on('staff_sessions').columns(['staff_id', 'revoked_at']).execute();

      await k.schema
        .createTable('staff_login_failures')
        .addColumn('id', id.type, id.pk)
        .addColumn('username', 'varchar(64)', (c) => c.notNull())
        .addColumn('ip', 'varchar(64)', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();
      await k.schema.createIndex('staff_login_failures_username').on('staff_login_failures').columns(['username', 'created_at']).execute();
      await k.schema.createIndex('staff_login_failures_ip').on('staff_login_failures').columns(['ip', 'created_at']).execute();

      await k.schema
        .createTable('audit_log')
        .addColumn('id', id.type, id.pk)
        .addColumn('staff_id', 'bigint', (c) => c.references('staff.id'))
        .addColumn('action', 'varchar(64)', (c) => c.notNull())
        .addColumn('target_type', 'varchar(32)', (c) => c.notNull())
        .addColumn('target_id', 'varchar(64)')
        .addColumn('summary', 'text', (c) => c.notNull())
        .addColumn('ip_masked', 'varchar(64)', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();
      // The audit page filters by time, staff, action and target.
      await k.schema.createIndex('audit_log_at').on('audit_log').columns(['created_at', 'id']).execute();
      await k.schema.createIndex('audit_log_staff').on('audit_log').columns(['staff_id', 'id']).execute();
      await k.schema.createIndex('audit_log_action').on('audit_log').columns(['action', 'id']).execute();
      await k.schema.createIndex('audit_log_target').on('audit_log').columns(['target_type', 'target_id', 'id']).execute();

      await k.schema
        .createTable('user_freezes')
        .addColumn('id', id.type, id.pk)
        .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id'))
        .addColumn('reason', 'varchar(400)', (c) => c.notNull())
        .addColumn('frozen_by', 'bigint', (c) => c.notNull().references('staff.id'))
        .addColumn('frozen_at', 'bigint', (c) => c.notNull())
        .addColumn('unfrozen_by', 'bigint', (c) => c.references('staff.id'))
        .addColumn('unfrozen_at', 'bigint')
        .addColumn('unfreeze_reason', 'varchar(400)')
        .execute();
      await k.schema.createIndex('user_freezes_user').on('user_freezes').columns(['user_id', 'id']).execute();

      await k.schema
        .createTable('kyc_revocations')
        .addColumn('id', id.type, id.pk)
        .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id'))
        .addColumn('name_masked', 'varchar(64)', (c) => c.notNull())
        .addColumn('id_masked', 'varchar(32)', (c) => c.notNull())
        .addColumn('provider', 'varchar(16)', (c) => c.notNull())
        .addColumn('verified_at', 'bigint', (c) => c.notNull())
        .addColumn('reason', 'varchar(400)', (c) => c.notNull())
        .addColumn('staff_id', 'bigint', (c) => c.notNull().references('staff.id'))
        .addColumn('revoked_at', 'bigint', (c) => c.notNull())
        .execute();
      await k.schema.createIndex('kyc_revocations_at').on('kyc_revocations').columns(['revoked_at', 'id']).execute();
    },
    async down(k: Kysely<any>) {
      for (const t of ['kyc_revocations', 'user_freezes', 'audit_log', 'staff_login_failures', 'staff_sessions', 'staff']) await k.schema.dropTable(t).execute();
      await k.schema.alterTable('users').dropColumn('frozen_at').execute();
    },
  };
}
