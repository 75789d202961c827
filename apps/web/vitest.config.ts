import { defineConfig } from 'vitest/config';

// Unit tests of pure modules; kept apart from vite.config.ts so the React Router plugin is not loaded.
export default defineConfig({
  test: { include: ['test/**/*.test.ts'], environment: 'node' },
});
