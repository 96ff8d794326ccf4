import { defineConfig } from 'vitest/config';

// Without the React Router plugin: tests import modules directly.
export default defineConfig({
  test: {
    include: ['src/**/*.test.{ts,tsx}', 'workers/**/*.test.ts', 'tests/**/*.test.ts'],
    exclude: ['tests/reliability/**', 'node_modules/**'],
    globalSetup: ['tests/support/global-setup.ts'],
    setupFiles: ['tests/support/setup.ts'],
    // Browser and process tests share two cores with the servers they drive: allow for a busy machine.
    testTimeout: 90_000,
    expect: { poll: { timeout: 15_000 } },
    hookTimeout: 120_000,
    pool: 'forks',
    fileParallelism: true,
    maxWorkers: 2,
  },
});
