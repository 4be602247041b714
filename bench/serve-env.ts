import fs from 'node:fs';
import path from 'node:path';

/** What `npm run serve` gives the server process besides the app's own configuration. */
export interface ServeEnv {
  /** The Node and V8 flags the script passes to `node`, as one NODE_OPTIONS string. */
  NODE_OPTIONS: string;
  /** The script's default for glibc's tunables. */
  GLIBC_TUNABLES: string;
}

const GLIBC_DEFAULT = /\bGLIBC_TUNABLES=\$\{GLIBC_TUNABLES:-([^}\s]+)\}/;
const NODE_FLAGS = /\bnode((?:\s+--\S+)+)\s+dist\/server\/main\.mjs\b/;

/**
 * The flags and environment of a `serve` script such as package.json's: read from it, so that
 * the bench starts the server exactly as `npm run serve` does and cannot drift from it. Throws
 * when the script no longer has the shape this reads, rather than measuring without them.
 */
export function serveEnvOf(script: string): ServeEnv {
  const glibc = GLIBC_DEFAULT.exec(script)?.[1];
  const flags = NODE_FLAGS.exec(script)?.[1]?.trim().split(/\s+/);
  if (!glibc || !flags) {
    throw new Error(
      `bench: cannot read the Node flags and GLIBC_TUNABLES default of the serve script: ${script}`,
    );
  }
  return { NODE_OPTIONS: flags.join(' '), GLIBC_TUNABLES: glibc };
}

/** The project's scripts, from its package.json. */
export function projectScripts(): Record<string, string> {
  const file = path.resolve(import.meta.dirname, '..', 'package.json');
  return (JSON.parse(fs.readFileSync(file, 'utf8')) as { scripts: Record<string, string> }).scripts;
}
