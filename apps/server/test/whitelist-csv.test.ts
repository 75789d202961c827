import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importWhitelist } from '../src/modules/drops/whitelist.ts';
import type { TestApp } from './helpers.ts';
import { makeTrader, type FakeChain } from './market-helpers.ts';
import { makeDrop, makeDropApp } from './drops-helpers.ts';
import { accountIdOf } from './drop-phases-helpers.ts';

/**
 * The whitelist CSV as spreadsheet programs write it (RFC 4180): quoted cells ("13800000000",5),
 * doubled quotes inside them, CRLF line ends, a UTF-8 BOM, a header in quotes; bad lines are still
 * reported by their line number in the file, also after a quoted cell that spans lines. Real
 * database (SQLite, or PostgreSQL with TEST_PG_URL).
 */
let t: TestApp & { chain: FakeChain };
beforeAll(async () => {
  t = await makeDropApp();
});
afterAll(async () => {
  await t?.close();
});

let mobileSeq = 0;
const mobileOf = async (userId: number) => {
  const mobile = `136${String(process.pid % 10_000).padStart(4, '0')}${String(++mobileSeq).padStart(4, '0')}`;
  await t.ctx.db.kysely.updateTable('users').set({ mobile }).where('id', '=', userId).execute();
  return mobile;
};
const entries = async (projectId: number) =>
  (await t.ctx.db.kysely.selectFrom('drop_whitelist').select(['user_id', 'quota']).where('project_id', '=', projectId).orderBy('user_id').execute()).map((r) => [Number(r.user_id), Number(r.quota)]);

describe('importWhitelist reads CSV as Excel writes it', () => {
  it('BOM, CRLF, a quoted header and quoted cells are imported', async () => {
    const { projectId } = await makeDrop(t);
    const [a, b, c] = [await makeTrader(t), await makeTrader(t), await makeTrader(t)];
    const csv = ['\uFEFF"mobile","quota"', `"${await mobileOf(a.userId)}",5`, `${await mobileOf(b.userId)},"2"`, ` "${await mobileOf(c.userId)}" , 7 `, ''].join('\r\n');
    const r = await importWhitelist(t.ctx, projectId, csv, { now: t.clock.t });
    expect(r, JSON.stringify(r.errors)).toMatchObject({ ok: true, entries: 3, added: 3 });
    expect(await entries(projectId)).toEqual([[a.userId, 5], [b.userId, 2], [c.userId, 7]].sort((x, y) => x[0]! - y[0]!));
  });

  it('account ids in quotes without a header, trailing empty cells (a wider sheet), a file without a final line end', async () => {
    const { projectId } = await makeDrop(t);
    const [a, b] = [await makeTrader(t), await makeTrader(t)];
    const csv = `"${await accountIdOf(t, a)}","3",,\r\n"${await accountIdOf(t, b)}",1`;
    const r = await importWhitelist(t.ctx, projectId, csv, { now: t.clock.t });
    expect(r, JSON.stringify(r.errors)).toMatchObject({ ok: true, entries: 2, added: 2 });
  });

  it('bad lines keep their numbers: doubled quotes, an unterminated quote, a quoted cell spanning lines, a third cell', async () => {
    const { projectId } = await makeDrop(t);
    const a = await makeTrader(t);
    const m = await mobileOf(a.userId);
    const csv = [
      '"mobile","quota"', // 1
      `"a ""b""",1`, // 2: a key with quotes in it — not a phone
      `"${m}",2`, // 3: fine
      `"1380000\n0000",1`, // 4-5: one record spanning two lines, reported at 4
      '# a comment', // 6
      `"${m}",2,"x"`, // 7: three cells
      `"${m}" x,2`, // 8: text after a closing quote
      `"${m},2`, // 9: unterminated quote (runs to the end of the file)
      '13900000000,1', // 10 — inside the unterminated cell: not a line of its own
    ].join('\r\n');
    const r = await importWhitelist(t.ctx, projectId, csv, { now: t.clock.t });
    expect(r.ok).toBe(false);
    expect(r.errors.map((e) => [e.line, e.key])).toEqual([
      [2, 'whitelistBadLine'],
      [4, 'whitelistBadLine'],
      [7, 'whitelistBadLine'],
      [8, 'whitelistBadLine'],
      [9, 'whitelistBadLine'],
    ]);
    expect(await entries(projectId)).toEqual([]);
  });
});
