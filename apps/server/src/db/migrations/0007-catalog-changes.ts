import { sql, type Kysely, type Migration } from 'kysely';
import type { Db } from '../database.ts';
import { serialId } from '../serial-id.ts';

/**
 * A change log of what a collectible page shows, written by triggers so that no writer can forget
 * it: every update or delete of a goods row logs that goods id; a change of a user's nickname or
 * avatar, or of an avatar picture, logs a row with no goods id (meaning "any collectible may be
 * affected"). The collectible-details response cache (`catalog/goods-detail-cache.ts`) reads the
 * rows after its last seen seq and drops exactly those entries. Rows are pruned after
 * CHANGE_LOG_KEEP_MS by the cache itself.
 */
export function migration(db: Db): Migration {
  const id = serialId(db);
  const sqlite = db.dialect === 'sqlite';
  return {
    async up(k: Kysely<any>) {
      await k.schema
        .createTable('catalog_changes')
        .addColumn('seq', id.type, id.pk)
        .addColumn('goods_id', 'bigint')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();
      await k.schema.createIndex('catalog_changes_created').on('catalog_changes').column('created_at').execute();
      if (sqlite) {
        const now = sql.raw(`cast((julianday('now') - 2440587.5) * 86400000 as integer)`);
        await sql`create trigger goods_changed_u after update on goods begin insert into catalog_changes (goods_id, created_at) values (new.id, ${now}); end`.execute(k);
        await sql`create trigger goods_changed_d after delete on goods begin insert into catalog_changes (goods_id, created_at) values (old.id, ${now}); end`.execute(k);
        await sql`create trigger users_face_changed after update of nickname, profpic_id on users begin insert into catalog_changes (goods_id, created_at) values (null, ${now}); end`.execute(k);
        await sql`create trigger profpics_changed after update on profpics begin insert into catalog_changes (goods_id, created_at) values (null, ${now}); end`.execute(k);
      } else {
        const now = sql.raw(`(extract(epoch from clock_timestamp()) * 1000)::bigint`);
        await sql`create function log_goods_change() returns trigger language plpgsql as $$
          begin
            if tg_op = 'DELETE' then
              insert into catalog_changes (goods_id, created_at) values (old.id, ${now});
            else
              insert into catalog_changes (goods_id, created_at) values (new.id, ${now});
            end if;
            return null;
          end $$`.execute(k);
        await sql`create function log_face_change() returns trigger language plpgsql as $$
          begin
            insert into catalog_changes (goods_id, created_at) values (null, ${now});
            return null;
          end $$`.execute(k);
        await sql`create trigger goods_changed after update or delete on goods for each row execute function log_goods_change()`.execute(k);
        await sql`create trigger users_face_changed after update of nickname, profpic_id on users for each row execute function log_face_change()`.execute(k);
        await sql`create trigger profpics_changed after update on profpics for each row execute function log_face_change()`.execute(k);
      }
    },
  };
}
