import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DROP_PHASE_KINDS } from '@cfx/contract/drop-phases.ts';
import { CatalogAdminPaths } from '@cfx/contract/admin-catalog-rules.ts';
import { AdminPaths } from '@cfx/contract/admin-rules.ts';
import { fenToInput, fromLocalInput, inputToFen, intOf, percentToPermille, permilleToPercent, toLocalInput } from '../app/lib/form-input.ts';
import { move } from '../app/features/admin/catalog/fields.tsx';
import { ADMIN_NAV } from '../app/features/admin/nav.ts';
import { adminZh } from '../app/i18n/admin.zh.ts';

/** The catalogue editors' pure parts: China-time inputs, yuan → fen, per-mille, row moves, and their wiring. */
describe('form values', () => {
  it('reads and writes datetime-local values as China time whatever the browser zone', () => {
    // 2025-03-01 09:30 in Beijing is 01:30 UTC.
    const ms = Date.UTC(2025, 2, 1, 1, 30);
    expect(toLocalInput(ms)).toBe('2025-03-01T09:30');
    expect(fromLocalInput('2025-03-01T09:30')).toBe(ms);
    expect(fromLocalInput('2025-03-01T09:30:15')).toBe(ms + 15_000);
    expect(fromLocalInput('')).toBeNull();
    expect(fromLocalInput('tomorrow')).toBeNull();
    expect(toLocalInput(null)).toBe('');
    // Around midnight the China date is the next day.
    expect(toLocalInput(Date.UTC(2025, 11, 31, 16, 5))).toBe('2026-01-01T00:05');
  });
  it('money in yuan becomes integer fen; bad amounts are refused', () => {
    expect(inputToFen('99')).toBe(9900);
    expect(inputToFen('123.45')).toBe(12345);
    expect(inputToFen('0.1')).toBe(10);
    expect(inputToFen('1,000.5')).toBe(100050);
    expect(inputToFen('1.234')).toBeNull();
    expect(inputToFen('-1')).toBeNull();
    expect(inputToFen('abc')).toBeNull();
    expect(fenToInput(9900)).toBe('99.00');
  });
  it('percent ↔ per-mille and whole numbers', () => {
    expect(percentToPermille('10')).toBe(100);
    expect(percentToPermille('2.5')).toBe(25);
    expect(percentToPermille('2.55')).toBeNull();
    expect(permilleToPercent(125)).toBe('12.5');
    expect(intOf(' 12 ')).toBe(12);
    expect(intOf('1.5')).toBeNull();
  });
  it('moves rows of an ordered list', () => {
    expect(move(['a', 'b', 'c'], 2, 0)).toEqual(['c', 'a', 'b']);
    expect(move(['a', 'b'], 0, -1)).toEqual(['a', 'b']);
  });
});

describe('wiring', () => {
  it('the phase editor offers exactly the contract’s phase kinds, each with its label', () => {
    const src = fs.readFileSync(path.join(import.meta.dirname, '../app/features/admin/catalog/phases-editor.tsx'), 'utf8');
    const m = /const DROP_PHASE_KINDS: readonly Kind\[\] = \[([^\]]+)\]/.exec(src);
    expect(m![1]!.split(',').map((s) => s.trim().replace(/'/g, ''))).toEqual([...DROP_PHASE_KINDS]);
    for (const k of DROP_PHASE_KINDS) expect(adminZh.phases.kinds[k]).toBeTruthy();
  });
  it('releases, news and banners have their own pages (no placeholder) and every editor path is a console path', () => {
    const routes = fs.readFileSync(path.join(import.meta.dirname, '../app/routes.ts'), 'utf8');
    for (const s of ['releases', 'news', 'banners']) {
      expect(routes).toContain(`route('${s}', 'routes/admin.${s}.tsx')`);
      expect(ADMIN_NAV.find((n) => n.to === `/admin/${s}`)).toBeDefined();
    }
    expect(routes).not.toContain('admin.slot');
    for (const p of Object.values(CatalogAdminPaths)) expect(Object.values(AdminPaths)).toContain(p);
  });
});
