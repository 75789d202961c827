import { Migrator, type Migration, type MigrationProvider } from 'kysely';
import type { Db } from './database.ts';
import * as m0001 from './migrations/0001-accounts.ts';
import * as m0002 from './migrations/0002-wallet.ts';
import * as m0003 from './migrations/0003-chain.ts';
import * as m0004 from './migrations/0004-catalog.ts';
import * as m0005 from './migrations/0005-kyc.ts';
import * as m0006 from './migrations/0006-market.ts';
import * as m0007 from './migrations/0007-catalog-changes.ts';

/** Migrations are listed here in order; Kysely records applied ones, so running again is a no-op. */
const migrations: Record<string, (db: Db) => Migration> = {
  '0001-accounts': m0001.migration,
  '0002-wallet': m0002.migration,
  '0003-chain': m0003.migration,
  '0004-catalog': m0004.migration,
  '0005-kyc': m0005.migration,
  '0006-market': m0006.migration,
  '0007-catalog-changes': m0007.migration,
};

export async function migrate(db: Db): Promise<void> {
  const provider: MigrationProvider = {
    async getMigrations() {
      return Object.fromEntries(Object.entries(migrations).map(([k, f]) => [k, f(db)]));
    },
  };
  const { error, results } = await new Migrator({ db: db.kysely, provider }).migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) throw new Error(`migration failed: ${failed?.migrationName ?? ''} ${String(error)}`);
}
