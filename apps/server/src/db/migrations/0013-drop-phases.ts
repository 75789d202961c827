import type { Kysely, Migration } from 'kysely';
import type { Db } from '../database.ts';
import { serialId } from '../serial-id.ts';

/**
 * Sale phases, whitelists and the fair-drop lottery of a release (issue #10, docs/drops.md
 * "Sale phases", "Whitelist", "Lottery"):
 * - `drop_phases`: a release's ordered phases — kind (whitelist | claim | lottery_signup |
 *   lottery_rights | public), window, unit price, and where the per-identity quota comes from
 *   (whitelist entry / lottery win / the release limit). A lottery_rights phase has no stored
 *   window: it opens at the draw and lasts the lottery's rights minutes.
 * - `drop_phase_quota`: units taken per release, quota bucket (whitelist | lottery) and real-name
 *   identity — the priority phases' counterpart of `drop_quota` (the public phase keeps using it).
 * - `orders.quota_bucket`: which bucket a drop order took its units from (null = `drop_quota`), so
 *   an expiry gives them back to the right one.
 * - `drop_whitelist`: whitelist entries of a release by user (an entry counts for the user's
 *   real-name identity once they have one), with their quota.
 * - `drop_lotteries` / `drop_lottery_entries`: a lottery's published parameters (draw epoch,
 *   winners, quota per winner, rights minutes), its entries numbered 1…N (one per identity), and
 *   after the draw the seed block hash, algorithm, fingerprints and winners.
 * - `drop_events`: results to tell users about ('lottery_result'), one per user and release, for
 *   the message center to deliver (`delivered_at`).
 * Same DDL on SQLite and PostgreSQL; times epoch ms.
 */
export function migration(db: Db): Migration {
  const id = serialId(db);
  return {
    async up(k: Kysely<any>) {
      await k.schema
        .createTable('drop_phases')
        .addColumn('id', id.type, id.pk)
        .addColumn('project_id', 'bigint', (c) => c.notNull().references('projects.id'))
        /** 0-based position in the release's timeline. */
        .addColumn('seq', 'integer', (c) => c.notNull())
        .addColumn('kind', 'varchar(16)', (c) => c.notNull())
        /** null on a lottery_rights phase (it opens at the draw). */
        .addColumn('start_at', 'bigint')
        /** null: open until the release's sale end (last phase) / the draw's rights end (lottery_rights). */
        .addColumn('end_at', 'bigint')
        .addColumn('price_fen', 'bigint', (c) => c.notNull())
        /** whitelist | lottery | release | none */
        .addColumn('quota_source', 'varchar(16)', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();
      await k.schema.createIndex('drop_phases_seq').on('drop_phases').columns(['project_id', 'seq']).unique().execute();

      await k.schema
        .createTable('drop_phase_quota')
        .addColumn('project_id', 'bigint', (c) => c.notNull())
        .addColumn('bucket', 'varchar(16)', (c) => c.notNull())
        .addColumn('identity_digest', 'varchar(64)', (c) => c.notNull())
        .addColumn('taken', 'integer', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('drop_phase_quota_pk', ['project_id', 'bucket', 'identity_digest'])
        .execute();

      await k.schema.alterTable('orders').addColumn('quota_bucket', 'varchar(16)').execute();

      await k.schema
        .createTable('drop_whitelist')
        .addColumn('project_id', 'bigint', (c) => c.notNull().references('projects.id'))
        .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id'))
        .addColumn('quota', 'integer', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('drop_whitelist_pk', ['project_id', 'user_id'])
        .execute();
      await k.schema.createIndex('drop_whitelist_user').on('drop_whitelist').column('user_id').execute();

      await k.schema
        .createTable('drop_lotteries')
        .addColumn('project_id', 'bigint', (c) => c.primaryKey().references('projects.id'))
        /** The Conflux epoch whose pivot block hash seeds the draw, fixed before sign-up opens. */
        .addColumn('draw_epoch', 'bigint', (c) => c.notNull())
        .addColumn('winners', 'integer', (c) => c.notNull())
        /** Units each winner may buy in the rights window. */
        .addColumn('win_quota', 'integer', (c) => c.notNull())
        .addColumn('rights_minutes', 'integer', (c) => c.notNull())
        .addColumn('algorithm', 'varchar(32)', (c) => c.notNull())
        /** open → closed (entry list frozen, its hash stored) → drawn */
        .addColumn('status', 'varchar(12)', (c) => c.notNull())
        /** Entries accepted so far; the next entry gets entry_count + 1. */
        .addColumn('entry_count', 'integer', (c) => c.notNull())
        .addColumn('entries_hash', 'varchar(64)')
        .addColumn('closed_at', 'bigint')
        /** The chain's confirmed epoch when the entry list was frozen (must be below draw_epoch). */
        .addColumn('closed_epoch', 'bigint')
        .addColumn('block_hash', 'varchar(66)')
        .addColumn('winners_list', 'text')
        .addColumn('winners_hash', 'varchar(64)')
        .addColumn('drawn_at', 'bigint')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();

      await k.schema
        .createTable('drop_lottery_entries')
        .addColumn('project_id', 'bigint', (c) => c.notNull().references('projects.id'))
        .addColumn('entry_no', 'integer', (c) => c.notNull())
        .addColumn('identity_digest', 'varchar(64)', (c) => c.notNull())
        .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id'))
        /** The account id as published in the entry list (first and last two characters). */
        .addColumn('masked_account', 'varchar(32)', (c) => c.notNull())
        .addColumn('won', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('drop_lottery_entries_pk', ['project_id', 'entry_no'])
        .execute();
      await k.schema.createIndex('drop_lottery_entries_identity').on('drop_lottery_entries').columns(['project_id', 'identity_digest']).unique().execute();
      await k.schema.createIndex('drop_lottery_entries_user').on('drop_lottery_entries').columns(['user_id', 'project_id']).execute();

      await k.schema
        .createTable('drop_events')
        .addColumn('id', id.type, id.pk)
        /** lottery_result */
        .addColumn('kind', 'varchar(24)', (c) => c.notNull())
        .addColumn('project_id', 'bigint', (c) => c.notNull().references('projects.id'))
        .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id'))
        /** JSON, see docs/drops.md "Telling entrants". */
        .addColumn('payload', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        /** Set by the consumer (the message center) once it has turned the event into a message. */
        .addColumn('delivered_at', 'bigint')
        .execute();
      await k.schema.createIndex('drop_events_once').on('drop_events').columns(['kind', 'project_id', 'user_id']).unique().execute();
      await k.schema.createIndex('drop_events_undelivered').on('drop_events').columns(['delivered_at', 'id']).execute();
    },
    async down(k: Kysely<any>) {
      for (const t of ['drop_events', 'drop_lottery_entries', 'drop_lotteries', 'drop_whitelist', 'drop_phase_quota', 'drop_phases']) await k.schema.dropTable(t).execute();
      await k.schema.alterTable('orders').dropColumn('quota_bucket').execute();
    },
  };
}
