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
    rollupOptions: {
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
