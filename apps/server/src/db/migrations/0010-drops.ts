import { sql, type Kysely, type Migration } from 'kysely';
import type { Db } from '../database.ts';

/**
 * Primary sale ("drops", issue #10, docs/drops.md):
 * - `orders` takes drop orders too: `listing_id` / `goods_id` become nullable (a drop order has no
 *   listing, and its collectibles only exist once it is paid), and `project_id`, `quantity`,
 *   `unit_price_fen`, `identity_digest` are added (null on market orders). On PostgreSQL that is
 *   `ALTER … DROP NOT NULL`; SQLite cannot drop a NOT NULL, so the table is rebuilt from its own
 *   stored DDL (whatever columns earlier migrations added), rows copied, indexes and triggers recreated.
 * - `goods.drop_order_no`: the drop order that created a collectible (its fulfilment).
 * - `drop_stock`: one row per release — supply, units taken (reserved or paid), units paid, the
 *   next serial to allocate. Kept off the `projects` row on purpose (hot row, catalog triggers).
 * - `drop_quota`: units taken per release and real-name identity (all accounts of one ID number).
 * - `drop_config`: per-release sale settings (limit per identity, max per order, commission);
 *   later features (phases, lottery, blind boxes) add their columns here.
 * - `realname.id_digest` is no longer unique: up to KYC_ACCOUNTS_PER_IDENTITY accounts may be
 *   verified with one ID number (checked race-free in submit-realname.ts), so the per-identity
 *   limit is really shared by several accounts.
 */
export function migration(db: Db): Migration {
  const sqlite = db.dialect === 'sqlite';
  return {
    async up(k: Kysely<any>) {
      const run = async (fn: (q: Kysely<any>) => Promise<void>) => (sqlite ? k.transaction().execute(fn) : fn(k));
      await run(async (q) => {
        if (sqlite) {
          await sqliteRebuild(q, 'orders', (ddl) => relaxNotNull(ddl, ['listing_id', 'goods_id']));
          await sqliteRebuild(q, 'realname', (ddl) => {
            const out = ddl.replace(/("id_digest"\s+varchar\(64\)\s+not null)\s+unique/i, '$1');
            if (out === ddl) throw new Error('0010-drops: realname.id_digest unique not found in its DDL');
            return out;
          });
        } else {
          await sql`alter table orders alter column listing_id drop not null`.execute(q);
          await sql`alter table orders alter column goods_id drop not null`.execute(q);
          await sql`alter table realname drop constraint if exists realname_id_digest_key`.execute(q);
        }
        await q.schema.createIndex('realname_id_digest').on('realname').column('id_digest').execute();

        await q.schema.alterTable('orders').addColumn('project_id', 'bigint').execute();
        await q.schema.alterTable('orders').addColumn('quantity', 'integer').execute();
        await q.schema.alterTable('orders').addColumn('unit_price_fen', 'bigint').execute();
        await q.schema.alterTable('orders').addColumn('identity_digest', 'varchar(64)').execute();
        await q.schema.createIndex('orders_project').on('orders').columns(['project_id', 'status']).execute();

        await q.schema.alterTable('goods').addColumn('drop_order_no', 'varchar(40)').execute();
        await q.schema.createIndex('goods_drop_order').on('goods').column('drop_order_no').execute();

        await q.schema
          .createTable('drop_stock')
          .addColumn('project_id', 'bigint', (c) => c.primaryKey().references('projects.id'))
          .addColumn('supply', 'integer', (c) => c.notNull())
          /** Units reserved by unpaid orders plus units paid: the reservation is `taken + n <= supply`. */
          .addColumn('taken', 'integer', (c) => c.notNull())
          /** Units of paid orders whose serials are allocated (the fulfilment counts them). */
          .addColumn('paid', 'integer', (c) => c.notNull())
          /** Next serial to allocate (serials 1…supply, consecutive, never reused). */
          .addColumn('next_serial', 'integer', (c) => c.notNull())
          .addColumn('updated_at', 'bigint', (c) => c.notNull())
          .execute();

        await q.schema
          .createTable('drop_quota')
          .addColumn('project_id', 'bigint', (c) => c.notNull())
          .addColumn('identity_digest', 'varchar(64)', (c) => c.notNull())
          .addColumn('taken', 'integer', (c) => c.notNull())
          .addColumn('updated_at', 'bigint', (c) => c.notNull())
          .addPrimaryKeyConstraint('drop_quota_pk', ['project_id', 'identity_digest'])
          .execute();

        await q.schema
          .createTable('drop_config')
          .addColumn('project_id', 'bigint', (c) => c.primaryKey().references('projects.id'))
          /** Units one real-name identity may buy of this release (all its accounts together). */
          .addColumn('per_identity_limit', 'integer', (c) => c.notNull())
          .addColumn('max_per_order', 'integer', (c) => c.notNull())
          /** Platform commission on the primary sale, per mille; null = PRIMARY_COMMISSION_PERMILLE. */
          .addColumn('primary_commission_permille', 'integer')
          .addColumn('updated_at', 'bigint', (c) => c.notNull())
          .execute();

        // Every existing release gets its stock: what it sold so far is taken and paid.
        const now = Date.now();
        const rows = await q
          .selectFrom('projects')
          .leftJoin('goods', 'goods.project_id', 'projects.id')
          .select(['projects.id', 'projects.supply', 'projects.sold', (e) => e.fn.max('goods.serial').as('max_serial')])
          .groupBy(['projects.id', 'projects.supply', 'projects.sold'])
          .execute();
        for (const r of rows) {
          const taken = Math.min(Number(r.sold), Number(r.supply));
          await q
            .insertInto('drop_stock')
            .values({ project_id: r.id, supply: Number(r.supply), taken, paid: taken, next_serial: Math.max(Number(r.max_serial ?? 0), taken) + 1, updated_at: now })
            .execute();
        }
      });
    },
  };
}

/** Drops `not null` from the named columns of a CREATE TABLE statement (throws if one is not found). */
function relaxNotNull(ddl: string, columns: string[]): string {
  let out = ddl;
  for (const c of columns) {
    const re = new RegExp(`("${c}"\\s+[a-z0-9() ]*?)\\s+not null`, 'i');
    if (!re.test(out)) throw new Error(`0010-drops: column ${c} not null not found in its DDL`);
    out = out.replace(re, '$1');
  }
  return out;
}

/**
 * SQLite's way to change a column constraint: create the table anew from its stored DDL (as
 * changed by `edit`), copy every row, drop the old table, rename, recreate its indexes and
 * triggers. Runs in the caller's transaction; nothing references these tables by foreign key.
 */
async function sqliteRebuild(q: Kysely<any>, table: string, edit: (ddl: string) => string) {
  const t = await sql<{ sql: string }>`select sql from sqlite_master where type = 'table' and name = ${table}`.execute(q);
  const ddl = t.rows[0]?.sql;
  if (!ddl) throw new Error(`0010-drops: table ${table} not found`);
  const tmp = `${table}__rebuild`;
  const created = edit(ddl).replace(/^create table\s+("?)([A-Za-z_]+)\1/i, `create table "${tmp}"`);
  const extras = await sql<{ sql: string }>`select sql from sqlite_master where tbl_name = ${table} and type in ('index', 'trigger') and sql is not null`.execute(q);
  const cols = await sql<{ name: string }>`select name from pragma_table_info(${table})`.execute(q);
  const list = cols.rows.map((c) => `"${c.name}"`).join(', ');
  await sql.raw(created).execute(q);
  await sql.raw(`insert into "${tmp}" (${list}) select ${list} from "${table}"`).execute(q);
  await sql.raw(`drop table "${table}"`).execute(q);
  await sql.raw(`alter table "${tmp}" rename to "${table}"`).execute(q);
  for (const x of extras.rows) await sql.raw(x.sql).execute(q);
}
