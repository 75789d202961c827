import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type App } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { writeOf } from '../src/db/change-feed.ts';
import type { ApiError } from '../src/http/envelope.ts';
import { requireTrader } from '../src/modules/kyc/index.ts';
import { flushSessionTouches } from '../src/modules/accounts/sessions.ts';
import { buy, makeDrop, makeDropApp } from './drops-helpers.ts';
import { call, type TestApp } from './helpers.ts';
import { makeTrader, type FakeChain, type Trader } from './market-helpers.ts';

/**
 * The session and trading-gate caches (accounts/sessions.ts, kyc/require-trader.ts) on the change
 * feed (db/change-feed.ts), on SQLite or PostgreSQL (TEST_PG_URL): a warm call reads neither from the
 * database; a logout, a freeze, a wallet unlinked or a real name changed — in this process or in
 * another one on the same database — is answered at once (on PostgreSQL as soon as the NOTIFY of
 * the commit arrives).
 */
let t: TestApp & { chain: FakeChain };
let other: App;
/** Another server process on the same database (its own connections, caches and change feed), on the test's clocks. */
function anotherProcess(): Promise<App> {
  const config = loadConfig(
    { DEV_MODE: '1', CAPTCHA_PROVIDER: 'test', CHAIN: 'off', DEMO_DATA: '0', MARKET_JOBS: '0', PASSWORD_SCRYPT_N: '16384', MAX_UNPAID_ORDERS: '1000', DROP_ATTEMPTS_PER_SECOND: '1000' },
    { dataDir: t.ctx.config.dataDir, databaseUrl: t.ctx.config.databaseUrl, serveWeb: false },
  );
  return buildApp(config, { now: () => t.clock.t, monotonicNow: t.cacheClock.now, logger: false });
}
beforeAll(async () => {
  t = await makeDropApp();
  other = await anotherProcess();
});
afterAll(async () => {
  await other?.close();
  await t?.close();
});

/** Counts the compiled-query reads (session and gate) of `app` while `fn` runs. */
async function reads(app: { ctx: TestApp['ctx'] }, fn: () => Promise<unknown>) {
  const db = app.ctx.db;
  const run = db.run;
  let n = 0;
  db.run = (q, p) => {
    n++;
    return run(q, p);
  };
  try {
    await fn();
  } finally {
    db.run = run;
  }
  return n;
}

/** Until `app` answers `u`'s createOrder without reading the session or the gate (PostgreSQL: once its LISTEN connection is up). */
const warm = (app: TestApp, u: Trader, projectId: number) => eventually(async () => (await reads(app, () => buy(app, u, projectId, 1))) === 0);

const on = (app: App) => ({ ...t, app: app.app, ctx: app.ctx }) as unknown as TestApp;
const dropOn = async () => (await makeDrop(t, { supply: 1000, priceFen: 100, perIdentityLimit: 50, maxPerOrder: 1 })).projectId;
/** Until `f` holds (PostgreSQL delivers the NOTIFY of a commit a moment later), at most 3 s. */
async function eventually(f: () => Promise<boolean>) {
  for (let i = 0; i < 150; i++) {
    if (await f()) return true;
    await new Promise((r) => setTimeout(r, 20));
  }
  return false;
}

describe('session and trading-gate caches', () => {
  it('a warm createOrder reads neither the session nor the gate from the database', async () => {
    const projectId = await dropOn();
    const u = await makeTrader(t);
    expect((await buy(t, u, projectId, 1)).status).toBe('000000');
    // On PostgreSQL the cache serves only once its LISTEN connection is up.
    await warm(t, u, projectId);
    expect(await reads(t, () => buy(t, u, projectId, 1))).toBe(0);
  });

  it("a cold createOrder reads its session and the gate's row in one statement and writes nothing; the activity due is written later, with others'", async () => {
    const projectId = await dropOn();
    // A change to users or realname reported while the lookup runs (on PostgreSQL the NOTIFY of an earlier
    // commit may arrive just then, under load) rightly keeps the gate's row out of the cache, and the gate is
    // read once more: measured again with a new buyer then, a few times at most.
    let u!: Trader;
    let n = 0;
    let res: Awaited<ReturnType<typeof buy>> | undefined;
    for (let attempt = 0; attempt < 5; attempt++) {
      u = await makeTrader(t);
      t.clock.t += 61_000; // the session's last activity is now over a minute old: a touch is due
      n = await reads(t, async () => (res = await buy(t, u, projectId, 1)));
      expect(res!.status).toBe('000000');
      expect(n).toBeLessThanOrEqual(2);
      if (n === 1) break;
    }
    expect(n).toBe(1);
    const seenAt = t.clock.t;
    const lastSeen = async (w: Trader) => Number((await t.ctx.db.kysely.selectFrom('sessions').select('last_seen_at').where('user_id', '=', w.userId).executeTakeFirstOrThrow()).last_seen_at);
    expect(await lastSeen(u)).toBe(seenAt - 61_000); // the call wrote nothing
    // Another buyer's activity, due a minute later, goes out in the same write.
    const v = await makeTrader(t);
    t.clock.t += 61_000;
    expect((await buy(t, v, projectId, 1)).status).toBe('000000');
    expect(await lastSeen(v)).toBe(t.clock.t - 61_000);
    await flushSessionTouches(t.ctx);
    expect(await lastSeen(u)).toBe(seenAt);
    expect(await lastSeen(v)).toBe(t.clock.t);
    // Not due again within the minute: the next cold lookup (another process's cache is cold) records nothing.
    const o = on(other);
    const before = await lastSeen(v);
    t.clock.t += 1_000;
    expect((await buy(o, v, projectId, 1)).status).toBe('000000');
    await flushSessionTouches(o.ctx);
    expect(await lastSeen(v)).toBe(before);
  });

  it('the activity recorded in memory is written when the app closes', async () => {
    const projectId = await dropOn();
    const third = await anotherProcess();
    const u = await makeTrader(t);
    t.clock.t += 61_000;
    try {
      expect((await buy(on(third), u, projectId, 1)).status).toBe('000000');
    } finally {
      await third.close();
    }
    const s = await t.ctx.db.kysely.selectFrom('sessions').select('last_seen_at').where('user_id', '=', u.userId).executeTakeFirstOrThrow();
    expect(Number(s.last_seen_at)).toBe(t.clock.t);
  });

  it('a cold createOrder of a user who fails the gate is refused from the same read', async () => {
    const projectId = await dropOn();
    const noWallet = await makeTrader(t, 'no-wallet');
    const minor = await makeTrader(t, 'minor');
    const noName = await makeTrader(t, 'no-realname');
    expect(await buy(t, noWallet, projectId, 1)).toMatchObject({ message: 'please link a wallet first' });
    expect(await buy(t, minor, projectId, 1)).toMatchObject({ message: 'you must be 18 or older to trade' });
    expect(await buy(t, noName, projectId, 1)).toMatchObject({ message: 'please verify your real name first' });
    expect(await buy(t, { ...noWallet, h: { ...noWallet.h, token: 'no-such-token' } }, projectId, 1)).toMatchObject({ status: '1100' });
  });

  it('this process: a logout, a freeze and a wallet unlinked are answered at once', async () => {
    const projectId = await dropOn();
    const [a, b, c] = [await makeTrader(t), await makeTrader(t), await makeTrader(t)];
    for (const u of [a, b, c]) expect((await buy(t, u, projectId, 1)).status).toBe('000000');
    expect((await call(t, '/api/user/v1/logout', {}, a.h)).status).toBe('000000');
    expect(await buy(t, a, projectId, 1)).toMatchObject({ status: '1100', message: 'not logged in or session expired, please log in first!' });
    await t.ctx.db.kysely.updateTable('users').set({ frozen_at: t.clock.t }).where('id', '=', b.userId).execute();
    expect((await buy(t, b, projectId, 1)).status).not.toBe('000000');
    await t.ctx.db.kysely.updateTable('users').set({ wallet_address: null }).where('id', '=', c.userId).execute();
    expect(await buy(t, c, projectId, 1)).toMatchObject({ status: expect.not.stringMatching(/^000000$/), message: 'please link a wallet first' });
  });

  it('another process on the same database: its logout and wallet unlink reach this one', async () => {
    const projectId = await dropOn();
    const [a, b] = [await makeTrader(t), await makeTrader(t)];
    const o = on(other);
    // Both processes have both users cached.
    for (const app of [t, o]) for (const u of [a, b]) expect((await buy(app, u, projectId, 1)).status).toBe('000000');
    await warm(o, a, projectId);
    // The logout and the unlink go through the OTHER process; this one must notice.
    expect((await call(o, '/api/user/v1/logout', {}, a.h)).status).toBe('000000');
    await other.ctx.db.kysely.updateTable('users').set({ wallet_address: null }).where('id', '=', b.userId).execute();
    expect(await eventually(async () => (await buy(t, a, projectId, 1)).status === '1100')).toBe(true);
    expect(await eventually(async () => (await buy(t, b, projectId, 1)).message === 'please link a wallet first')).toBe(true);
    // Never the other way round again: the answers stay refused.
    expect((await buy(t, a, projectId, 1)).status).toBe('1100');
    expect((await buy(t, b, projectId, 1)).message).toBe('please link a wallet first');
  });

  it('a change made outside any server process (a plain SQL client) reaches the caches too', async () => {
    const projectId = await dropOn();
    const u = await makeTrader(t);
    expect((await buy(t, u, projectId, 1)).status).toBe('000000');
    await warm(t, u, projectId);
    if (t.ctx.db.dialect === 'postgres') {
      const pg = (await import('pg')).default;
      const client = new pg.Client({ connectionString: t.ctx.config.databaseUrl });
      await client.connect();
      await client.query('update sessions set revoked_at = $1 where user_id = $2', [t.clock.t, u.userId]);
      await client.end();
    } else {
      const { openSqliteFile } = await import('../src/db/sqlite-driver.ts');
      const path = await import('node:path');
      const file = openSqliteFile(path.join(t.ctx.config.dataDir, 'marketplace.sqlite'));
      file.prepare('update sessions set revoked_at = ? where user_id = ?').run(t.clock.t, u.userId);
      file.close();
    }
    expect(await eventually(async () => (await buy(t, u, projectId, 1)).status === '1100')).toBe(true);
  });
});

/** Runs `statement` on a connection of its own (a plain SQL client): `?` placeholders on SQLite, `$n` on PostgreSQL. */
async function plainSql(statement: string, params: unknown[]) {
  if (t.ctx.db.dialect === 'postgres') {
    const pg = (await import('pg')).default;
    const client = new pg.Client({ connectionString: t.ctx.config.databaseUrl });
    await client.connect();
    let i = 0;
    await client.query(statement.replace(/\?/g, () => `$${++i}`), params);
    await client.end();
  } else {
    const { openSqliteFile } = await import('../src/db/sqlite-driver.ts');
    const path = await import('node:path');
    const file = openSqliteFile(path.join(t.ctx.config.dataDir, 'marketplace.sqlite'));
    file.prepare(statement).run(...(params as never[]));
    file.close();
  }
}

describe('what the caches do not forget', () => {
  it("another connection's commit that changes nothing they keep (the worker lease's renewal, a user's other column) clears neither", async () => {
    const projectId = await dropOn();
    const u = await makeTrader(t);
    expect((await buy(t, u, projectId, 1)).status).toBe('000000');
    await warm(t, u, projectId);
    // This process's own writes (the new user's rows) also moved the counters since they were last read; the
    // first commit of another connection shows those (a harmless extra clear). Steady state after it:
    await plainSql('update worker_lease set expires_at = expires_at + 1', []);
    await warm(t, u, projectId);
    // On SQLite both commits move the file's data_version; the change counters (migration 0033) show nothing the caches keep changed.
    await plainSql('update worker_lease set expires_at = expires_at + 1', []);
    await plainSql('update users set regist_channel = regist_channel where id = ?', [u.userId]);
    expect(await reads(t, () => buy(t, u, projectId, 1))).toBe(0);
    // A change of what they keep still reaches them.
    await plainSql('update users set wallet_address = null where id = ?', [u.userId]);
    expect(await eventually(async () => (await buy(t, u, projectId, 1)).message === 'please link a wallet first')).toBe(true);
  });

  it('a write seen before its transaction rolled back is forgotten at the rollback', async () => {
    const projectId = await dropOn();
    const u = await makeTrader(t);
    expect((await buy(t, u, projectId, 1)).status).toBe('000000');
    await warm(t, u, projectId);
    await expect(
      t.ctx.db.kysely.transaction().execute(async (trx) => {
        await trx.updateTable('users').set({ wallet_address: null }).where('id', '=', u.userId).execute();
        // The gate reads while the transaction is open: on SQLite's one connection it sees (and keeps) the uncommitted row.
        const seen = await requireTrader(t.ctx, u.userId).then(
          () => 'wallet',
          (e: ApiError) => e.message,
        );
        if (t.ctx.db.dialect === 'sqlite') expect(seen).toBe('tradeNeedWallet');
        throw new Error('undo');
      }),
    ).rejects.toThrow('undo');
    expect((await buy(t, u, projectId, 1)).status).toBe('000000');
  });
});

describe('writeOf', () => {
  it('names the table, the kind of write and the columns an UPDATE sets; reads are no writes', () => {
    const k = t.ctx.db.kysely;
    expect(writeOf(k.updateTable('users').set({ wallet_address: null, nickname: 'x' }).where('id', '=', 1).toOperationNode())).toEqual({ tables: ['users'], kind: 'update', columns: ['wallet_address', 'nickname'] });
    expect(writeOf(k.insertInto('sessions').values({ token_hash: 'x' } as never).toOperationNode())).toEqual({ tables: ['sessions'], kind: 'insert' });
    expect(writeOf(k.deleteFrom('realname').where('user_id', '=', 1).toOperationNode())).toEqual({ tables: ['realname'], kind: 'delete' });
    expect(writeOf(k.selectFrom('users').selectAll().toOperationNode())).toBeUndefined();
  });
});
