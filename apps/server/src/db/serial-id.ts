import type { ColumnDefinitionBuilder } from 'kysely';
import type { Db } from './database.ts';

/**
 * The auto-increment integer primary key, in each dialect's form: `integer primary key
 * autoincrement` on SQLite, `bigserial primary key` on PostgreSQL. Use as
 * `.addColumn('id', id.type, id.pk)`.
 */
export function serialId(db: Db) {
  const sqlite = db.dialect === 'sqlite';
  return {
    type: (sqlite ? 'integer' : 'bigserial') as 'integer',
    pk: (c: ColumnDefinitionBuilder) => (sqlite ? c.primaryKey().autoIncrement() : c.primaryKey()),
  };
}
