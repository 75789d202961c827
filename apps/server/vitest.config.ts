import os from 'node:os';
import { defineConfig } from 'vitest/config';

// Chain tests (*.chain.test.ts) start real Conflux nodes: they run as their own suite (TEST_CHAIN=1).
const chain = process.env.TEST_CHAIN === '1';
export default defineConfig({
  test: {
    include: chain ? ['test/**/*.chain.test.ts'] : ['test/**/*.test.ts'],
    exclude: chain ? [] : ['test/**/*.chain.test.ts', 'node_modules/**'],
    pool: 'forks',
    // vitest's default is one fork less than the cores: a single fork on the 2-core CI machines, while
    // much of a file's time is waiting (blocks of a chain node, SQLite and PostgreSQL I/O, the server
    // processes some tests start). Measured on 2 cores: the chain suite with 3 forks 125 s instead of
    // 312 s, the SQLite suite with 2 forks 166 s instead of 269 s, the PostgreSQL suite 240 s instead of 363 s.
    maxWorkers: chain ? Math.max(3, os.availableParallelism()) : Math.max(2, os.availableParallelism() - 1),
    testTimeout: chain ? 120_000 : 30_000,
    hookTimeout: 120_000,
  },
});
