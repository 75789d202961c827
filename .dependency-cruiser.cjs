/**
 * Module boundaries, checked by `npm run check:boundaries` (a suite of `npm test`). The map and the
 * reasons are in docs/architecture.md, "Module map". Layers of apps/server/src, lowest first:
 *   core    — db/, util/, http/, providers/, config(.ts|/), web/, jobs/, context.ts: imports no module
 *   modules — modules/<m>/: other code reaches a module only through modules/<m>/index.ts, and a
 *             module imports only the modules MODULE_DEPS lists for it (a graph without cycles)
 *   flows   — flows/: work that ties several modules together (order → payment → settlement …)
 *   app     — app.ts, main.ts, worker-role.ts, seed.ts, tools/, chain/ (start-up, the worker role)
 * Tests (apps/server/test) may import anything. Web: apps/web/app/features/<a> imports no other feature.
 */
const SERVER = '^apps/server/src/';
const MODULES = `${SERVER}modules/`;
const CORE = `${SERVER}(db|util|http|providers|config|web|jobs)/|${SERVER}(config|context)\\.ts$`;

/**
 * Which module may import which (through its index.ts). Together these edges must form no cycle,
 * except for the TEMPORARY_CYCLE_EDGES below; checked when this file loads.
 */
const MODULE_DEPS = {
  accounts: [],
  admin: ['accounts', 'boxes', 'catalog', 'compose', 'content', 'creators', 'drops', 'ledger', 'market', 'orders', 'payout', 'search', 'settled', 'tickets', 'uploads'],
  bids: ['accounts', 'catalog', 'kyc', 'market', 'messages', 'orders'],
  boxes: ['accounts', 'catalog', 'compose', 'content', 'drops', 'kyc', 'market'],
  captcha: [],
  'card-pay': ['accounts', 'drops', 'market', 'orders', 'payments', 'payout'],
  catalog: ['accounts'],
  chain: [],
  compose: ['accounts', 'catalog', 'content', 'drops', 'kyc', 'market'],
  content: ['catalog', 'media'],
  creators: ['accounts', 'catalog', 'content', 'messages', 'search', 'uploads'],
  demo: ['catalog', 'content', 'search'],
  dev: ['accounts', 'drops'],
  drops: ['accounts', 'catalog', 'chain', 'content', 'kyc', 'ledger', 'market', 'messages', 'orders', 'search'],
  invites: ['accounts'],
  kyc: ['accounts'],
  ledger: ['accounts'],
  market: ['accounts', 'catalog', 'kyc'],
  media: [],
  messages: ['accounts'],
  orders: ['accounts', 'kyc', 'ledger', 'market', 'messages'],
  payments: ['accounts', 'drops', 'ledger', 'market', 'orders', 'payout'],
  payout: ['accounts', 'kyc', 'ledger', 'uploads'],
  poster: ['catalog', 'content'],
  privacy: ['accounts', 'catalog', 'ledger', 'messages', 'payout'],
  search: ['accounts', 'catalog'],
  settled: ['accounts', 'catalog', 'creators', 'search', 'uploads'],
  shift: ['accounts', 'catalog', 'compose', 'kyc', 'market', 'orders'],
  studio: ['accounts', 'admin', 'catalog', 'creators', 'drops', 'ledger', 'messages'],
  tickets: ['accounts', 'messages', 'uploads'],
  uploads: ['accounts', 'media'],
  wallet: ['accounts'],
};

/**
 * Module cycles tolerated for a while, as [from, to] edges that are also in MODULE_DEPS (the cycle
 * check then lets cycles through those modules' index.ts pass). None today; a debt, never a pattern.
 */
const TEMPORARY_CYCLE_EDGES = [];

/** Imports between web features tolerated for a while, as [from, to] feature names (none today; shared code lives in app/components, app/lib, app/stores). */
const TEMPORARY_WEB_FEATURE_EDGES = [];

/** Core files that still import a module: [file regex, target regex]. */
const TEMPORARY_CORE_IMPORTS = [];

// --- the graph of MODULE_DEPS must have no cycle but the temporary edges ----------------------------
(function assertAcyclic() {
  const skip = new Set(TEMPORARY_CYCLE_EDGES.map(([a, b]) => `${a}>${b}`));
  for (const [a, b] of TEMPORARY_CYCLE_EDGES) {
    if (!(MODULE_DEPS[a] ?? []).includes(b)) throw new Error(`.dependency-cruiser.cjs: temporary edge ${a} → ${b} is not in MODULE_DEPS`);
  }
  const state = {};
  const visit = (m, trail) => {
    if (state[m] === 'done') return;
    if (state[m] === 'open') throw new Error(`.dependency-cruiser.cjs: MODULE_DEPS has a cycle: ${[...trail, m].join(' → ')}`);
    state[m] = 'open';
    for (const d of MODULE_DEPS[m] ?? []) if (!skip.has(`${m}>${d}`)) visit(d, [...trail, m]);
    state[m] = 'done';
  };
  for (const m of Object.keys(MODULE_DEPS)) visit(m, []);
})();

const esc = (s) => s.replace(/[-/\\^$*+?.()|[\]{}]/g, '\\$&');
const alt = (xs) => `(${xs.map(esc).join('|')})`;
const cycleModules = [...new Set(TEMPORARY_CYCLE_EDGES.flat())];

const FEATURES = '^apps/web/app/features/';
function webFeatureRules() {
  const allowed = {};
  for (const [a, b] of TEMPORARY_WEB_FEATURE_EDGES) (allowed[a] ??= []).push(b);
  const comment = 'A web feature (apps/web/app/features/<a>) does not import another feature; shared code lives outside features/.';
  return [
    {
      name: 'web-feature-cross-import',
      severity: 'error',
      comment,
      from: { path: `${FEATURES}([^/]+)/`, ...(Object.keys(allowed).length ? { pathNot: `${FEATURES}${alt(Object.keys(allowed))}/` } : {}) },
      to: { path: FEATURES, pathNot: `${FEATURES}$1/` },
    },
    ...Object.entries(allowed).map(([a, bs]) => ({
      name: 'web-feature-cross-import',
      severity: 'error',
      comment,
      from: { path: `${FEATURES}${esc(a)}/` },
      to: { path: FEATURES, pathNot: `${FEATURES}${alt([a, ...bs])}/` },
    })),
  ];
}

module.exports = {
  forbidden: [
    {
      name: 'no-server-cycle',
      severity: 'error',
      comment:
        'No import cycle in apps/server/src: modules depend on each other one way, flows orchestrate across them. ' +
        '(Cycles through the index.ts of a module in TEMPORARY_CYCLE_EDGES are left to module-not-in-deps.)',
      from: { path: SERVER },
      to: { circular: true, path: SERVER, ...(cycleModules.length ? { viaOnly: { pathNot: `${MODULES}${alt(cycleModules)}/index\\.ts$` } } : {}) },
    },
    {
      name: 'module-deep-import',
      severity: 'error',
      comment: 'A module reaches another module only through its public face modules/<m>/index.ts.',
      from: { path: `${MODULES}([^/]+)/` },
      to: { path: MODULES, pathNot: [`${MODULES}$1/`, `${MODULES}[^/]+/index\\.ts$`] },
    },
    {
      name: 'deep-import-into-module',
      severity: 'error',
      comment: 'Flows, the app, chain/, tools/, seed.ts and core reach a module only through modules/<m>/index.ts.',
      from: { path: SERVER, pathNot: [MODULES, ...TEMPORARY_CORE_IMPORTS.map(([f]) => f)] },
      to: { path: MODULES, pathNot: `${MODULES}[^/]+/index\\.ts$` },
    },
    ...Object.entries(MODULE_DEPS).map(([m, deps]) => ({
      name: 'module-not-in-deps',
      severity: 'error',
      comment: `modules/${m} may import only ${deps.length ? deps.join(', ') : 'no other module'} (MODULE_DEPS in .dependency-cruiser.cjs; a new edge must keep the module graph free of cycles).`,
      from: { path: `${MODULES}${esc(m)}/` },
      to: { path: MODULES, pathNot: `${MODULES}${alt([m, ...deps])}/` },
    })),
    {
      name: 'migration-imports-code',
      severity: 'error',
      comment: 'A migration is frozen history: it imports only db helpers (db/*.ts) and packages, never module or live code.',
      from: { path: `${SERVER}db/migrations/` },
      to: { path: SERVER, pathNot: [`${SERVER}db/[^/]+\\.ts$`, `${SERVER}db/migrations/`] },
    },
    {
      name: 'core-imports-module',
      severity: 'error',
      comment: 'Core (db, util, http, providers, config, web, jobs, context.ts) imports no module, flow or app code.',
      from: { path: CORE },
      to: {
        path: `${SERVER}(modules|flows|tools)/|${SERVER}chain/(?!chain-service\\.ts$)|${SERVER}(app|main|seed|worker-role)\\.ts$`,
        pathNot: TEMPORARY_CORE_IMPORTS.map(([, t]) => t),
      },
    },
    {
      name: 'module-imports-flow-or-app',
      severity: 'error',
      comment: 'Modules sit below flows and the app: a module never imports flows/, app.ts, main.ts, worker-role.ts or seed.ts.',
      from: { path: MODULES },
      to: { path: `${SERVER}flows/|${SERVER}(app|main|seed|worker-role)\\.ts$` },
    },
    // A web feature imports no other feature, except the temporary edges (one rule per feature).
    ...webFeatureRules(),
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)(node_modules|build|dist|\\.react-router|\\.tmp)/' },
    tsPreCompilationDeps: true,
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default'], extensions: ['.ts', '.tsx', '.js', '.mjs'] },
  },
};
