// Child-process entry point of the embedded Conflux dev node.
//
// @xcfx/node allows exactly one node per process (createServer throws the second
// time) and the node keeps native threads alive, so embedded-node.ts forks this
// file and talks to it over the IPC channel:
//   parent -> child  { type: 'start', config }   (ConfluxConfig of @xcfx/node)
//   child  -> parent { type: 'ready' } | { type: 'error', message }
//   parent -> child  { type: 'stop' }            (then the child exits 0)
// The child also stops when the IPC channel closes (parent died) or on SIGTERM/SIGINT,
// so a crashed parent never leaves an orphan node holding the data directory.
// Plain JavaScript on purpose: it runs under bare `node`, without a TS loader.
import { createRequire } from 'node:module';
import path from 'node:path';

// The native node without @xcfx/node's createServer wrapper: that wrapper waits for readiness
// through the `test` RPC namespace (current_sync_phase), which we never expose. The parent
// (embedded-node.ts) waits for readiness through the `cfx` namespace instead.
const require = createRequire(import.meta.url);
const pkgDir = path.dirname(require.resolve('@xcfx/node/package.json'));
const { ConfluxNode } = require('@xcfx/node/conflux.js');

/** @param {Record<string, unknown>} config */
async function createServer(config) {
  const { log = false, timeout: _timeout, ...user } = config;
  const filled = {
    posConfigPath: path.join(pkgDir, 'configs/pos_config/pos_config.yaml'),
    posInitialNodesPath: path.join(pkgDir, 'configs/pos_config/initial_nodes.json'),
    logConf: log ? path.join(pkgDir, 'configs/log.yaml') : undefined,
    ...user,
  };
  const node = new ConfluxNode();
  const call = (/** @type {string} */ fn) => new Promise((resolve, reject) => (fn === 'start' ? node.startNode(filled, (/** @type {unknown} */ e) => (e ? reject(e) : resolve(undefined))) : node.stopNode((/** @type {unknown} */ e) => (e ? reject(e) : resolve(undefined)))));
  return { start: () => call('start'), stop: () => call('stop') };
}

/** @type {{ stop: () => Promise<void> } | undefined} */
let server;
let stopping = false;

/** Stop the node (if started) and exit the process. */
async function shutdown(code = 0) {
  if (stopping) return;
  stopping = true;
  try {
    if (server) await server.stop();
  } catch (err) {
    console.error('[embedded-node] stop failed:', err);
    code = code || 1;
  }
  process.exit(code);
}

/** @param {unknown} msg */
function send(msg) {
  if (process.send && process.connected) process.send(msg);
}

process.on('message', async (/** @type {any} */ msg) => {
  if (msg?.type === 'start') {
    try {
      const { timeout, ...config } = msg.config;
      server = await createServer({ ...config, timeout: timeout ?? 60_000 });
      await server.start();
      send({ type: 'ready' });
    } catch (err) {
      send({ type: 'error', message: err instanceof Error ? err.stack ?? err.message : String(err) });
      await shutdown(1);
    }
  } else if (msg?.type === 'stop') {
    await shutdown(0);
  }
});

process.on('disconnect', () => void shutdown(0));
process.on('SIGTERM', () => void shutdown(0));
process.on('SIGINT', () => void shutdown(0));
