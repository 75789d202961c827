import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.ts';
import { buildApp, type App } from '../src/app.ts';
import { inTx } from '../src/db/tx.ts';
import { loadMessagesConfig } from '../src/config/messages.ts';
import { notifyUser, notifyUsers } from '../src/modules/messages/notify-user.ts';
import { call, dbKind, type TestApp } from './helpers.ts';
import { makeGoods, makeMarketApp, makeRelease, makeTrader, type FakeChain, type Release, type Trader } from './market-helpers.ts';
import { listen, SseClient, ticketFor } from './messages-helpers.ts';

/**
 * The message stream over a real HTTP connection (fetch streaming against the listening server):
 * the unread count and new messages arrive live, through @fastify/compress and helmet; tickets are
 * single-use and expire; a user sees only their own messages; the per-user cap; a logged-out
 * session's stream ends; on PostgreSQL a message committed by one app instance reaches a stream
 * held by another instance on the same database (LISTEN/NOTIFY).
 */
let t: TestApp & { chain: FakeChain };
let base: string;
let release: Release;
const M = '/api/user/message/v1';

beforeAll(async () => {
  t = await makeMarketApp({ MESSAGE_STREAMS_PER_USER: '2' }, { messages: { ...loadMessagesConfig({ MESSAGE_STREAMS_PER_USER: '2' }), heartbeatMs: 300 } });
  base = await listen(t);
  release = await makeRelease(t);
});
afterAll(async () => { await t?.close(); });

const bid = (app: App, u: Trader, goodsId: number, amount: number, at: number) =>
  call(app, '/goods/v1/bargin', { goodsId, amount, expiresAt: at + 86_400_000 }, u.h);

describe('the SSE stream', () => {
  it('pushes the unread count and a new message live; marking read pushes the new count; not compressed, helmet headers on', async () => {
    const owner = await makeTrader(t);
    const bidder = await makeTrader(t);
    const { goodsId } = await makeGoods(t, release, owner);
    const s = await SseClient.open(base, `ticket=${await ticketFor(t, owner)}&lang=en`, { 'accept-encoding': 'gzip, deflate, br' });
    try {
      expect(s.status).toBe(200);
      expect(s.headers!.get('content-type')).toBe('text/event-stream; charset=utf-8');
      expect(s.headers!.get('content-encoding')).toBeNull();
      expect(s.headers!.get('content-security-policy')).toContain("default-src 'self'");
      expect(s.headers!.get('x-content-type-options')).toBe('nosniff');
      expect((await s.next((e) => e.event === 'unread')).data).toEqual({ count: 0 });

      expect((await bid(t, bidder, goodsId, 5000, t.clock.t)).status).toBe('000000');
      const m = await s.next((e) => e.event === 'message');
      expect(m.data).toMatchObject({ kind: 'bid_received', title: 'New bid received', read: false, link: `/assets/${goodsId}` });
      expect(m.id).toBe(String(m.data.id));
      expect((await s.next((e) => e.event === 'unread')).data).toEqual({ count: 1 });

      expect((await call(t, `${M}/read`, { ids: [m.data.id] }, owner.h)).data.unread).toBe(0);
      expect((await s.next((e) => e.event === 'unread')).data).toEqual({ count: 0 });
      // heartbeat comments keep it open
      await s.next(() => false, 800).catch(() => undefined);
      expect(s.comments).toBeGreaterThan(1);
    } finally {
      s.close();
    }
  });

  it('a rolled-back message is never pushed; another user\'s messages never reach my stream', async () => {
    const a = await makeTrader(t);
    const b = await makeTrader(t);
    const sa = await SseClient.open(base, `ticket=${await ticketFor(t, a)}`);
    const sb = await SseClient.open(base, `ticket=${await ticketFor(t, b)}`);
    try {
      await sa.next((e) => e.event === 'unread');
      await sb.next((e) => e.event === 'unread');
      await inTx(t.ctx, async (trx) => {
        await notifyUser(t.ctx, trx, a.userId, 'sold', { name: 'rolled back' }, { dedupeKey: 'x:rb' });
        throw new Error('rollback');
      }).catch(() => undefined);
      const kept = await inTx(t.ctx, (trx) => notifyUser(t.ctx, trx, a.userId, 'sold', { name: 'kept', serial: 1, priceFen: 100, incomeFen: 95 }, { dedupeKey: 'x:kept' }));
      const m = await sa.next((e) => e.event === 'message');
      expect(m.data.id).toBe(kept);
      expect(m.data.body).toContain('《kept》');
      expect(sa.events.filter((e) => e.event === 'message')).toHaveLength(1);
      expect(sb.events.filter((e) => e.event === 'message')).toHaveLength(0);
      expect(sb.events.every((e) => e.event !== 'unread' || e.data.count === 0)).toBe(true);
    } finally {
      sa.close();
      sb.close();
    }
  });

  it('messages for several users in one call reach each user\'s stream (one signal statement for all of them)', async () => {
    const users = await Promise.all([1, 2, 3].map(() => makeTrader(t)));
    const streams = await Promise.all(users.map(async (u) => SseClient.open(base, `ticket=${await ticketFor(t, u)}`)));
    try {
      for (const s of streams) await s.next((e) => e.event === 'unread');
      const ids = await inTx(t.ctx, (trx) =>
        notifyUsers(t.ctx, trx, users.map((u, i) => ({ userId: u.userId, kind: 'sold' as const, params: { name: `batch ${i}`, serial: i + 1, priceFen: 100, incomeFen: 95 }, opts: { dedupeKey: 'x:batch' } }))),
      );
      for (const [i, s] of streams.entries()) {
        const m = await s.next((e) => e.event === 'message');
        expect(m.data.id).toBe(ids[i]);
        expect(m.data.body).toContain(`《batch ${i}》`);
        expect((await s.next((e) => e.event === 'unread')).data.count).toBe(1);
      }
    } finally {
      for (const s of streams) s.close();
    }
  });

  it('tickets: single use, expire after 30 s, never the session token; `after` replays what came while disconnected', async () => {
    const u = await makeTrader(t);
    const ticket = await ticketFor(t, u);
    expect(ticket).not.toBe(u.token);
    const first = await SseClient.open(base, `ticket=${ticket}`);
    expect(first.status).toBe(200);
    const unread = await first.next((e) => e.event === 'unread');
    expect(unread.data.count).toBe(0);
    first.close();
    const again = await SseClient.open(base, `ticket=${ticket}`);
    expect(again.status).toBe(401);
    expect(again.events[0]!.data).toMatchObject({ status: '1001' });
    expect((await SseClient.open(base, `ticket=${u.token}`)).status).toBe(401);
    expect((await SseClient.open(base, '')).status).toBe(401);

    const late = await ticketFor(t, u);
    t.clock.t += 31_000;
    expect((await SseClient.open(base, `ticket=${late}`)).status).toBe(401);

    // while disconnected a message arrives; the reconnect with after=<last id seen> gets it
    const id = await inTx(t.ctx, (trx) => notifyUser(t.ctx, trx, u.userId, 'sold', { name: 'while away' }, { dedupeKey: 'x:away' }));
    const back = await SseClient.open(base, `ticket=${await ticketFor(t, u)}&after=0`);
    try {
      expect((await back.next((e) => e.event === 'message')).data.id).toBe(id);
      expect((await back.next((e) => e.event === 'unread')).data.count).toBe(1);
    } finally {
      back.close();
    }
  });

  it('at most MESSAGE_STREAMS_PER_USER streams per user; a logged-out session\'s stream gets `logout` and ends', async () => {
    const u = await makeTrader(t);
    const s1 = await SseClient.open(base, `ticket=${await ticketFor(t, u)}`);
    const s2 = await SseClient.open(base, `ticket=${await ticketFor(t, u)}`);
    await s1.next((e) => e.event === 'unread');
    await s2.next((e) => e.event === 'unread');
    const s3 = await SseClient.open(base, `ticket=${await ticketFor(t, u)}`);
    expect(s3.status).toBe(429);
    expect(s3.events[0]!.data).toMatchObject({ status: '1006' });
    s2.close();
    // the server notices the closed connection, then a new one is allowed
    const deadline = Date.now() + 15_000;
    let s4: SseClient | undefined;
    while (Date.now() < deadline) {
      s4 = await SseClient.open(base, `ticket=${await ticketFor(t, u)}`);
      if (s4.status === 200) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(s4!.status).toBe(200);
    expect((await call(t, '/api/user/v1/logout', {}, u.h)).status).toBe('000000');
    await s1.next((e) => e.event === 'logout');
    await s1.closed();
    await s4!.next((e) => e.event === 'logout');
    await s4!.closed();
    // and no new ticket for the ended session
    expect(await call(t, `${M}/stream/ticket`, {}, u.h)).toMatchObject({ status: '1100' });
  });
});

describe.runIf(dbKind === 'postgres')('two app instances on one PostgreSQL database', () => {
  let second: App;
  let dataDir: string;
  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cfx-test-'));
    const config = loadConfig(
      { DEV_MODE: '1', CAPTCHA_PROVIDER: 'test', CHAIN: 'off', DEMO_DATA: '0', MARKET_JOBS: '0', PAYMENT_SANDBOX_SECRET: 'test-sandbox-secret' },
      { dataDir, databaseUrl: t.ctx.config.databaseUrl, serveWeb: false },
    );
    second = await buildApp(config, { now: () => t.clock.t, logger: false });
  });
  afterAll(async () => {
    await second?.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('a message committed by one instance reaches a stream held by the other (LISTEN/NOTIFY)', async () => {
    await second.app.listen({ port: 0, host: '127.0.0.1' });
    const addr = second.app.server.address() as { port: number };
    const owner = await makeTrader(t);
    const bidder = await makeTrader(t);
    const { goodsId } = await makeGoods(t, release, owner);
    // the ticket comes from instance 1, the stream is held by instance 2
    const s = await SseClient.open(`http://127.0.0.1:${addr.port}`, `ticket=${await ticketFor(t, owner)}&lang=zh`);
    try {
      expect(s.status).toBe(200);
      expect((await s.next((e) => e.event === 'unread')).data.count).toBe(0);
      expect((await bid(t, bidder, goodsId, 7000, t.clock.t)).status).toBe('000000');
      const m = await s.next((e) => e.event === 'message');
      expect(m.data).toMatchObject({ kind: 'bid_received', title: '收到新的出价' });
      expect((await s.next((e) => e.event === 'unread')).data.count).toBe(1);
      // marking read on instance 1 updates the count on instance 2
      await call(t, `${M}/read`, { all: true }, owner.h);
      expect((await s.next((e) => e.event === 'unread')).data.count).toBe(0);
    } finally {
      s.close();
    }
  });
});
