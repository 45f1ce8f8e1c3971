import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/support/global-redis.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // The JSON results feed the "N passed, N failed" line that .ci/run prints.
    reporters: ['default', 'json'],
    outputFile: { json: '.vitest-results.json' },
  },
});
