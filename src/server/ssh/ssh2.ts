import { createRequire } from 'node:module';
import type ssh2Module from 'ssh2';

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
