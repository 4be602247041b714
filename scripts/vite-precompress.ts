import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import type { Plugin } from 'vite';

const COMPRESSIBLE = /\.(js|css|html|svg|json|txt|webmanifest)$/;

/**
 * Writes a brotli (.br) and a gzip (.gz) copy next to every text file of the build, at their
 * highest levels, once: the server sends the copy the browser accepts (@fastify/static
 * `preCompressed`) instead of compressing on every request or sending the file whole.
 */
export function precompress(): Plugin {
  let outDir = '';
  return {
    name: 'clients-manager:precompress',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    closeBundle() {
      precompressDir(outDir);
    },
  };
}

/** Writes `<file>.br` and `<file>.gz` beside every compressible file under `dir`. */
export function precompressDir(dir: string): void {
  for (const entry of fs.readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !COMPRESSIBLE.test(entry.name)) continue;
    const file = path.join(entry.parentPath, entry.name);
    const bytes = fs.readFileSync(file);
    fs.writeFileSync(
      `${file}.br`,
      zlib.brotliCompressSync(bytes, {
        params: {
          [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY,
          [zlib.constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
        },
      }),
    );
    fs.writeFileSync(`${file}.gz`, zlib.gzipSync(bytes, { level: 9 }));
  }
}
