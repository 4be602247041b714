import { describe, expect, it } from 'vitest';
import { projectScripts, serveEnvOf } from './serve-env.ts';

describe('serveEnvOf', () => {
  it('reads the flags and the glibc default of the serve script', () => {
    const script =
      'GLIBC_TUNABLES=${GLIBC_TUNABLES:-glibc.malloc.trim_threshold=4096} sh scripts/use-node24.sh node --max-semi-space-size=4 --stack-size=900 dist/server/main.mjs';
    expect(serveEnvOf(script)).toEqual({
      NODE_OPTIONS: '--max-semi-space-size=4 --stack-size=900',
      GLIBC_TUNABLES: 'glibc.malloc.trim_threshold=4096',
    });
  });

  it('refuses a script it cannot read, rather than measuring without its flags', () => {
    expect(() => serveEnvOf('node dist/server/main.mjs')).toThrow(/cannot read/);
    expect(() =>
      serveEnvOf('sh scripts/use-node24.sh node --max-old-space-size=1024 dist/server/main.mjs'),
    ).toThrow(/GLIBC_TUNABLES/);
  });

  it("reads package.json's serve script, whose memory flags npm run dev passes too", () => {
    const scripts = projectScripts();
    const env = serveEnvOf(scripts.serve!);
    expect(env.NODE_OPTIONS).toContain('--max-old-space-size=');
    expect(env.GLIBC_TUNABLES).toContain('glibc.malloc.trim_threshold=');
    for (const flag of env.NODE_OPTIONS.split(' ')) expect(scripts.dev).toContain(` ${flag} `);
  });
});
