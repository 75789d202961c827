import { defineConfig } from 'vitest/config';

// Chain tests (*.chain.test.ts) start real Conflux nodes: they run as their own suite (TEST_CHAIN=1).
const chain = process.env.TEST_CHAIN === '1';
export default defineConfig({
  test: {
    include: chain ? ['test/**/*.chain.test.ts'] : ['test/**/*.test.ts'],
    exclude: chain ? [] : ['test/**/*.chain.test.ts', 'node_modules/**'],
    pool: 'forks',
    testTimeout: chain ? 120_000 : 30_000,
    hookTimeout: 120_000,
  },
});
