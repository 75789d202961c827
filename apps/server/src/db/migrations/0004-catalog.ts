import type { Kysely, Migration } from 'kysely';
import type { Db } from '../database.ts';
import { serialId } from '../serial-id.ts';

/**
 * Catalog and content: creators, releases (projects), collectibles (goods) with their price history
 * and history actions, news, banners, recommend lists and per-user search history.
 * Money is integer fen (bigint), times epoch ms (bigint). Runs identically on SQLite and PostgreSQL.
 */
export function migration(db: Db): Migration {
  const id = serialId(db);
  return {
    async up(k: Kysely<any>) {
      await k.schema
        .createTable('creators')
        .addColumn('id', id.type, id.pk)
        .addColumn('user_id', 'bigint', (c) => c.notNull().unique().references('users.id'))
        .addColumn('name', 'varchar(64)', (c) => c.notNull())
        .addColumn('avatar', 'varchar(300)', (c) => c.notNull())
        .addColumn('banner', 'varchar(300)', (c) => c.notNull())
        .addColumn('intro', 'text', (c) => c.notNull())
        /** JSON array of {type, label, url}. */
        .addColumn('media_links', 'text', (c) => c.notNull())
        .addColumn('sort', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();

      await k.schema
        .createTable('projects')
        .addColumn('id', id.type, id.pk)
        .addColumn('creator_id', 'bigint', (c) => c.notNull().references('creators.id'))
        .addColumn('name', 'varchar(100)', (c) => c.notNull())
        .addColumn('cover', 'varchar(300)', (c) => c.notNull())
        .addColumn('category', 'varchar(32)', (c) => c.notNull())
        .addColumn('description_html', 'text', (c) => c.notNull())
        .addColumn('supply', 'integer', (c) => c.notNull())
        .addColumn('sold', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('price_fen', 'bigint', (c) => c.notNull())
        .addColumn('sale_start_at', 'bigint', (c) => c.notNull())
        .addColumn('sale_end_at', 'bigint')
        .addColumn('contract_address', 'varchar(80)')
        .addColumn('token_start', 'bigint')
        .addColumn('token_end', 'bigint')
        .addColumn('holding_days', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('sort', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();
      await k.schema.createIndex('projects_creator').on('projects').column('creator_id').execute();
      await k.schema.createIndex('projects_start').on('projects').column('sale_start_at').execute();

      await k.schema
        .createTable('goods')
        .addColumn('id', id.type, id.pk)
        .addColumn('project_id', 'bigint', (c) => c.notNull().references('projects.id'))
        .addColumn('serial', 'integer', (c) => c.notNull())
        .addColumn('token_id', 'bigint')
        .addColumn('contract', 'varchar(80)')
        /** pending → minted (the chain service mints and calls markMinted). */
        .addColumn('chain_status', 'varchar(16)', (c) => c.notNull().defaultTo('pending'))
        .addColumn('mint_tx_hash', 'varchar(80)')
        .addColumn('minted_at', 'bigint')
        .addColumn('owner_user_id', 'bigint', (c) => c.notNull().references('users.id'))
        .addColumn('name', 'varchar(100)', (c) => c.notNull())
        .addColumn('image', 'varchar(300)', (c) => c.notNull())
        /** JSON array of {trait, value}. */
        .addColumn('attributes', 'text', (c) => c.notNull())
        /** held | on_sale */
        .addColumn('status', 'varchar(16)', (c) => c.notNull().defaultTo('held'))
        .addColumn('sale_price_fen', 'bigint')
        .addColumn('listed_at', 'bigint')
        .addColumn('last_price_fen', 'bigint')
        .addColumn('acquired_at', 'bigint', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();
      await k.schema.createIndex('goods_project_serial').on('goods').columns(['project_id', 'serial']).unique().execute();
      await k.schema.createIndex('goods_owner').on('goods').columns(['owner_user_id', 'status']).execute();
      await k.schema.createIndex('goods_status_listed').on('goods').columns(['status', 'listed_at', 'id']).execute();
      await k.schema.createIndex('goods_status_price').on('goods').columns(['status', 'sale_price_fen', 'id']).execute();
      await k.schema.createIndex('goods_project_status_price').on('goods').columns(['project_id', 'status', 'sale_price_fen']).execute();
      await k.schema.createIndex('goods_chain_status').on('goods').columns(['chain_status', 'id']).execute();
      await k.schema.createIndex('goods_token').on('goods').column('token_id').execute();

      await k.schema
        .createTable('goods_price_history')
        .addColumn('id', id.type, id.pk)
        .addColumn('goods_id', 'bigint', (c) => c.notNull().references('goods.id'))
        .addColumn('price_fen', 'bigint', (c) => c.notNull())
        .addColumn('at', 'bigint', (c) => c.notNull())
        .execute();
      await k.schema.createIndex('goods_price_history_goods').on('goods_price_history').columns(['goods_id', 'at']).execute();

      await k.schema
        .createTable('goods_history_actions')
        .addColumn('id', id.type, id.pk)
        .addColumn('goods_id', 'bigint', (c) => c.notNull().references('goods.id'))
        /** mint | list | delist | sale | transfer */
        .addColumn('action', 'varchar(16)', (c) => c.notNull())
        .addColumn('from_user_id', 'bigint', (c) => c.references('users.id'))
        .addColumn('to_user_id', 'bigint', (c) => c.references('users.id'))
        .addColumn('price_fen', 'bigint')
        .addColumn('tx_hash', 'varchar(80)')
        .addColumn('at', 'bigint', (c) => c.notNull())
        .execute();
      await k.schema.createIndex('goods_history_actions_goods').on('goods_history_actions').columns(['goods_id', 'at']).execute();

      await k.schema
        .createTable('news')
        .addColumn('id', id.type, id.pk)
        .addColumn('title', 'varchar(120)', (c) => c.notNull())
        .addColumn('cover', 'varchar(300)', (c) => c.notNull())
        .addColumn('summary', 'varchar(400)', (c) => c.notNull())
        .addColumn('content_html', 'text', (c) => c.notNull())
        .addColumn('category', 'varchar(32)', (c) => c.notNull())
        .addColumn('author', 'varchar(64)', (c) => c.notNull())
        .addColumn('is_hot', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('is_place', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('place_sort', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('views', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('published_at', 'bigint', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();
      await k.schema.createIndex('news_published').on('news').columns(['published_at', 'id']).execute();
      await k.schema.createIndex('news_category').on('news').columns(['category', 'published_at']).execute();

      await k.schema
        .createTable('banners')
        .addColumn('id', id.type, id.pk)
        /** home | projects | market | news */
        .addColumn('position', 'varchar(16)', (c) => c.notNull())
        .addColumn('title', 'varchar(100)', (c) => c.notNull())
        .addColumn('subtitle', 'varchar(200)', (c) => c.notNull().defaultTo(''))
        .addColumn('image', 'varchar(300)', (c) => c.notNull())
        /** project | goods | news | creator | url */
        .addColumn('link_type', 'varchar(16)', (c) => c.notNull())
        .addColumn('link_target', 'varchar(300)', (c) => c.notNull())
        .addColumn('sort', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('active', 'integer', (c) => c.notNull().defaultTo(1))
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();
      await k.schema.createIndex('banners_position').on('banners').columns(['position', 'sort']).execute();

      await k.schema
        .createTable('recommend_lists')
        .addColumn('id', id.type, id.pk)
        .addColumn('code', 'varchar(32)', (c) => c.notNull().unique())
        .addColumn('title', 'varchar(100)', (c) => c.notNull())
        .addColumn('sort', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      await k.schema
        .createTable('recommend_items')
        .addColumn('id', id.type, id.pk)
        .addColumn('list_id', 'bigint', (c) => c.notNull().references('recommend_lists.id'))
        /** project | goods | creator | news */
        .addColumn('item_type', 'varchar(16)', (c) => c.notNull())
        .addColumn('item_id', 'bigint', (c) => c.notNull())
        .addColumn('sort', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      await k.schema.createIndex('recommend_items_list').on('recommend_items').columns(['list_id', 'sort']).execute();

      await k.schema
        .createTable('search_history')
        .addColumn('id', id.type, id.pk)
        .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id'))
        .addColumn('kw', 'varchar(80)', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();
      await k.schema.createIndex('search_history_user_kw').on('search_history').columns(['user_id', 'kw']).unique().execute();
      await k.schema.createIndex('search_history_user_time').on('search_history').columns(['user_id', 'created_at']).execute();
    },
    async down(k: Kysely<any>) {
      for (const t of ['search_history', 'recommend_items', 'recommend_lists', 'banners', 'news', 'goods_history_actions', 'goods_price_history', 'goods', 'projects', 'creators']) {
        await k.schema.dropTable(t).ifExists().execute();
      }
    },
  };
}
