import { defineConfig, type Plugin } from 'vite';

/**
 * Every character beyond ASCII written as a `\u` escape, as esbuild writes bundles by default.
 * V8 keeps a script's source for as long as the script lives, at one byte a character when it
 * is all ASCII and at two otherwise: one "…" in a dependency's comment doubled the memory the
 * bundle's source holds. An escape means the same character in a string, a template, a regular
 * expression and a comment; only a tagged template's raw text (String.raw) would differ, and
 * the server's code has none with such a character.
 */
function asciiOnly(): Plugin {
  return {
    name: 'ascii-only',
    // After every other step: the bundler writes string literals out again as it renders.
    generateBundle(_options, bundle) {
      for (const output of Object.values(bundle)) {
        if (output.type !== 'chunk') continue;
        // Lines stay where they were: the source map still leads to the right line.
        output.code = output.code.replace(
          /[\u0080-\uffff]/g,
          (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`,
        );
      }
    },
  };
}

/**
 * The commands built beside the server, each as dist/server/cli-<name>.mjs: the same command
 * as `npm run <name>`, which runs its TypeScript source. `npm test` starts these, as it starts
 * the server's bundle (src/server/testing/run-script.ts). Not the soak, which finds a file of
 * its own from its source's folder.
 */
const COMMANDS = ['user', 'clients', 'db-copy', 'backup', 'restore', 'rotate-secret-key'];

/**
 * The server as one bundle for `npm run serve` (dist/server/main.mjs). Node can run the
 * TypeScript sources as they are (`npm run dev` does), but a start then resolves, stats and
 * reads about a thousand files of Better Auth, Fastify, zod and Kysely: on the 2-core machines
 * that was about half of the time to "ready" (docs/decisions/0009-test-suite-time.md). The
 * bundle is a few dozen files in one folder, most of them shared with the commands' bundles.
 *
 * The bundles sit two folders below the project root, as src/server/main.ts does, so paths
 * the code resolves from its own location (the built web app, app.ts) hold for both.
 */
export default defineConfig({
  publicDir: false,
  plugins: [asciiOnly()],
  // The built server is the production one: see requestLogLevel in src/server/config.ts.
  define: { __BUILT_SERVER__: 'true' },
  build: {
    ssr: true,
    outDir: 'dist/server',
    emptyOutDir: true,
    target: 'node24',
    // Readable stack traces in the log without loading source maps at every start.
    minify: false,
    sourcemap: true,
    rollupOptions: {
      input: {
        main: 'src/server/main.ts',
        ...Object.fromEntries(COMMANDS.map((name) => [`cli-${name}`, `src/server/cli/${name}.ts`])),
      },
      output: { entryFileNames: '[name].mjs', chunkFileNames: '[name]-[hash].mjs' },
    },
  },
  ssr: {
    // Everything in the bundle but the native SQLite binding, pg and ssh2: their optional native
    // parts (pg-native; ssh2's sshcrypto.node and cpu-features) are looked up at run time, and a
    // bundler that finds one built would try to read its binary as code. Swagger UI serves the
    // files of its own package, found from its own folder (`__dirname`), so it stays there too.
    noExternal: true,
    external: ['better-sqlite3', 'pg', 'ssh2', '@fastify/swagger-ui'],
  },
});
