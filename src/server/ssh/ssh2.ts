import { createRequire } from 'node:module';
import type ssh2Module from 'ssh2';
import type { Client } from 'ssh2';

const require = createRequire(import.meta.url);
let loaded: typeof ssh2Module | undefined;

/**
 * ssh2, loaded the first time something connects or reads a key rather than at start: loading
 * it compiles its WebAssembly Poly1305 and reserves that module's memory, resident memory a
 * server that never opens an SSH connection would carry for nothing (docs/performance.md).
 * Required, as the CommonJS package it is.
 */
export function ssh2(): typeof ssh2Module {
  loaded ??= require('ssh2') as typeof ssh2Module;
  return loaded;
}

/**
 * Closes the connection and its socket at once. ssh2's `end()` only half-closes the socket (and
 * its `destroy()` does nothing after that): a server that never closes its side, or something
 * in between that swallows the close, would keep it open for good, one file descriptor per
 * check of such a host. Nothing is left to say once a check or a run is settled.
 */
export function closeConnection(client: Client): void {
  client.destroy();
}
