import { Migrator, type Migration, type MigrationProvider } from 'kysely';
import type { Db } from './database.ts';
import * as m0001 from './migrations/0001-accounts.ts';
import * as m0002 from './migrations/0002-wallet.ts';
import * as m0003 from './migrations/0003-chain.ts';
import * as m0004 from './migrations/0004-catalog.ts';
import * as m0005 from './migrations/0005-kyc.ts';
import * as m0006 from './migrations/0006-market.ts';
import * as m0007 from './migrations/0007-catalog-changes.ts';
import * as m0008 from './migrations/0008-auth-hardening.ts';
import * as m0009 from './migrations/0009-market-safety.ts';
import * as m0010 from './migrations/0010-drops.ts';
import * as m0011 from './migrations/0011-uploads-settled.ts';
import * as m0012 from './migrations/0012-account-security.ts';
import * as m0013 from './migrations/0013-drop-phases.ts';
import * as m0014 from './migrations/0014-boxes-compose-shift.ts';
import * as m0015 from './migrations/0015-messages.ts';
import * as m0016 from './migrations/0016-payouts.ts';
import * as m0017 from './migrations/0017-follow-moments.ts';
import * as m0018 from './migrations/0018-tickets.ts';
import * as m0019 from './migrations/0019-admin.ts';
import * as m0020 from './migrations/0020-catalog-admin.ts';
import * as m0021 from './migrations/0021-drop-mint-refunds.ts';
import * as m0022 from './migrations/0022-goods-burned-index.ts';
import * as m0025 from './migrations/0025-register-failures.ts';
import * as m0024 from './migrations/0024-card-payments.ts';
import * as m0027 from './migrations/0027-release-royalty.ts';
import * as m0028 from './migrations/0028-creator-onboarding.ts';
import * as m0029 from './migrations/0029-release-media.ts';
import * as m0030 from './migrations/0030-release-drafts.ts';
import * as m0031 from './migrations/0031-worker-lease.ts';
import * as m0032 from './migrations/0032-change-notify.ts';
import * as m0033 from './migrations/0033-change-counters.ts';
import * as m0034 from './migrations/0034-goods-order-status.ts';
import * as m0035 from './migrations/0035-drop-reserve-function.ts';
import * as m0036 from './migrations/0036-pay-balance-function.ts';
import * as m0037 from './migrations/0037-worker-fence-shared.ts';
import * as m0038 from './migrations/0038-pay-balance-plan.ts';
import * as m0039 from './migrations/0039-orders-market-indexes.ts';
import * as m0040 from './migrations/0040-batch-functions-no-seqscan.ts';
import * as m0041 from './migrations/0041-pay-balance-orders.ts';
import * as m0042 from './migrations/0042-drop-stock-returns.ts';
import type { MigrationEnv } from './migration-env.ts';

/** What a data migration may need (db/migration-env.ts: migrations import it from there, not from this file). */
export type { MigrationEnv } from './migration-env.ts';

/**
 * Migrations are listed here in order; Kysely records applied ones, so running again is a no-op.
 * They are applied in name order, but a database may already have a higher one than a pending one
 * (parallel branches committed 0013–0019 in another order than numbered; a dev database that ran a
 * later one first): `allowUnorderedMigrations` runs whatever is pending instead of refusing. Hence
 * the rule for every migration: it may depend only on tables and columns that existed before the
 * lowest number still open when it was written — 0013–0019 each use only tables of 0001–0012
 * (users, projects, goods, orders, payments, creators, uploads) besides their own; 0020 only
 * earlier ones. test/migrations-order.test.ts applies them out of order on both dialects.
 */
export const migrations: Record<string, (db: Db, env: MigrationEnv) => Migration> = {
  '0001-accounts': m0001.migration,
  '0002-wallet': m0002.migration,
  '0003-chain': m0003.migration,
  '0004-catalog': m0004.migration,
  '0005-kyc': m0005.migration,
  '0006-market': m0006.migration,
  '0007-catalog-changes': m0007.migration,
  '0008-auth-hardening': m0008.migration,
  '0009-market-safety': m0009.migration,
  '0010-drops': m0010.migration,
  '0011-uploads-settled': m0011.migration,
  '0012-account-security': m0012.migration,
  '0013-drop-phases': m0013.migration,
  '0014-boxes-compose-shift': m0014.migration,
  '0015-messages': m0015.migration,
  '0016-payouts': m0016.migration,
  '0017-follow-moments': m0017.migration,
  // 0018 comes after 0013–0017 (issue #11's other parts).
  '0018-tickets': m0018.migration,
  // 0019 (the operations console) runs after every other part of issue #11 (0013–0018).
  '0019-admin': m0019.migration,
  // 0020: the console's catalogue and content editors (news drafts, banner windows).
  '0020-catalog-admin': m0020.migration,
  // 0021: drop units that can never be minted are refunded (mint failures, voided stock).
  '0021-drop-mint-refunds': m0021.migration,
  // 0022: a partial index of burned collectibles (kept out of search results).
  '0022-goods-burned-index': m0022.migration,
  // 0025: wrong registration codes, limited per phone and per IP (like login failures).
  '0025-register-failures': m0025.migration,
  // 0024: bank-card quick payment (card_payments, the card's quick-pay agreement, the sandbox bank's charges).
  '0024-card-payments': m0024.migration,
  // 0027: royalties per release (projects.royalty_permille; NULL = ROYALTY_PERMILLE).
  '0027-release-royalty': m0027.migration,
  // 0028: creators onboarded from applications and run from the console (disabled, verified, origin).
  '0028-creator-onboarding': m0028.migration,
  // 0029: video and 3D releases (projects.media_kind, projects.media_key; NULL = the cover image only).
  '0029-release-media': m0029.migration,
  // 0030: the creator studio's release drafts (submitted for review, approved into a release).
  '0030-release-drafts': m0030.migration,
  // 0031: the worker role's lease with its fencing token (several server processes on one database).
  '0031-worker-lease': m0031.migration,
  // 0032: PostgreSQL change triggers for the exact session and trading-gate caches (db/change-feed.ts).
  '0032-change-notify': m0032.migration,
  // 0033: SQLite change counters (triggers) so another connection's commit clears only the caches of what it changed.
  '0033-change-counters': m0033.migration,
  // 0034: goods by (drop_order_no, chain_status): one index probe per order for the drop completion.
  '0034-goods-order-status': m0034.migration,
  // 0035: PostgreSQL: a batch of drop reservations in one statement (a function), one round trip.
  '0035-drop-reserve-function': m0035.migration,
  // 0036: PostgreSQL: a batch of payments from balance in one statement (a function), one round trip.
  '0036-pay-balance-function': m0036.migration,
  // 0037: PostgreSQL: the worker lease's fence check under a shared advisory lock instead of the lease row's lock.
  '0037-worker-fence-shared': m0037.migration,
  // 0038: PostgreSQL: pay_balance_batch finds its orders by order number only (plans that stale statistics cannot turn into scans).
  '0038-pay-balance-plan': m0038.migration,
  // 0039: the market's indexes of orders (listing, collectible, settlement transaction) hold only orders that have one: not drop orders.
  '0039-orders-market-indexes': m0039.migration,
  // 0040: the batch functions never read a table whole (a generic plan cached while `orders` was small).
  '0040-batch-functions-no-seqscan': m0040.migration,
  // 0041: PostgreSQL: pay_balance_orders, the payment batch that checks its orders itself (no read of the order before a payment).
  '0041-pay-balance-orders': m0041.migration,
  // 0042: units given back by closed drop orders, folded into the stock row after the closing commit (PostgreSQL: no stock-row lock across a round trip).
  '0042-drop-stock-returns': m0042.migration,
};

/** Migrates to the latest version (or to `target`, for upgrade tests). */
export async function migrate(db: Db, env: MigrationEnv, target?: string): Promise<void> {
  const provider: MigrationProvider = {
    async getMigrations() {
      return Object.fromEntries(Object.entries(migrations).map(([k, f]) => [k, f(db, env)]));
    },
  };
  const migrator = new Migrator({ db: db.kysely, provider, allowUnorderedMigrations: true });
  const { error, results } = await (target ? migrator.migrateTo(target) : migrator.migrateToLatest());
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) throw new Error(`migration failed: ${failed?.migrationName ?? ''} ${String(error)}`);
}
