#!/usr/bin/env node
// Builds the server for production: one ES-module bundle per entry point in apps/server/dist
// (main.js, seed.js, create-staff.js, import-whitelist.js), run with plain `node` on Node 20, 22 and 24 —
// no tsx, no type stripping. npm packages stay external (loaded from node_modules at run time, native
// addons included); the workspace packages (@cfx/contract, @cfx/protocol, @cfx/contracts), which are
// TypeScript sources, are bundled.
//
// Paths a source file resolves next to itself keep pointing at the source tree: `import.meta.dirname`
// and `import.meta.url` (except in the entry files, whose "am I the main module" checks must see the
// bundle) are rewritten to the source file's location, relative to the bundle. So the web build
// (config: apps/web/build), the contracts' sources, artifacts and solc (packages/contracts), the embedded
// chain's child script and better-sqlite3 (resolved from apps/server) are found as when run with tsx —
// dist/ must stay inside the checkout it was built in.
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const serverDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const repo = path.resolve(serverDir, '../..');
// --outdir <dir>: another output directory (tests); it must lie inside the checkout, where node_modules resolve.
const outArg = process.argv.indexOf('--outdir');
const outdir = outArg > 0 ? path.resolve(process.argv[outArg + 1]) : path.join(serverDir, 'dist');
// esbuild comes with tsx (a dependency of the server): resolved through it, no separate install.
const require = createRequire(createRequire(path.join(serverDir, 'package.json')).resolve('tsx/package.json'));
const esbuild = require('esbuild');

const entries = {
  main: 'src/main.ts',
  seed: 'src/seed.ts',
  'create-staff': 'src/tools/create-staff.ts',
  'import-whitelist': 'src/tools/import-whitelist.ts',
};
const entryFiles = new Set(Object.values(entries).map((e) => path.join(serverDir, e)));

/** `import.meta.*` of a bundled workspace source, pointing at that source (see the header). */
const sourceLocation = {
  name: 'source-location',
  setup(build) {
    build.onLoad({ filter: /\.(ts|mts|mjs|js)$/ }, async (args) => {
      if (args.path.includes(`${path.sep}node_modules${path.sep}`)) return undefined;
      let text = await fs.promises.readFile(args.path, 'utf8');
      if (!text.includes('import.meta')) return undefined;
      const relFile = path.relative(outdir, args.path).split(path.sep).join('/');
      const relDir = path.relative(outdir, path.dirname(args.path)).split(path.sep).join('/') + '/';
      const srcDir = `process.getBuiltinModule('node:url').fileURLToPath(new URL(${JSON.stringify(relDir)}, import.meta.url)).replace(/\\/$/, '')`;
      const srcUrl = `new URL(${JSON.stringify(relFile)}, import.meta.url).href`;
      text = text.replace(/import\.meta\.(dirname|url)\b/g, (m, what) => (what === 'dirname' ? `(${srcDir})` : entryFiles.has(args.path) ? m : srcUrl));
      return { contents: text, loader: /\.m?ts$/.test(args.path) ? 'ts' : 'js', resolveDir: path.dirname(args.path) };
    });
  },
};

/** npm packages are external; the workspace's own packages (TypeScript sources) are bundled. */
const externalPackages = {
  name: 'external-packages',
  setup(build) {
    build.onResolve({ filter: /^[^./]/ }, (args) => {
      if (args.path.startsWith('node:') || args.path.startsWith('@cfx/')) return undefined;
      return { path: args.path, external: true };
    });
  },
};

fs.rmSync(outdir, { recursive: true, force: true });
const started = Date.now();
await esbuild.build({
  absWorkingDir: serverDir,
  entryPoints: Object.fromEntries(Object.entries(entries).map(([k, v]) => [k, path.join(serverDir, v)])),
  outdir,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20.19',
  sourcemap: 'linked',
  logLevel: 'warning',
  plugins: [sourceLocation, externalPackages],
  // Bundled CommonJS dependencies of the workspace sources (none today) would need `require`.
  banner: { js: "import { createRequire as __cfxCreateRequire } from 'node:module'; const require = __cfxCreateRequire(import.meta.url);" },
});
fs.writeFileSync(path.join(outdir, 'package.json'), '{ "type": "module" }\n');
console.log(`[build] server bundle in ${path.relative(repo, outdir)} (${Date.now() - started} ms)`);
