import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { precompress } from './scripts/vite-precompress.ts';

export default defineConfig({
  root: 'src/client',
  publicDir: 'public',
  plugins: [react(), precompress()],
  build: {
    outDir: '../../dist/client',
    emptyOutDir: true,
    sourcemap: true,
    // Which files each entry and lazy route loads (the bench sums them).
    manifest: true,
    // The start-up code is one chunk of about 560 KB minified (below); its limit is
    // `npm run size`'s, on what is sent: 250 KB gzipped for the dashboard.
    chunkSizeWarningLimit: 1024,
    rollupOptions: {
      output: {
        codeSplitting: {
          // Everything the entry imports statically in one file: every page loads all of it
          // anyway, and as one file it compresses better and carries no imports and exports
          // between a dozen small chunks (6.6 KB less gzipped on the dashboard, 6.3 KB on
          // sign-in; lazy screens stay lazy).
          groups: [{ name: 'index', tags: ['$initial'] }],
        },
      },
      onwarn(warning, warn) {
        // Mantine ships "use client" directives for React Server Components; meaningless here.
        if (warning.code === 'MODULE_LEVEL_DIRECTIVE' && warning.message.includes('use client'))
          return;
        warn(warning);
      },
    },
  },
  server: {
    port: 5173,
    proxy: { '/api': { target: 'http://127.0.0.1:3000', changeOrigin: false } },
  },
});
