import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { freePort } from '../src/server/testing/free-port.ts';

/** The floor server (floor-server.ts) as a child process answering `list` and `client`. */
export async function startFloor(
  dir: string,
  list: string,
  client: string,
  kind: 'node' | 'fastify' = 'node',
): Promise<{ url: string; pid: number; stop(): Promise<void> }> {
  const listFile = path.join(dir, 'floor-list.json');
  const clientFile = path.join(dir, 'floor-client.json');
  fs.writeFileSync(listFile, list);
  fs.writeFileSync(clientFile, client);
  const port = await freePort();
  const child: ChildProcess = spawn(
    process.execPath,
    [
      path.join(import.meta.dirname, 'floor-server.ts'),
      String(port),
      listFile,
      clientFile,
      ...(kind === 'fastify' ? ['fastify'] : []),
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  await new Promise<void>((resolve, reject) => {
    child.stdout!.once('data', () => resolve());
    child.once('exit', (code) => reject(new Error(`floor server exited ${code}`)));
  });
  return {
    url: `http://127.0.0.1:${port}`,
    pid: child.pid!,
    async stop() {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    },
  };
}
