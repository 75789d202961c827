import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ENV_VARIABLES } from '../src/config/env.ts';

/**
 * README.md's "Configuration (environment)" tables list every environment variable the code reads,
 * each exactly once: this test scans the source for variables read and compares.
 */
const root = path.resolve(import.meta.dirname, '../../..');

/** Where code that runs in a deployment lives (the server, the web app's SSR, shared packages, the start script). */
const SOURCE_DIRS = [
  'apps/server/src',
  'apps/web/app',
  'scripts',
  ...fs.readdirSync(path.join(root, 'packages')).flatMap((p) => [`packages/${p}/src`, `packages/${p}/scripts`]),
].filter((d) => fs.existsSync(path.join(root, d)));

/**
 * Read by code but deliberately not configuration, so not in the README. Variables only tests,
 * the smoke, e2e or benchmarks read (TEST_PG_URL, TEST_CHAIN, CI, SMOKE_*, BASE_URL, CHROMIUM_PATH,
 * BENCH_*) live outside SOURCE_DIRS (test/, apps/web/scripts, e2e/, bench/) and are not scanned at all.
 */
const NOT_CONFIGURATION: Record<string, string> = {
  LD_PRELOAD: 'the embedded node is started with its loopback shim appended to the inherited value',
};

const CODE_EXT = /\.(ts|tsx|mts|cts|js|mjs|cjs)$/;
const SKIP_DIRS = new Set(['node_modules', 'build', 'dist', '.react-router', 'artifacts']);

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return SKIP_DIRS.has(e.name) ? [] : sourceFiles(p);
    return CODE_EXT.test(e.name) && !/\.test\.[a-z]+$/.test(e.name) ? [p] : [];
  });
}

/** Ways the code reads a variable: `env.NAME` / `process.env.NAME`, `env['NAME']`, and helpers called as `required(env, 'NAME')`. */
const READS = [
  /\benv\.([A-Z][A-Z0-9_]*)\b/g,
  /\benv\[\s*['"`]([A-Z][A-Z0-9_]*)['"`]\s*\]/g,
  /\(\s*env\s*,\s*['"`]([A-Z][A-Z0-9_]*)['"`]/g,
];

/**
 * Vite's own build flags (`import.meta.env.DEV`, `PROD`, `MODE`, `SSR`, `BASE_URL`) are fixed when the web app
 * is built, not read from the environment at run time, so they are not configuration and not counted.
 */
const VITE_BUILD_FLAG = /\bimport\.meta\.env\.(?:DEV|PROD|MODE|SSR|BASE_URL)\b/g;

/** The variables one source text reads. */
function readsIn(source: string): string[] {
  const text = source.replace(VITE_BUILD_FLAG, '');
  return READS.flatMap((re) => [...text.matchAll(re)].map((m) => m[1]!));
}

/** Every variable read in SOURCE_DIRS, with the files that read it, and every variable of the server's environment schema. */
function variablesRead(): Map<string, string[]> {
  const found = new Map<string, string[]>();
  for (const name of ENV_VARIABLES) found.set(name, ['apps/server/src/config/env.ts (the environment schema)']);
  for (const dir of SOURCE_DIRS) {
    for (const file of sourceFiles(path.join(root, dir))) {
      for (const name of readsIn(fs.readFileSync(file, 'utf8'))) {
        const files = found.get(name) ?? [];
        const rel = path.relative(root, file);
        if (!files.includes(rel)) files.push(rel);
        found.set(name, files);
      }
    }
  }
  return found;
}

/** The variables named (in backticks) in the first cell of each row of the README's configuration tables, in order. */
function variablesDocumented(): { names: string[]; rowsWithoutName: string[] } {
  const readme = fs.readFileSync(path.join(root, 'README.md'), 'utf8');
  const start = readme.indexOf('\n## Configuration (environment)');
  if (start < 0) throw new Error('README.md has no "## Configuration (environment)" section');
  const end = readme.indexOf('\n## ', start + 1);
  const section = readme.slice(start, end < 0 ? undefined : end);
  const names: string[] = [];
  const rowsWithoutName: string[] = [];
  for (const line of section.split('\n')) {
    if (!line.startsWith('|') || /^\|\s*:?-{3,}/.test(line)) continue; // not a row / the separator row
    const first = line.split('|')[1]!.trim();
    if (first === 'variable') continue; // header row
    const inRow = [...first.matchAll(/`([A-Z][A-Z0-9_]*)`/g)].map((m) => m[1]!);
    if (!inRow.length) rowsWithoutName.push(line);
    names.push(...inRow);
  }
  return { names, rowsWithoutName };
}

describe('README configuration table', () => {
  const read = variablesRead();
  const { names, rowsWithoutName } = variablesDocumented();
  const documented = new Set(names);

  it('the scan sees the ways the code reads variables (a broken pattern cannot pass silently)', () => {
    expect(read.has('PORT')).toBe(true); // env.PORT
    expect(readsIn("const { S3_BUCKET } = env; x(env.PORT);")).toEqual(['PORT']); // destructuring is not seen: the schema's keys are added
    expect(read.get('S3_BUCKET')).toContain('apps/server/src/config/env.ts (the environment schema)');
    expect(read.has('ALIYUN_SMS_SIGN_NAME')).toBe(true); // required(env, 'ALIYUN_SMS_SIGN_NAME')
    expect(read.has('DATA_ENCRYPTION_KEY')).toBe(true); // process.env.DATA_ENCRYPTION_KEY
    expect(read.has('INTERNAL_API_ORIGIN')).toBe(true); // the web app's SSR
    expect(read.has('SKIP_WEB_BUILD')).toBe(true); // scripts/start.mjs
    expect(names.length).toBeGreaterThan(40);
  });

  it("Vite's build flags are not variables, but what else import.meta.env names is", () => {
    expect(readsIn('if (import.meta.env.DEV || import.meta.env.PROD) log(import.meta.env.MODE, import.meta.env.SSR);')).toEqual([]);
    expect(readsIn('const u = import.meta.env.VITE_API_ORIGIN; const d = process.env.DEV;')).toEqual(['VITE_API_ORIGIN', 'DEV']);
  });

  it('documents every variable the code reads', () => {
    const missing = [...read.keys()].filter((v) => !documented.has(v) && !(v in NOT_CONFIGURATION)).sort();
    expect(missing.map((v) => `${v} (read in ${read.get(v)!.join(', ')})`)).toEqual([]);
  });

  it('documents no variable the code no longer reads', () => {
    expect([...documented].filter((v) => !read.has(v)).sort()).toEqual([]);
  });

  it('names each variable exactly once', () => {
    expect(names.filter((v, i) => names.indexOf(v) !== i).sort()).toEqual([]);
  });

  it('every row names at least one variable in its first cell', () => {
    expect(rowsWithoutName).toEqual([]);
  });

  it('the exclusions are still read (no stale entries)', () => {
    expect(Object.keys(NOT_CONFIGURATION).filter((v) => !read.has(v))).toEqual([]);
  });
});
