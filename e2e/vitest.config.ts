import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['tests/**/*.test.ts'],
    pool: 'forks',
    // Each file starts its own server and browser; two at a time on a 2-core machine.
    maxWorkers: 2,
    testTimeout: 90_000,
    hookTimeout: 120_000,
    // Every expect.poll waits at least 15 s: a loaded 2-core machine (a chain node, two servers,
    // two browsers) can take seconds for what is instant on an idle one.
    expect: { poll: { timeout: 15_000 } },
  },
});
