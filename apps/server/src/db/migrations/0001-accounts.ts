import type { Kysely, Migration } from 'kysely';
import type { Db } from '../database.ts';
import { serialId } from '../serial-id.ts';

/** Users, sessions, SMS codes and captcha state. Runs identically on SQLite and PostgreSQL. */
export function migration(db: Db): Migration {
  const id = serialId(db);
  return {
    async up(k: Kysely<any>) {
      await k.schema
        .createTable('users')
        .addColumn('id', id.type, id.pk)
        .addColumn('account_id', 'varchar(32)', (c) => c.notNull().unique())
        .addColumn('mobile', 'varchar(20)', (c) => c.notNull().unique())
        .addColumn('password_hash', 'varchar(200)')
        .addColumn('nickname', 'varchar(64)', (c) => c.notNull())
        .addColumn('profpic_id', 'varchar(32)', (c) => c.notNull())
        .addColumn('is_realname', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('is_creator', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('wallet_address', 'varchar(80)', (c) => c.unique())
        .addColumn('invite_code', 'varchar(8)', (c) => c.notNull().unique())
        .addColumn('invited_by', 'bigint', (c) => c.references('users.id'))
        .addColumn('regist_channel', 'varchar(64)')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();
      await k.schema.createIndex('users_invited_by').on('users').column('invited_by').execute();

      await k.schema
        .createTable('sessions')
        .addColumn('token_hash', 'varchar(64)', (c) => c.primaryKey())
        .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id'))
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('expires_at', 'bigint', (c) => c.notNull())
        .addColumn('revoked_at', 'bigint')
        .execute();
      await k.schema.createIndex('sessions_user').on('sessions').column('user_id').execute();

      await k.schema
        .createTable('sms_codes')
        .addColumn('id', id.type, id.pk)
        .addColumn('mobile', 'varchar(20)', (c) => c.notNull())
        .addColumn('type', 'varchar(4)', (c) => c.notNull())
        .addColumn('code_hash', 'varchar(64)', (c) => c.notNull())
        .addColumn('ip', 'varchar(64)', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('expires_at', 'bigint', (c) => c.notNull())
        .addColumn('wrong_tries', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('used_at', 'bigint')
        .execute();
      await k.schema.createIndex('sms_codes_mobile').on('sms_codes').columns(['mobile', 'created_at']).execute();
      await k.schema.createIndex('sms_codes_ip').on('sms_codes').columns(['ip', 'created_at']).execute();

      await k.schema
        .createTable('sms_outbox')
        .addColumn('id', id.type, id.pk)
        .addColumn('mobile', 'varchar(20)', (c) => c.notNull())
        .addColumn('type', 'varchar(4)', (c) => c.notNull())
        .addColumn('code', 'varchar(8)', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();
      await k.schema.createIndex('sms_outbox_mobile').on('sms_outbox').columns(['mobile', 'id']).execute();

      await k.schema
        .createTable('captcha_challenges')
        .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
        .addColumn('answer_x', 'integer', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('expires_at', 'bigint', (c) => c.notNull())
        .addColumn('used_at', 'bigint')
        .execute();
      await k.schema
        .createTable('captcha_tokens')
        .addColumn('token_hash', 'varchar(64)', (c) => c.primaryKey())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('expires_at', 'bigint', (c) => c.notNull())
        .addColumn('used_at', 'bigint')
        .execute();

      await k.schema
        .createTable('login_failures')
        .addColumn('id', id.type, id.pk)
        .addColumn('mobile', 'varchar(20)', (c) => c.notNull())
        .addColumn('ip', 'varchar(64)', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();
      await k.schema.createIndex('login_failures_mobile').on('login_failures').columns(['mobile', 'created_at']).execute();
      await k.schema.createIndex('login_failures_ip').on('login_failures').columns(['ip', 'created_at']).execute();

      await k.schema
        .createTable('reset_tokens')
        .addColumn('token_hash', 'varchar(64)', (c) => c.primaryKey())
        .addColumn('mobile', 'varchar(20)', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('expires_at', 'bigint', (c) => c.notNull())
        .addColumn('used_at', 'bigint')
        .execute();

      await k.schema
        .createTable('profpics')
        .addColumn('id', 'varchar(32)', (c) => c.primaryKey())
        .addColumn('url', 'varchar(300)', (c) => c.notNull())
        .addColumn('sort', 'integer', (c) => c.notNull())
        .execute();
      const pics = Array.from({ length: 12 }, (_, i) => ({
        id: String(i + 1),
        url: `/media/avatars/${i + 1}.svg`,
        sort: i + 1,
      }));
      await k.insertInto('profpics').values(pics).execute();
    },
    async down(k: Kysely<any>) {
      for (const t of ['profpics', 'reset_tokens', 'login_failures', 'captcha_tokens', 'captcha_challenges', 'sms_outbox', 'sms_codes', 'sessions', 'users']) {
        await k.schema.dropTable(t).ifExists().execute();
      }
    },
  };
}
