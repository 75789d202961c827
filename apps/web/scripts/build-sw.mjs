// Writes build/client/sw.js for this build (run by `npm run build` after `react-router build`):
// the version (React Router's build version + a hash of the precache list) and the app shell to
// precache — the client entry and its imports, the root and layout route modules with their imports
// and CSS, the route manifest, and every stylesheet — read from React Router's route manifest
// (build/client/assets/manifest-<version>.js). The template is public/sw.js.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

const client = path.resolve(import.meta.dirname, '../build/client');
const assetsDir = path.join(client, 'assets');
const manifestFile = fs.readdirSync(assetsDir).find((n) => /^manifest-[\w-]+\.js$/.test(n));
if (!manifestFile) throw new Error('build-sw: no route manifest in build/client/assets (run react-router build first)');
const text = fs.readFileSync(path.join(assetsDir, manifestFile), 'utf8');
const manifest = JSON.parse(text.slice(text.indexOf('{'), text.lastIndexOf('}') + 1));

/** The shell: what every page needs before its own route module. */
const SHELL_ROUTES = (id) => id === 'root' || id.startsWith('layouts/');
const files = new Set([manifest.url, manifest.entry.module, ...manifest.entry.imports, ...(manifest.entry.css ?? [])]);
for (const [id, r] of Object.entries(manifest.routes)) {
  if (!SHELL_ROUTES(id)) continue;
  for (const f of [r.module, ...(r.imports ?? []), ...(r.css ?? [])]) if (f) files.add(f);
}
for (const n of fs.readdirSync(assetsDir)) if (n.endsWith('.css')) files.add(`/assets/${n}`);
const precache = [...files].filter((f) => f.startsWith('/assets/') && fs.existsSync(path.join(client, f))).sort();
const version = `${manifest.version}-${crypto.createHash('sha256').update(precache.join('\n')).digest('hex').slice(0, 8)}`;

const template = fs.readFileSync(path.join(client, 'sw.js'), 'utf8');
const marker = /const BUILD = \{[^\n]*\}; \/\/ replaced by scripts\/build-sw\.mjs/;
if (!marker.test(template)) throw new Error('build-sw: the BUILD line of public/sw.js is missing');
const out = template.replace(marker, `const BUILD = ${JSON.stringify({ version, precache })};`);
fs.writeFileSync(path.join(client, 'sw.js'), out);
const kib = precache.reduce((s, f) => s + fs.statSync(path.join(client, f)).size, 0) / 1024;
console.log(`sw.js: version ${version}, ${precache.length} shell files (${kib.toFixed(0)} KiB) to precache`);
