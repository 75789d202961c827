import { describe, expect, it } from 'vitest';
import { rowParts } from '../src/db/tx.ts';

const sqlite = { db: { dialect: 'sqlite' } };
const postgres = { db: { dialect: 'postgres' } };
const rows = (n: number) => Array.from({ length: n }, (_, i) => i);

describe('rowParts: the rows of a multi-row statement', () => {
  it('splits them into powers of two on SQLite, largest first, every row once in order', () => {
    expect(rowParts(sqlite, rows(37), 200).map((p) => p.length)).toEqual([32, 4, 1]);
    expect(rowParts(sqlite, rows(200), 200).map((p) => p.length)).toEqual([128, 64, 8]);
    expect(rowParts(sqlite, rows(300), 150).map((p) => p.length)).toEqual([128, 128, 32, 8, 4]);
    expect(rowParts(sqlite, rows(1), 200).map((p) => p.length)).toEqual([1]);
    expect(rowParts(sqlite, [], 200)).toEqual([]);
    for (let n = 0; n <= 600; n++) {
      const parts = rowParts(sqlite, rows(n), 150);
      expect(parts.flat()).toEqual(rows(n));
      for (const p of parts) expect([1, 2, 4, 8, 16, 32, 64, 128]).toContain(p.length);
    }
  });

  it('keeps at most eight statement sizes on SQLite whatever the batch sizes', () => {
    const sizes = new Set<number>();
    for (let n = 1; n <= 256; n++) for (const p of rowParts(sqlite, rows(n), 200)) sizes.add(p.length);
    expect([...sizes].sort((a, b) => a - b)).toEqual([1, 2, 4, 8, 16, 32, 64, 128]);
  });

  it('cuts parts of the maximum on PostgreSQL (one round trip each)', () => {
    expect(rowParts(postgres, rows(37), 200).map((p) => p.length)).toEqual([37]);
    expect(rowParts(postgres, rows(450), 200).map((p) => p.length)).toEqual([200, 200, 50]);
  });
});
