import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importWhitelist } from '../src/modules/drops/whitelist.ts';
import type { TestApp } from './helpers.ts';
import { makeTrader, type FakeChain } from './market-helpers.ts';
import { makeDrop, makeDropApp } from './drops-helpers.ts';
import { accountIdOf } from './drop-phases-helpers.ts';

/**
 * Whitelist import (docs/drops.md "Whitelist"): the server function the admin console will call
 * and the CLI tools/import-whitelist.ts, on a real database (SQLite, or PostgreSQL with
 * TEST_PG_URL): every bad line reported with its number, nothing imported then (one transaction),
 * re-import updates quotas (idempotent), replace mode, phone numbers never printed.
 */
let t: TestApp & { chain: FakeChain };
beforeAll(async () => {
  t = await makeDropApp();
});
afterAll(async () => {
  await t?.close();
});

const entries = async (projectId: number) =>
  (await t.ctx.db.kysely.selectFrom('drop_whitelist').select(['user_id', 'quota']).where('project_id', '=', projectId).orderBy('user_id').execute()).map((r) => [Number(r.user_id), Number(r.quota)]);
let mobileSeq = 0;
/** Gives the user a real-looking 11-digit phone number (the test traders' numbers are longer) and returns it. */
const mobileOf = async (userId: number) => {
  const mobile = `135${String(process.pid % 10_000).padStart(4, '0')}${String(++mobileSeq).padStart(4, '0')}`;
  await t.ctx.db.kysely.updateTable('users').set({ mobile }).where('id', '=', userId).execute();
  return mobile;
};

describe('importWhitelist', () => {
  it('reports every bad line with its number and imports nothing', async () => {
    const { projectId } = await makeDrop(t);
    const a = await makeTrader(t);
    const b = await makeTrader(t);
    await importWhitelist(t.ctx, projectId, `${await accountIdOf(t, a)},1`, { now: t.clock.t });
    const csv = [
      '# friends of the project',
      `${await accountIdOf(t, b)},2`, // 2: fine
      'not-a-line', // 3
      `${await accountIdOf(t, a)},0`, // 4: quota out of range
      '',
      '1999999999,3', // 6: no such account
      `${await accountIdOf(t, b)},4`, // 7: same user as line 2
      `${await accountIdOf(t, a)},2,extra`, // 8
      `${await accountIdOf(t, a)},abc`, // 9
    ].join('\n');
    const r = await importWhitelist(t.ctx, projectId, csv, { now: t.clock.t });
    expect(r.ok).toBe(false);
    expect(r.errors.map((e) => [e.line, e.key])).toEqual([
      [3, 'whitelistBadLine'],
      [4, 'whitelistBadQuota'],
      [6, 'whitelistUnknownUser'],
      [7, 'whitelistDuplicate'],
      [8, 'whitelistBadLine'],
      [9, 'whitelistBadQuota'],
    ]);
    expect(r.errors.find((e) => e.line === 7)?.vars).toEqual({ line: 7, first: 2 });
    // only the earlier import is there: nothing of this file was written
    expect(await entries(projectId)).toEqual([[a.userId, 1]]);
  });

  it('accepts phone numbers and account ids, a header, CRLF and a BOM; re-importing updates quotas; replace removes the rest', async () => {
    const { projectId } = await makeDrop(t);
    const [a, b, c] = [await makeTrader(t), await makeTrader(t), await makeTrader(t)];
    const first = `\uFEFF${await mobileOf(a.userId)},2\r\n${await accountIdOf(t, b)},3\r\n`;
    expect(await importWhitelist(t.ctx, projectId, first, { now: t.clock.t })).toMatchObject({ ok: true, entries: 2, added: 2, updated: 0, unchanged: 0 });
    expect(await importWhitelist(t.ctx, projectId, first, { now: t.clock.t })).toMatchObject({ ok: true, added: 0, updated: 0, unchanged: 2 });
    const second = `accountId,quota\n${await accountIdOf(t, a)},5\n${await accountIdOf(t, c)},1`;
    expect(await importWhitelist(t.ctx, projectId, second, { now: t.clock.t })).toMatchObject({ ok: true, added: 1, updated: 1, unchanged: 0, removed: 0 });
    expect(await entries(projectId)).toEqual([[a.userId, 5], [b.userId, 3], [c.userId, 1]].sort((x, y) => x[0]! - y[0]!));
    expect(await importWhitelist(t.ctx, projectId, `mobile,quota\n${await mobileOf(c.userId)},1`, { now: t.clock.t, replace: true })).toMatchObject({ ok: true, unchanged: 1, removed: 2 });
    expect(await entries(projectId)).toEqual([[c.userId, 1]]);
    // a header fixes the key: an account id under "mobile" is not found
    const wrong = await importWhitelist(t.ctx, projectId, `mobile,quota\n${await accountIdOf(t, a)},1`, { now: t.clock.t });
    expect(wrong.errors.map((e) => e.key)).toEqual(['whitelistUnknownUser']);
    await expect(importWhitelist(t.ctx, 987_654_321, 'x', { now: t.clock.t })).rejects.toMatchObject({ status: '1404' });
  });

  it('is atomic under concurrent imports: every entry ends at one of the files, never a mix of half-written ones', async () => {
    const { projectId } = await makeDrop(t);
    const users = await Promise.all(Array.from({ length: 30 }, () => makeTrader(t)));
    const ids = await Promise.all(users.map((u) => accountIdOf(t, u)));
    const fileA = ids.map((id) => `${id},1`).join('\n');
    const fileB = ids.map((id) => `${id},2`).join('\n');
    const results = await Promise.all([importWhitelist(t.ctx, projectId, fileA, { now: t.clock.t }), importWhitelist(t.ctx, projectId, fileB, { now: t.clock.t })]);
    expect(results.every((r) => r.ok)).toBe(true);
    const quotas = new Set((await entries(projectId)).map(([, q]) => q));
    expect(quotas.size).toBe(1); // the later transaction wrote every line of its file
    expect((await entries(projectId)).length).toBe(30);
  });
});

describe('tools/import-whitelist.ts (the CLI)', () => {
  const root = path.resolve(import.meta.dirname, '../../..');
  const run = (args: string[]) =>
    new Promise<{ code: number | null; out: string; err: string }>((resolve) => {
      const env = { ...process.env, DATA_DIR: t.ctx.config.dataDir, DATABASE_URL: t.ctx.config.databaseUrl ?? '', LOG_LEVEL: 'error' };
      const p = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'apps/server/src/tools/import-whitelist.ts'), ...args], { cwd: root, env });
      let out = '';
      let err = '';
      p.stdout.on('data', (d) => (out += d));
      p.stderr.on('data', (d) => (err += d));
      p.on('close', (code) => resolve({ code, out, err }));
    });

  it('reports bad lines with their numbers (exit 1, nothing imported), then imports a clean file (exit 0) against DATA_DIR / DATABASE_URL', async () => {
    const { projectId } = await makeDrop(t);
    const a = await makeTrader(t);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wl-'));
    const bad = path.join(dir, 'bad.csv');
    const mobile = await mobileOf(a.userId);
    fs.writeFileSync(bad, `mobile,quota\n${mobile},2\n13800000000x,1\n${mobile},3\n`);
    const r1 = await run(['--project', String(projectId), '--file', bad]);
    expect(r1.code, r1.err).toBe(1);
    expect(r1.err).toContain('line 3: expected "mobile or accountId,quota"');
    expect(r1.err).toContain('line 4: the same user as line 2');
    expect(r1.err).toContain('2 bad line(s): nothing was imported');
    expect(r1.err + r1.out).not.toContain(mobile); // personal data is never printed
    expect(await entries(projectId)).toEqual([]);
    const good = path.join(dir, 'good.csv');
    fs.writeFileSync(good, `${mobile},2\n`);
    const r2 = await run(['--project', String(projectId), '--file', good, '--lang', 'zh']);
    expect(r2.code, r2.err).toBe(0);
    expect(r2.out).toContain('白名单已导入：新增1条，更新0条');
    expect(await entries(projectId)).toEqual([[a.userId, 2]]);
    expect((await run(['--file', good])).code).toBe(2);
    fs.rmSync(dir, { recursive: true, force: true });
  }, 60_000);
});
