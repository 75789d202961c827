import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import routes from '../app/routes.ts';
import { catalogPart } from '../app/i18n/catalogs.server.ts';
import { en } from '../app/i18n/en.ts';
import { NAMESPACES, namespacesForPath, pickNamespaces, ROUTE_NAMESPACES, type Namespace, type Section } from '../app/i18n/namespaces.ts';
import { zh } from '../app/i18n/zh.ts';

const appDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../app');
const sections = Object.keys(zh) as Section[];
/** Top-level texts (`t('backToTop')`): a key that is a whole section. */
const leafSections = new Set(sections.filter((s) => typeof zh[s] === 'string'));

/** Relative imports (static, dynamic, re-exports) and the catalog sections a module's string literals name. */
const scanned = new Map<string, { imports: string[]; sections: Set<Section> }>();
function scan(file: string) {
  let entry = scanned.get(file);
  if (entry) return entry;
  const src = fs.readFileSync(file, 'utf8');
  const imports: string[] = [];
  for (const m of src.matchAll(/(?:\bfrom|\bimport)\s*\(?\s*['"](\.{1,2}\/[^'"]+)['"]/g)) {
    const target = path.resolve(path.dirname(file), m[1]!);
    // The catalogs themselves name every section; they are not code that shows texts.
    if (/\.tsx?$/.test(target) && fs.existsSync(target) && !target.startsWith(path.join(appDir, 'i18n') + path.sep)) imports.push(target);
  }
  const used = new Set<Section>();
  // `'market.bids.days'`, `` `market.status.${s}` ``, and whole-section texts like `'backToTop'`.
  for (const m of src.matchAll(/['"`]([a-zA-Z]+)(\.[a-zA-Z$]|['"`])/g)) {
    const name = m[1] as Section;
    if (!sections.includes(name)) continue;
    if (m[2]!.startsWith('.') || leafSections.has(name)) used.add(name);
  }
  entry = { imports, sections: used };
  scanned.set(file, entry);
  return entry;
}
/** Sections used by the modules reachable from `files` (lazy imports included: their texts show on the page too). */
function reachableSections(files: string[]): Set<Section> {
  const seen = new Set<string>();
  const out = new Set<Section>();
  const stack = [...files];
  while (stack.length) {
    const f = stack.pop()!;
    if (seen.has(f)) continue;
    seen.add(f);
    const e = scan(f);
    e.sections.forEach((s) => out.add(s));
    stack.push(...e.imports);
  }
  return out;
}

interface RouteEntry {
  path?: string;
  index?: boolean;
  file: string;
  children?: RouteEntry[];
}
/** Every route of app/routes.ts with its full path pattern and the files rendered for it (root, layouts, route). */
function flatten(entries: RouteEntry[], parentPath: string, parentFiles: string[]): { pattern: string; files: string[] }[] {
  return entries.flatMap((r) => {
    const pattern = r.path ? `${parentPath.replace(/\/$/, '')}/${r.path}` : parentPath;
    const files = [...parentFiles, path.join(appDir, r.file)];
    const own = r.index || (r.path !== undefined && !r.children?.length) ? [{ pattern: pattern || '/', files }] : [];
    return [...own, ...flatten(r.children ?? [], pattern, files)];
  });
}
const allRoutes = flatten(routes as RouteEntry[], '', [path.join(appDir, 'root.tsx')]);
/** A URL the pattern matches (`:id?` → 7). */
const sampleUrl = (pattern: string) => pattern.replace(/:[a-zA-Z]+\??/g, '7').replace(/\*$/, 'x/y');

describe('catalog namespaces', () => {
  it('every top-level section belongs to exactly one namespace', () => {
    const assigned = Object.values(NAMESPACES).flat();
    expect([...assigned].sort()).toEqual([...sections].sort());
  });

  it('zh and en have the same keys in every namespace', () => {
    const keys = (o: unknown, p = ''): string[] =>
      typeof o !== 'object' || o === null || 'other' in o ? [p] : Object.entries(o).flatMap(([k, v]) => keys(v, p ? `${p}.${k}` : k));
    for (const ns of Object.keys(NAMESPACES) as Namespace[]) {
      expect(keys(pickNamespaces(en, [ns])).sort(), ns).toEqual(keys(pickNamespaces(zh, [ns])).sort());
    }
  });

  it('the routes of app/routes.ts are found (the check below covers them)', () => {
    const patterns = allRoutes.map((r) => r.pattern);
    for (const p of ['/', '/projects/detail/:id?', '/personal-center', '/personal-center/txn-details', '/admin/login', '/admin/releases', '/help/part1-1', '/*']) {
      expect(patterns).toContain(p);
    }
    expect(allRoutes.length).toBeGreaterThan(50);
  });

  it("a route's modules (with its layouts, root and lazy parts) use only keys of the namespaces the page gets", () => {
    const missing: string[] = [];
    for (const r of allRoutes) {
      if (r.pattern === '/*') continue; // the 404 page: common only
      const got = new Set<string>(namespacesForPath(sampleUrl(r.pattern)).flatMap((ns) => NAMESPACES[ns]));
      const lacking = [...reachableSections(r.files)].filter((s) => !got.has(s));
      if (lacking.length) missing.push(`${r.pattern}: ${lacking.sort().join(', ')}`);
    }
    expect(missing).toEqual([]);
  });

  it('every pattern of ROUTE_NAMESPACES is a route of app/routes.ts (no stale entries)', () => {
    const routePatterns = new Set(allRoutes.map((r) => r.pattern));
    for (const pattern of Object.keys(ROUTE_NAMESPACES)) {
      const ok = pattern.endsWith('/*') ? [...routePatterns].some((p) => p.startsWith(pattern.slice(0, -1))) : routePatterns.has(pattern);
      expect(ok, pattern).toBe(true);
    }
  });

  it('namespacesForPath: common first, the data URL of a page like the page, common only for a 404', () => {
    expect(namespacesForPath('/')).toEqual(['common', 'catalog']);
    expect(namespacesForPath('/_root.data')).toEqual(['common', 'catalog']);
    expect(namespacesForPath('/projects/detail/12.data')).toEqual(namespacesForPath('/projects/detail/12'));
    expect(namespacesForPath('/personal-center/txn-details')).toEqual(['common', 'personal', 'tickets', 'catalog', 'trade', 'market']);
    expect(namespacesForPath('/admin/login')).toEqual(['common']);
    expect(namespacesForPath('/admin/releases')).toContain('phases');
    expect(namespacesForPath('/no/such/page')).toEqual(['common']);
  });

  it('a page gets only its namespaces: far less than the whole catalog', () => {
    const whole = Buffer.byteLength(JSON.stringify(zh));
    const part = (p: string) => Buffer.byteLength(JSON.stringify(catalogPart('zh', namespacesForPath(p))));
    expect(Object.keys(catalogPart('zh', ['common'])).sort()).toEqual([...NAMESPACES.common].sort());
    for (const p of ['/', '/projects/detail/1', '/personal-center', '/admin/login', '/account/login']) expect(part(p), p).toBeLessThan(whole / 2);
  });
});
