import { defineConfig } from 'vitest/config';

// Without the React Router plugin: tests import modules directly.
export default defineConfig({
  test: {
    include: ['src/**/*.test.{ts,tsx}', 'workers/**/*.test.ts', 'tests/**/*.test.ts'],
    exclude: ['tests/reliability/**', 'node_modules/**'],
    globalSetup: ['tests/support/global-setup.ts'],
    setupFiles: ['tests/support/setup.ts'],
    testTimeout: 30_000,
    // Other test files share the two cores: a poll must wait out a busy machine, not fail in 1 s.
    expect: { poll: { timeout: 15_000 } },
    hookTimeout: 120_000,
    pool: 'forks',
    fileParallelism: true,
    maxWorkers: 2,
  },
});
