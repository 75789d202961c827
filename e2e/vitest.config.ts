import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['tests/**/*.test.ts'],
    pool: 'forks',
    // Each file starts its own server and browser; two at a time on a 2-core machine.
    maxWorkers: 2,
    testTimeout: 90_000,
    hookTimeout: 120_000,
  },
});
