import { sql, type Kysely, type Migration } from 'kysely';
import type { Db } from '../database.ts';
import { serialId } from '../serial-id.ts';

/**
 * Blind boxes, compose and moving collectibles (issue #10, docs/drops.md "Blind boxes", "Compose",
 * "Shift and gifts"):
 * - `goods.holder_address`: where the token is when it is not at the owner's linked wallet (moved
 *   to another own address by a shift); null = at the linked wallet. `goods.status` gains 'burned'
 *   (a box opened, a fragment composed; no DDL: the column is varchar).
 * - `goods_holds`: one row per collectible taken by a flow (box opening, compose selection, a
 *   transfer waiting for the wallet). The primary key makes two flows exclusive; `expires_at` null
 *   = held until the flow ends (its chain transaction is out).
 * - `box_releases`: a box release's published odds (kinds with counts and metadata), the
 *   commitment sha256(serverSeed), the sealed seed, the reveal epoch, and after the reveal the
 *   seed, the block hash, the assignment and its hash. `item_project_id` is the release of the
 *   revealed items (its token range gives every box serial its item token).
 * - `box_openings`: one per box: the consent (Consume) asked for, its signature and chain
 *   transaction, the item created.
 * - `compose_rules` / `compose_records`: recipes and each compose (selection → consent → chain).
 *   A partial unique index keeps each result serial with at most one live record.
 * - `goods_transfers`: shifts to another own address and gifts (转赠), pending until the indexed
 *   Transfer (or a read of the chain) shows the token at the destination.
 * Same DDL on SQLite and PostgreSQL; times epoch ms.
 */
export function migration(db: Db): Migration {
  const id = serialId(db);
  return {
    async up(k: Kysely<any>) {
      await k.schema.alterTable('goods').addColumn('holder_address', 'varchar(64)').execute();

      await k.schema
        .createTable('goods_holds')
        .addColumn('goods_id', 'bigint', (c) => c.primaryKey().references('goods.id'))
        /** box | compose | transfer */
        .addColumn('kind', 'varchar(16)', (c) => c.notNull())
        /** The flow: box:<goodsId>, a compose number, a transfer number. */
        .addColumn('ref', 'varchar(64)', (c) => c.notNull())
        .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id'))
        .addColumn('expires_at', 'bigint')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();
      await k.schema.createIndex('goods_holds_ref').on('goods_holds').column('ref').execute();

      await k.schema
        .createTable('box_releases')
        .addColumn('project_id', 'bigint', (c) => c.primaryKey().references('projects.id'))
        .addColumn('item_project_id', 'bigint', (c) => c.notNull().references('projects.id'))
        /** JSON [{name, image, rarity, count, attributes: [{trait, value}]}] in the published order. */
        .addColumn('kinds', 'text', (c) => c.notNull())
        .addColumn('commitment', 'varchar(64)', (c) => c.notNull())
        .addColumn('seed_sealed', 'text', (c) => c.notNull())
        .addColumn('reveal_epoch', 'bigint', (c) => c.notNull())
        .addColumn('algorithm', 'varchar(32)', (c) => c.notNull())
        /** committed → revealed */
        .addColumn('status', 'varchar(16)', (c) => c.notNull())
        .addColumn('server_seed', 'varchar(64)')
        .addColumn('block_hash', 'varchar(66)')
        /** Kind index per box serial, comma-separated (what the assignment hash is taken of). */
        .addColumn('assignment', 'text')
        .addColumn('assignment_hash', 'varchar(64)')
        .addColumn('revealed_at', 'bigint')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();
      await k.schema.createIndex('box_releases_item').on('box_releases').column('item_project_id').unique().execute();

      await k.schema
        .createTable('box_openings')
        .addColumn('id', id.type, id.pk)
        .addColumn('goods_id', 'bigint', (c) => c.notNull().unique().references('goods.id'))
        .addColumn('project_id', 'bigint', (c) => c.notNull().references('projects.id'))
        .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id'))
        .addColumn('owner_address', 'varchar(64)', (c) => c.notNull())
        .addColumn('flow_id', 'varchar(64)', (c) => c.notNull())
        .addColumn('burn_token_id', 'varchar(80)', (c) => c.notNull())
        .addColumn('mint_token_id', 'varchar(80)', (c) => c.notNull())
        .addColumn('serial', 'bigint', (c) => c.notNull())
        .addColumn('kind_index', 'integer', (c) => c.notNull())
        /** signing → submitted → completed | failed (a failed opening may be asked for again) */
        .addColumn('status', 'varchar(16)', (c) => c.notNull())
        .addColumn('attempt', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('signature', 'varchar(200)')
        .addColumn('chain_tx_id', 'bigint')
        .addColumn('tx_hash', 'varchar(80)')
        .addColumn('item_goods_id', 'bigint', (c) => c.references('goods.id'))
        .addColumn('fail_reason', 'varchar(200)')
        .addColumn('expires_at', 'bigint')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .execute();
      await k.schema.createIndex('box_openings_user').on('box_openings').columns(['user_id', 'id']).execute();

      await k.schema
        .createTable('compose_rules')
        .addColumn('id', id.type, id.pk)
        .addColumn('name', 'varchar(100)', (c) => c.notNull())
        .addColumn('description', 'varchar(500)', (c) => c.notNull())
        .addColumn('result_project_id', 'bigint', (c) => c.notNull().references('projects.id'))
        .addColumn('result_name', 'varchar(100)', (c) => c.notNull())
        .addColumn('result_image', 'varchar(300)', (c) => c.notNull())
        /** JSON [{trait, value}] */
        .addColumn('result_attributes', 'text', (c) => c.notNull())
        /** JSON [{projectId, count}]: burn `count` collectibles of each release. */
        .addColumn('ingredients', 'text', (c) => c.notNull())
        .addColumn('start_at', 'bigint', (c) => c.notNull())
        .addColumn('end_at', 'bigint')
        /** Results there are (the result release's supply). */
        .addColumn('max_times', 'integer', (c) => c.notNull())
        /** Results reserved by confirmed / submitted composes or done (≤ max_times). */
        .addColumn('used_times', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();

      await k.schema
        .createTable('compose_records')
        .addColumn('id', id.type, id.pk)
        .addColumn('compose_no', 'varchar(40)', (c) => c.notNull().unique())
        .addColumn('rule_id', 'bigint', (c) => c.notNull().references('compose_rules.id'))
        .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id'))
        .addColumn('owner_address', 'varchar(64)')
        /** JSON [goodsId] and JSON ["tokenId"] in the signed order. */
        .addColumn('goods_ids', 'text', (c) => c.notNull())
        .addColumn('burn_token_ids', 'text', (c) => c.notNull())
        .addColumn('result_serial', 'bigint')
        .addColumn('result_token_id', 'varchar(80)')
        /** selected → confirmed → submitted → completed | failed; selected / confirmed → expired | cancelled */
        .addColumn('status', 'varchar(16)', (c) => c.notNull())
        .addColumn('attempt', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('signature', 'varchar(200)')
        .addColumn('chain_tx_id', 'bigint')
        .addColumn('tx_hash', 'varchar(80)')
        .addColumn('result_goods_id', 'bigint', (c) => c.references('goods.id'))
        .addColumn('fail_reason', 'varchar(200)')
        .addColumn('expires_at', 'bigint')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .execute();
      await k.schema.createIndex('compose_records_user').on('compose_records').columns(['user_id', 'id']).execute();
      await k.schema.createIndex('compose_records_status').on('compose_records').columns(['status', 'expires_at']).execute();
      // A result serial (its token id) belongs to at most one live compose, whatever two confirms do.
      await sql`create unique index compose_records_serial on compose_records (rule_id, result_serial) where status in ('confirmed', 'submitted', 'completed')`.execute(k);

      await k.schema
        .createTable('goods_transfers')
        .addColumn('id', id.type, id.pk)
        .addColumn('transfer_no', 'varchar(40)', (c) => c.notNull().unique())
        /** shift (another own address) | gift (another user, 转赠) */
        .addColumn('kind', 'varchar(8)', (c) => c.notNull())
        .addColumn('goods_id', 'bigint', (c) => c.notNull().references('goods.id'))
        .addColumn('token_id', 'varchar(80)', (c) => c.notNull())
        .addColumn('from_user_id', 'bigint', (c) => c.notNull().references('users.id'))
        .addColumn('to_user_id', 'bigint', (c) => c.notNull().references('users.id'))
        .addColumn('from_address', 'varchar(64)', (c) => c.notNull())
        .addColumn('to_address', 'varchar(64)', (c) => c.notNull())
        /** pending → done | expired */
        .addColumn('status', 'varchar(16)', (c) => c.notNull())
        .addColumn('tx_hash', 'varchar(80)')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('expires_at', 'bigint', (c) => c.notNull())
        .addColumn('done_at', 'bigint')
        .execute();
      await k.schema.createIndex('goods_transfers_from').on('goods_transfers').columns(['from_user_id', 'created_at']).execute();
      await k.schema.createIndex('goods_transfers_to').on('goods_transfers').columns(['to_user_id', 'id']).execute();
      await k.schema.createIndex('goods_transfers_goods').on('goods_transfers').columns(['goods_id', 'status']).execute();
    },
    async down(k: Kysely<any>) {
      for (const t of ['goods_transfers', 'compose_records', 'compose_rules', 'box_openings', 'box_releases', 'goods_holds']) await k.schema.dropTable(t).execute();
      await k.schema.alterTable('goods').dropColumn('holder_address').execute();
    },
  };
}
