import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import type { SqliteEngine } from './sqlite-driver.ts';

/**
 * WAL checkpoints of the embedded SQLite database in a thread of their own (docs/operations.md,
 * "SQLite's checkpoints").
 *
 * In WAL mode every commit appends the pages it changed to the -wal file; a checkpoint copies them
 * back into the database file and syncs it to disk. SQLite runs that checkpoint inside the commit
 * that takes the WAL past `wal_autocheckpoint` pages (1,000 by default) — on the connection that
 * commits, which is the server's one connection and runs on its event loop: every few dozen commits
 * under load, one commit copied megabytes and waited for an fsync while no request was answered.
 *
 * Here a worker thread holds a connection of its own to the same file and runs a PASSIVE checkpoint
 * (`PRAGMA wal_checkpoint(PASSIVE)`: it takes no lock that a reader or the writer waits for) every
 * CHECKPOINT_EVERY_MS while anything was committed since the last one, so the WAL is copied back and
 * restarted from its beginning without the event loop. The server's connection keeps
 * `wal_autocheckpoint` at BACKSTOP_PAGES: should the thread fall behind, the commit that takes the WAL
 * past 40 MB checkpoints inline as before; should the thread exit or fail to start, the connection
 * goes back to SQLite's default of 1,000 pages and says so in the log.
 */

/** How often the thread looks for commits to checkpoint. */
export const CHECKPOINT_EVERY_MS = 200;
/** `wal_autocheckpoint` of the server's connection while the thread runs (4 KiB pages: 40 MB). */
export const BACKSTOP_PAGES = 10_000;
/** SQLite's default, restored when the thread is gone. */
export const INLINE_PAGES = 1_000;

/** What the thread reports after each checkpoint it ran (the numbers of `PRAGMA wal_checkpoint`). */
export interface CheckpointReport {
  /** 1 when another checkpointer or a writer's WAL restart kept it from finishing. */
  busy: number;
  /** Frames in the WAL at the checkpoint. */
  log: number;
  /** Frames copied back into the database file by now (the whole WAL when `checkpointed === log`). */
  checkpointed: number;
}

export interface SqliteCheckpointer {
  /** Checkpoints the thread has run, and its last report (tests and the bench read them). */
  readonly stats: { runs: number; last?: CheckpointReport; framesCheckpointed: number };
  /** Stops the thread (its connection is closed first); resolves once it exited. */
  stop(): Promise<void>;
}

// The thread's code: plain CommonJS run with `eval`, so it needs no loader under tsx and no file beside the bundle.
const THREAD_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const { file, engine, betterSqlitePath, everyMs } = workerData;
let db;
if (engine === 'node:sqlite') {
  const emit = process.emitWarning;
  process.emitWarning = () => {};
  try { db = new (process.getBuiltinModule('node:sqlite').DatabaseSync)(file); } finally { process.emitWarning = emit; }
} else {
  db = new (require(betterSqlitePath))(file);
}
const all = (sql) => db.prepare(sql).all();
db.exec('PRAGMA busy_timeout = 0');
db.exec('PRAGMA synchronous = NORMAL');
db.exec('PRAGMA wal_autocheckpoint = 0');
let seen = -1;
const tick = () => {
  try {
    const v = Number(all('PRAGMA data_version')[0].data_version);
    if (v === seen) return;
    const r = all('PRAGMA wal_checkpoint(PASSIVE)')[0];
    const report = { busy: Number(r.busy), log: Number(r.log), checkpointed: Number(r.checkpointed) };
    if (!report.busy) seen = v;
    parentPort.postMessage({ report });
  } catch (err) {
    parentPort.postMessage({ error: String(err && err.message || err) });
  }
};
const timer = setInterval(tick, everyMs);
parentPort.on('message', (m) => {
  if (m !== 'stop') return;
  clearInterval(timer);
  try { db.close(); } catch {}
  parentPort.close();
});
tick();
`;

/**
 * Starts the checkpoint thread of `file` and sets the server connection's `wal_autocheckpoint`
 * (through `setPages`) to the backstop; back to SQLite's default when the thread is gone.
 */
export function startSqliteCheckpointer(opts: {
  file: string;
  engine: SqliteEngine;
  setPages: (pages: number) => void;
  warn: (msg: string) => void;
  everyMs?: number;
}): SqliteCheckpointer {
  const stats: SqliteCheckpointer['stats'] = { runs: 0, framesCheckpointed: 0 };
  let stopping = false;
  const betterSqlitePath = opts.engine === 'better-sqlite3' ? createRequire(import.meta.url).resolve('better-sqlite3') : '';
  const worker = new Worker(THREAD_SOURCE, {
    eval: true,
    workerData: { file: opts.file, engine: opts.engine, betterSqlitePath, everyMs: opts.everyMs ?? CHECKPOINT_EVERY_MS },
    // Its own small heap: the thread holds one connection and a timer.
    resourceLimits: { maxOldGenerationSizeMb: 32 },
  });
  worker.unref();
  opts.setPages(BACKSTOP_PAGES);
  let lastError = '';
  worker.on('message', (m: { report?: CheckpointReport; error?: string }) => {
    if (m.report) {
      stats.runs++;
      stats.last = m.report;
      if (!m.report.busy) stats.framesCheckpointed += m.report.checkpointed;
    } else if (m.error && m.error !== lastError) {
      lastError = m.error; // said once, not every CHECKPOINT_EVERY_MS while it lasts
      opts.warn(`sqlite checkpoint thread: ${m.error}`);
    }
  });
  const exited = new Promise<void>((resolve) => {
    let gone_ = false;
    const gone = (why: string) => {
      if (gone_) return; // 'error' is followed by 'exit'
      gone_ = true;
      if (!stopping) {
        try {
          opts.setPages(INLINE_PAGES);
        } catch {
          // the connection is already closed
        }
        opts.warn(`sqlite checkpoint thread ${why}; checkpoints run inline again (wal_autocheckpoint ${INLINE_PAGES})`);
      }
      resolve();
    };
    worker.once('error', (err) => gone(`failed: ${err.message}`));
    worker.once('exit', (code) => gone(`exited (${code})`));
  });
  return {
    stats,
    async stop() {
      if (stopping) return exited;
      stopping = true;
      worker.postMessage('stop');
      const timer = setTimeout(() => void worker.terminate(), 2000);
      await exited;
      clearTimeout(timer);
    },
  };
}
