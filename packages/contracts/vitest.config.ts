import os from 'node:os';
import { defineConfig } from 'vitest/config';

// Chain tests start one real @xcfx/node dev node per test file (≈ 8–10 s each), so
// timeouts are generous. Files run in forked workers (the node itself runs in a
// grandchild process started by src/embedded-node.ts).
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['./test/global-setup.ts'],
    pool: 'forks',
    // Mostly waiting for blocks: 3 forks on 2 cores took 46 s instead of 108 s (vitest's default is cores − 1).
    maxWorkers: Math.max(3, os.availableParallelism() - 1),
    testTimeout: 60_000,
    hookTimeout: 120_000,
    teardownTimeout: 30_000,
  },
});
