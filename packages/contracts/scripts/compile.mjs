// Compile contracts/*.sol with solc-js 0.8.26 into artifacts/<Name>.json ({ contractName, abi, bytecode }).
//
//   node scripts/compile.mjs             compile unconditionally
//   node scripts/compile.mjs --if-stale  compile only when sources/settings changed
//
// evmVersion is 'paris' because the Conflux Core node rejects PUSH0 (shanghai+), which
// is also why @openzeppelin/contracts is pinned to 5.4.0 (5.5+ needs newer EVM features).
// Artifacts are git-ignored: anything that needs them calls ensureArtifacts(), which
// compares a content hash of the inputs with artifacts/.build-info.json.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);

export const PACKAGE_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const CONTRACTS_DIR = join(PACKAGE_DIR, 'contracts');
export const ARTIFACTS_DIR = join(PACKAGE_DIR, 'artifacts');
const BUILD_INFO = join(ARTIFACTS_DIR, '.build-info.json');
const LOCK_DIR = join(ARTIFACTS_DIR, '.lock');

export const SOLC_SETTINGS = {
  evmVersion: 'paris',
  optimizer: { enabled: true, runs: 200 },
  outputSelection: { '*': { '*': ['abi', 'evm.bytecode.object'] } },
};

/** Directory holding @openzeppelin/contracts (resolved the Node way, works when hoisted). */
function openZeppelinDir() {
  return dirname(require.resolve('@openzeppelin/contracts/package.json'));
}

function solcVersion() {
  return JSON.parse(readFileSync(require.resolve('solc/package.json'), 'utf8')).version;
}

/** The .sol files of contracts/, sorted, as { 'Name.sol': source }. */
function readSources() {
  const sources = {};
  for (const file of readdirSync(CONTRACTS_DIR).filter((f) => f.endsWith('.sol')).sort()) {
    sources[file] = readFileSync(join(CONTRACTS_DIR, file), 'utf8');
  }
  return sources;
}

/** Hash of everything that determines the artifacts. */
function inputHash(sources) {
  const ozVersion = JSON.parse(readFileSync(join(openZeppelinDir(), 'package.json'), 'utf8')).version;
  return createHash('sha256')
    .update(JSON.stringify({ sources, settings: SOLC_SETTINGS, solc: solcVersion(), oz: ozVersion }))
    .digest('hex');
}

/** Resolve `import "@openzeppelin/..."` (and any other package path) from node_modules. */
function findImport(path) {
  try {
    if (path.startsWith('@openzeppelin/contracts/')) {
      return { contents: readFileSync(join(openZeppelinDir(), path.slice('@openzeppelin/contracts/'.length)), 'utf8') };
    }
    const local = join(CONTRACTS_DIR, path);
    if (existsSync(local)) return { contents: readFileSync(local, 'utf8') };
    return { contents: readFileSync(require.resolve(path), 'utf8') };
  } catch {
    return { error: `File not found: ${path}` };
  }
}

/** Compile every contract and write artifacts/<Name>.json. Returns the contract names. */
export async function compileAll() {
  const { default: solc } = await import('solc');
  const sources = readSources();
  const input = {
    language: 'Solidity',
    sources: Object.fromEntries(Object.entries(sources).map(([file, content]) => [file, { content }])),
    settings: SOLC_SETTINGS,
  };
  const output = JSON.parse(solc.compile(JSON.stringify(input), { import: findImport }));
  const errors = (output.errors ?? []).filter((e) => e.severity === 'error');
  for (const w of (output.errors ?? []).filter((e) => e.severity !== 'error')) console.warn(w.formattedMessage);
  if (errors.length) throw new Error(`solc failed:\n${errors.map((e) => e.formattedMessage).join('\n')}`);

  mkdirSync(ARTIFACTS_DIR, { recursive: true });
  const names = [];
  for (const file of Object.keys(sources)) {
    for (const [contractName, contract] of Object.entries(output.contracts[file] ?? {})) {
      const bytecode = contract.evm.bytecode.object;
      if (!bytecode) continue; // interfaces / abstract contracts
      writeAtomic(join(ARTIFACTS_DIR, `${contractName}.json`), JSON.stringify({ contractName, abi: contract.abi, bytecode: `0x${bytecode}` }, null, 2));
      names.push(contractName);
    }
  }
  writeAtomic(BUILD_INFO, JSON.stringify({ hash: inputHash(sources), solc: solcVersion(), contracts: names }, null, 2));
  return names;
}

/** True when artifacts exist and were built from the current sources and settings. */
export function artifactsAreFresh() {
  if (!existsSync(BUILD_INFO)) return false;
  try {
    const info = JSON.parse(readFileSync(BUILD_INFO, 'utf8'));
    if (info.hash !== inputHash(readSources())) return false;
    return info.contracts.every((name) => existsSync(join(ARTIFACTS_DIR, `${name}.json`)));
  } catch {
    return false;
  }
}

/**
 * Compile only if the artifacts are missing or stale. Safe to call from several
 * processes at once (a lock directory serialises the compilation).
 */
export async function ensureArtifacts() {
  if (artifactsAreFresh()) return false;
  mkdirSync(ARTIFACTS_DIR, { recursive: true });
  await acquireLock();
  try {
    if (artifactsAreFresh()) return false; // another process compiled while we waited
    await compileAll();
    return true;
  } finally {
    rmSync(LOCK_DIR, { recursive: true, force: true });
  }
}

/** Read artifacts/<name>.json (after ensureArtifacts()). */
export function readArtifact(name) {
  return JSON.parse(readFileSync(join(ARTIFACTS_DIR, `${name}.json`), 'utf8'));
}

function writeAtomic(file, content) {
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, content);
  renameSync(tmp, file);
}

async function acquireLock() {
  const deadline = Date.now() + 120_000;
  for (;;) {
    try {
      mkdirSync(LOCK_DIR);
      return;
    } catch (err) {
      if (err.code !== 'EEXIST') throw err;
      // A lock older than 2 minutes belongs to a crashed compiler.
      try {
        if (Date.now() - statSync(LOCK_DIR).mtimeMs > 120_000) rmSync(LOCK_DIR, { recursive: true, force: true });
      } catch {
        /* lock vanished meanwhile */
      }
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${LOCK_DIR}`, { cause: err });
      await new Promise((r) => setTimeout(r, 200));
    }
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const ifStale = process.argv.includes('--if-stale');
  const started = Date.now();
  const compiled = ifStale ? await ensureArtifacts() : (await compileAll(), true);
  console.log(compiled ? `compiled contracts in ${Date.now() - started} ms -> ${ARTIFACTS_DIR}` : 'artifacts are up to date');
}
