import { defineConfig } from 'vitest/config';

// Kept apart from vite.config.ts, whose root is the web app's folder.
export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'src/**/*.test.tsx'],
    environment: 'node',
    testTimeout: 20_000,
    hookTimeout: 30_000,
    pool: 'forks',
  },
});
