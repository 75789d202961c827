import { loadConfig } from './config.ts';
import { openDatabase } from './db/database.ts';
import { migrate } from './db/migrate.ts';
import { seedDemoIfEmpty } from './modules/demo/index.ts';
import { loadSecretBox } from './util/secret-box.ts';

/**
 * `npm run seed -w apps/server`: migrates the configured database (DATA_DIR / DATABASE_URL) and seeds
 * the demo catalogue if it has no release yet. DEMO_GOODS sets the number of collectibles.
 */
const config = loadConfig();
const db = openDatabase(config);
try {
  await migrate(db, { secrets: loadSecretBox(config.dataDir), now: Date.now() });
  const r = await seedDemoIfEmpty({ db, config, now: Date.now });
  console.log(
    r.seeded
      ? `[seed] demo catalogue: ${r.users} users, ${r.projects} releases, ${r.goods} collectibles, ${r.news} news items in ${r.ms} ms (${db.dialect})`
      : '[seed] the catalogue already has releases: nothing to do',
  );
} finally {
  await db.close();
}
