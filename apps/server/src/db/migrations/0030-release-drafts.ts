import type { Kysely, Migration } from 'kysely';
import type { Db } from '../database.ts';
import { serialId } from '../serial-id.ts';

/**
 * The creator studio (modules/studio): `release_drafts`, a creator's release before staff approve
 * it. State draft → submitted → approved | rejected (a rejected draft is edited and submitted
 * again; a submitted one can be withdrawn to draft). Every release field is nullable until the
 * draft is submitted (then all are checked). `project_id` is the release created by the approval
 * (set once, in the approval's transaction, so approving twice creates one release);
 * `review_reason` / `reviewer_staff_id` are the last review's. Same DDL on SQLite and PostgreSQL;
 * money in fen, times epoch ms, the royalty per mille (0–100).
 */
export function migration(db: Db): Migration {
  const id = serialId(db);
  return {
    async up(k: Kysely<any>) {
      await k.schema
        .createTable('release_drafts')
        .addColumn('id', id.type, id.pk)
        .addColumn('creator_id', 'bigint', (c) => c.notNull().references('creators.id'))
        .addColumn('state', 'varchar(16)', (c) => c.notNull())
        .addColumn('title', 'varchar(200)', (c) => c.notNull())
        .addColumn('story_html', 'text', (c) => c.notNull())
        .addColumn('cover_key', 'varchar(200)')
        .addColumn('media_kind', 'varchar(8)')
        .addColumn('media_key', 'varchar(200)')
        .addColumn('supply', 'integer')
        .addColumn('price_fen', 'bigint')
        .addColumn('sale_start_at', 'bigint')
        .addColumn('per_identity_limit', 'integer')
        .addColumn('holding_days', 'integer')
        .addColumn('royalty_permille', 'integer')
        .addColumn('review_reason', 'varchar(2000)')
        .addColumn('reviewer_staff_id', 'bigint')
        .addColumn('project_id', 'bigint', (c) => c.references('projects.id').unique())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .addColumn('submitted_at', 'bigint')
        .addColumn('reviewed_at', 'bigint')
        .execute();
      // My drafts newest first; the review queue by state, oldest submission first.
      await k.schema.createIndex('release_drafts_creator').on('release_drafts').columns(['creator_id', 'id']).execute();
      await k.schema.createIndex('release_drafts_state').on('release_drafts').columns(['state', 'submitted_at']).execute();
    },
    async down(k: Kysely<any>) {
      await k.schema.dropTable('release_drafts').execute();
    },
  };
}
