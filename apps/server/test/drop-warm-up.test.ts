import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { warmTraders } from '../src/modules/kyc/index.ts';
import { startDropWarmup } from '../src/modules/drops/index.ts';
import { call, dbKind } from './helpers.ts';
import { makeTrader, type FakeChain } from './market-helpers.ts';
import { buy, makeDrop, makeDropApp } from './drops-helpers.ts';
import type { TestApp } from './helpers.ts';

/**
 * The warm-up before a sale (drops/warm-up.ts, kyc/require-trader.ts warmTraders) on a real database:
 * the buyers' sessions and trading gates are loaded ahead, so a buyer's first trading call in the
 * process runs no lookup; the caches stay exact (a logout, a freeze); the warm-up runs before a start.
 */
let t: TestApp & { chain: FakeChain };
beforeAll(async () => {
  t = await makeDropApp({ DROP_WARM_BEFORE_MS: '0' }); // the app's own warm-up off: the tests run it themselves
});
afterAll(async () => {
  await t?.close();
});

/** Empties this process's session and gate caches, as any change of sessions or real names does (db/change-feed.ts). */
async function forgetCaches() {
  const k = t.ctx.db.kysely;
  let reported = 0;
  const off = t.ctx.db.changes.on([{ table: 'sessions' }, { table: 'realname' }], () => reported++);
  try {
    await k.updateTable('sessions').set({ expires_at: sql`expires_at` }).where('user_id', '=', 0).execute();
    await k.updateTable('realname').set({ adult: sql`adult` }).where('user_id', '=', 0).execute();
    // PostgreSQL reports each write again when its NOTIFY arrives: wait for those too, or they would empty what the test warms next.
    const until = Date.now() + 3_000;
    while (reported < (dbKind === 'postgres' ? 4 : 2) && Date.now() < until) await new Promise((r) => setTimeout(r, 10));
  } finally {
    off();
  }
}

/** How many single-statement lookups (`Db.run`: sessions, trading gates) `fn` ran. */
async function lookupsIn<T>(fn: () => Promise<T>): Promise<{ value: T; lookups: number }> {
  const db = t.ctx.db;
  const run = db.run;
  let lookups = 0;
  db.run = ((q, params) => {
    lookups++;
    return run(q, params);
  }) as typeof db.run;
  try {
    return { value: await fn(), lookups };
  } finally {
    db.run = run;
  }
}

describe(`the warm-up before a sale (${dbKind})`, () => {
  it('loads the recent buyers’ sessions and trading gates: their first createOrder looks nothing up, and a logout or a freeze still counts at once', async () => {
    const { projectId } = await makeDrop(t, { supply: 100, priceFen: 1000, perIdentityLimit: 10, maxPerOrder: 2 });
    const [cold, warm, leaving, frozen] = [await makeTrader(t), await makeTrader(t), await makeTrader(t), await makeTrader(t)];

    // Without the warm-up a buyer's first call in the process looks up its session with its gate.
    await forgetCaches();
    const first = await lookupsIn(() => buy(t, cold, projectId, 1));
    expect(first.value.status, first.value.message).toBe('000000');
    expect(first.lookups).toBeGreaterThan(0);

    await forgetCaches();
    expect(await warmTraders(t.ctx, { seenSince: t.ctx.now() - 3_600_000, max: 1_000 })).toBeGreaterThanOrEqual(4);
    const warmed = await lookupsIn(() => buy(t, warm, projectId, 1));
    expect(warmed.value.status, warmed.value.message).toBe('000000');
    expect(warmed.lookups).toBe(0);

    // Exact: a logout empties the warmed sessions (1100), a freeze refuses (1100: freezing revokes the sessions).
    expect((await call(t, '/api/user/v1/logout', {}, leaving.h)).status).toBe('000000');
    expect(await buy(t, leaving, projectId, 1)).toMatchObject({ status: '1100' });
    await warmTraders(t.ctx, { seenSince: t.ctx.now() - 3_600_000, max: 1_000 });
    await t.ctx.db.kysely.updateTable('users').set({ frozen_at: t.ctx.now() }).where('id', '=', frozen.userId).execute();
    expect((await buy(t, frozen, projectId, 1)).status).not.toBe('000000');
  });

  it('reads only sessions seen since the given time, the most recent first, at most `max`', async () => {
    const [old, recent, recent2] = [await makeTrader(t), await makeTrader(t), await makeTrader(t)];
    t.clock.t += 600_000; // every session so far was seen 10 minutes ago
    await t.ctx.db.kysely.updateTable('sessions').set({ last_seen_at: t.ctx.now() - 7_200_000 }).where('user_id', '=', old.userId).execute();
    await t.ctx.db.kysely.updateTable('sessions').set({ last_seen_at: t.ctx.now() - 1 }).where('user_id', '=', recent.userId).execute();
    await t.ctx.db.kysely.updateTable('sessions').set({ last_seen_at: t.ctx.now() - 2 }).where('user_id', '=', recent2.userId).execute();
    expect(await warmTraders(t.ctx, { seenSince: t.ctx.now() - 60_000, max: 10 })).toBe(2);
    expect(await warmTraders(t.ctx, { seenSince: t.ctx.now() - 60_000, max: 1 })).toBe(1);
    const { projectId } = await makeDrop(t, { supply: 10, priceFen: 1000, perIdentityLimit: 10, maxPerOrder: 2 });
    const r = await lookupsIn(() => buy(t, recent, projectId, 1));
    expect(r.value.status, r.value.message).toBe('000000');
    expect(r.lookups).toBe(0);
    const o = await lookupsIn(() => buy(t, old, projectId, 1));
    expect(o.value.status, o.value.message).toBe('000000');
    expect(o.lookups).toBeGreaterThan(0);
  });

  it('runs once for the starts within DROP_WARM_BEFORE_MS', async () => {
    await makeTrader(t);
    const { projectId } = await makeDrop(t, { supply: 10, priceFen: 1000, startInMs: 5_000 });
    const second = await makeDrop(t, { supply: 10, priceFen: 1000, startInMs: 8_000 });
    await makeDrop(t, { supply: 10, priceFen: 1000, startInMs: 60_000 }); // not yet
    const logs: { msg: string; extra?: Record<string, unknown> }[] = [];
    const ctx = { ...t.ctx, config: { ...t.ctx.config, drops: { ...t.ctx.config.drops, warm: { beforeMs: 10_000, seenMs: 3_600_000, max: 1_000 } } } };
    const w = startDropWarmup(ctx, (msg, extra) => logs.push({ msg, extra }));
    try {
      await expect.poll(() => logs.length, { timeout: 10_000 }).toBeGreaterThan(0);
      expect(logs[0]!.msg).toBe('drop warm-up: sessions and trading gates loaded');
      expect([...(logs[0]!.extra!.releases as number[])].sort((a, b) => a - b)).toEqual([projectId, second.projectId]); // one warm-up for both starts
      expect(Number(logs[0]!.extra!.sessions)).toBeGreaterThan(0);
      await new Promise((r) => setTimeout(r, 2_500));
      expect(logs.length).toBe(1); // not warmed again within DROP_WARM_BEFORE_MS
    } finally {
      w.stop();
    }
  });
});
