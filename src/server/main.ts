import module from 'node:module';

/*
 * The entry point. Node keeps the code it compiles, the TypeScript it strips included, in a
 * cache folder between starts (NODE_COMPILE_CACHE names one; by default a folder in the
 * system's temp folder): a start then loads the server's modules in about two thirds of the
 * time and without the TypeScript stripper, about 30 MB less memory. A cache that cannot be
 * written is skipped. The server itself is run-server.ts, imported after the cache is on so
 * that its modules are the ones cached.
 */
module.enableCompileCache();
// Before anything can create a file: see private-files.ts.
process.umask(0o077);
await import('./run-server.ts');
