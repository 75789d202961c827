// Prepared-statement cache of the SQLite driver (src/db/sqlite-driver.ts): Kysely queries through a
// connection with the cache (default bound) and without it (bound 0), on this Node's engine.
//   node --import tsx apps/server/scripts/bench-statements.ts [rounds]
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CompiledQuery, Kysely, SqliteDialect } from 'kysely';
import { openSqliteConnection, STATEMENT_CACHE_SIZE } from '../src/db/sqlite-driver.ts';

interface Db { items: { id: number; name: string; owner: number; price: number } }
const rounds = Number(process.argv[2] ?? 20_000);
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cfx-stmt-bench-'));

async function run(cacheSize: number) {
  const conn = openSqliteConnection(path.join(dir, `b${cacheSize}-${performance.now()}.sqlite`), cacheSize);
  conn.exec('PRAGMA journal_mode = WAL');
  conn.exec('PRAGMA synchronous = NORMAL'); // as the server (db/database.ts)
  conn.exec('create table items (id integer primary key, name text not null, owner integer not null, price integer not null)');
  conn.exec('create index items_owner on items (owner)');
  const db = new Kysely<Db>({ dialect: new SqliteDialect({ database: conn }) });
  await db.executeQuery(CompiledQuery.raw('begin'));
  for (let i = 1; i <= 2000; i++) await db.insertInto('items').values({ name: `item ${i}`, owner: i % 100, price: i * 10 }).execute();
  await db.executeQuery(CompiledQuery.raw('commit'));
  const t0 = performance.now();
  for (let i = 0; i < rounds; i++) {
    await db.selectFrom('items').select(['id', 'name', 'price']).where('id', '=', (i % 2000) + 1).executeTakeFirst();
    await db.selectFrom('items').select((eb) => eb.fn.countAll<number>().as('n')).where('owner', '=', i % 100).executeTakeFirst();
    await db.updateTable('items').set({ price: i }).where('id', '=', (i % 2000) + 1).execute();
  }
  const ms = performance.now() - t0;
  await db.destroy();
  return (rounds * 3 * 1000) / ms;
}

const engine = openSqliteConnection(':memory:').engine;
const warm = await run(STATEMENT_CACHE_SIZE); // warm-up (JIT), not reported
void warm;
const cached = await run(STATEMENT_CACHE_SIZE);
const uncached = await run(0);
console.log(`Node ${process.versions.node} ${engine}: ${Math.round(cached)} queries/s with the statement cache, ${Math.round(uncached)} without (${((cached / uncached - 1) * 100).toFixed(0)}% more)`);
fs.rmSync(dir, { recursive: true, force: true });
