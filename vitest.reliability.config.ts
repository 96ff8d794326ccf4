import { defineConfig } from 'vitest/config';

// `npm run test:reliability`: fuzzing, authorization, faults and load. Slower than `npm test`.
export default defineConfig({
  test: {
    include: ['tests/reliability/**/*.test.ts'],
    globalSetup: ['tests/reliability/global-setup.ts'],
    setupFiles: ['tests/support/setup.ts'],
    testTimeout: 300_000,
    expect: { poll: { timeout: 15_000 } },
    hookTimeout: 120_000,
    pool: 'forks',
    maxWorkers: 1,
  },
});
