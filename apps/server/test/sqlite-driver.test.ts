import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { afterAll, describe, expect, it } from 'vitest';
import { openSqliteConnection, sqliteEngine } from '../src/db/sqlite-driver.ts';
import { isUniqueViolation } from '../src/db/tx.ts';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cfx-sqlite-driver-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
const [major, minor] = process.versions.node.split('.').map(Number) as [number, number];

describe(`SQLite driver on Node ${process.versions.node}`, () => {
  it('uses node:sqlite from Node 22.16 on, better-sqlite3 before; Node >= 22.16 never loads the addon', async () => {
    const hasColumns = major > 23 || (major === 23 && minor >= 11) || (major === 22 && minor >= 16);
    expect(sqliteEngine()).toBe(hasColumns ? 'node:sqlite' : 'better-sqlite3');
    const c = openSqliteConnection(path.join(dir, 'engine.sqlite'));
    c.prepare('select 1 as x').all([]);
    c.close();
    const loaded = Object.keys(createRequire(import.meta.url).cache).some((k) => k.includes(`${path.sep}better-sqlite3${path.sep}`));
    if (hasColumns) expect(loaded).toBe(false);
  });

  it('tells readers from writers (insert … returning reads), integers come back as numbers', () => {
    const c = openSqliteConnection(path.join(dir, 'rw.sqlite'));
    c.exec('create table t (id integer primary key, name text not null unique, at integer not null)');
    const ins = c.prepare('insert into t (name, at) values (?, ?)');
    expect(ins.reader).toBe(false);
    expect(Number(ins.run(['a', 1_700_000_000_123]).lastInsertRowid)).toBe(1);
    const ret = c.prepare('insert into t (name, at) values (?, ?) returning id, at');
    expect(ret.reader).toBe(true);
    expect(ret.all(['b', 2])).toEqual([{ id: 2, at: 2 }]);
    expect(c.prepare('begin immediate').reader).toBe(false);
    expect(c.prepare('select id, name, at from t order by id').all([])).toEqual([
      { id: 1, name: 'a', at: 1_700_000_000_123 },
      { id: 2, name: 'b', at: 2 },
    ]);
    c.close();
  });

  it("names constraint errors as better-sqlite3 does, so the app's checks work on either engine", () => {
    const c = openSqliteConnection(path.join(dir, 'err.sqlite'));
    c.exec('create table t (id integer primary key, name text not null unique)');
    c.prepare('insert into t (id, name) values (?, ?)').run([1, 'a']);
    const codeOf = (sql: string, params: unknown[]) => {
      try {
        c.prepare(sql).run(params);
      } catch (err) {
        return err;
      }
      return null;
    };
    const dup = codeOf('insert into t (name) values (?)', ['a']);
    expect(dup).toMatchObject({ code: 'SQLITE_CONSTRAINT_UNIQUE', message: 'UNIQUE constraint failed: t.name' });
    expect(isUniqueViolation(dup)).toBe(true);
    expect(codeOf('insert into t (id, name) values (?, ?)', [1, 'b'])).toMatchObject({ code: 'SQLITE_CONSTRAINT_PRIMARYKEY' });
    expect(codeOf('insert into t (name) values (?)', [null])).toMatchObject({ code: 'SQLITE_CONSTRAINT_NOTNULL' });
    expect(codeOf('insert into nowhere values (?)', [1])).toMatchObject({ code: 'SQLITE_ERROR' });
    c.close();
  });

  it('caches prepared statements by SQL text, least recently used dropped past the bound', () => {
    const c = openSqliteConnection(path.join(dir, 'cache.sqlite'), 2);
    const a = c.prepare('select 1');
    expect(c.prepare('select 1')).toBe(a);
    const b = c.prepare('select 2');
    c.prepare('select 1'); // a is now the most recent
    c.prepare('select 3'); // drops b
    expect(c.prepare('select 1')).toBe(a);
    expect(c.prepare('select 2')).not.toBe(b);
    const off = openSqliteConnection(path.join(dir, 'cache.sqlite'), 0);
    expect(off.prepare('select 1')).not.toBe(off.prepare('select 1'));
    off.close();
    c.close();
  });
});
