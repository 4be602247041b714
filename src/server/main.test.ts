import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MailCatcher } from './testing/mail-catcher.ts';
import { Session, confirmSignUp, uniqueEmail, type TestServer } from './testing/test-server.ts';
import { openEventStream } from './testing/sse-reader.ts';
import { testDatabaseEnv } from './testing/test-database.ts';
import { startScript } from './testing/run-script.ts';
import { serverPort } from './testing/free-port.ts';

/** The real entry point as a child process, the way `npm start` runs it. */
async function startMain(env: Record<string, string>): Promise<{
  child: ChildProcess;
  ready: Promise<void>;
  /** Resolves once the server has written `text` to its log (standard output). */
  printed(text: string): Promise<void>;
}> {
  const child = startScript('src/server/main.ts', [], env);
  let out = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  const printed = (text: string) =>
    new Promise<void>((resolve, reject) => {
      const look = () => {
        if (!out.includes(text)) return;
        child.stdout!.off('data', look);
        resolve();
      };
      child.stdout!.on('data', look);
      child.once('exit', (code) => reject(new Error(`exited ${code} before "${text}": ${out}`)));
      look();
    });
  return { child, ready: printed('Clients Manager is ready'), printed };
}

describe('main: SIGTERM', () => {
  let port: number;
  let url: string;
  let mail: MailCatcher;
  let dataDir: string;
  let database: Awaited<ReturnType<typeof testDatabaseEnv>>;

  beforeAll(async () => {
    mail = await new MailCatcher().start();
    port = await serverPort();
    url = `http://127.0.0.1:${port}`;
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cm-main-'));
    database = await testDatabaseEnv();
  });
  afterAll(async () => {
    await mail.close();
    await database.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('finishes requests in flight, ends live streams and exits 0', async () => {
    const { child, ready, printed } = await startMain({
      PORT: String(port),
      PUBLIC_URL: url,
      DATA_DIR: dataDir,
      ...database.env,
      SMTP_URL: mail.url,
      // The line each request is logged with: at debug in the bundle, as in production.
      LOG_LEVEL: 'debug',
    });
    await ready;
    const fake = { url, mail } as unknown as TestServer;
    const session = new Session(fake);
    const email = uniqueEmail('main');
    await session.request('POST', '/api/auth/sign-up/email', {
      email,
      password: 'long password',
      name: 'M',
    });
    expect(
      (await confirmSignUp(session, await mail.waitFor(email, 'Verify'), 'long password')).status,
    ).toBe(200);
    const stream = await openEventStream(url, session.cookieHeader);
    await stream.next();

    const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
    const inFlight = Array.from({ length: 20 }, (_, i) =>
      session.json('POST', '/api/clients', { name: `In flight ${i}` }).then(
        (r) => r.status,
        (e: Error) => e,
      ),
    );
    // Once the server has taken one of them (its log says so), ask it to stop.
    await printed('"method":"POST","url":"/api/clients"');
    child.kill('SIGTERM');
    const results = await Promise.all(inFlight);
    const started = Date.now();
    expect(await exited).toBe(0);
    expect(Date.now() - started).toBeLessThan(5000);

    // A request the server had taken got its full answer (201); one that arrived while it was
    // closing got 503, or its idle connection was closed before it was read. None got a 5xx
    // from a half-done write.
    for (const result of results) {
      if (typeof result === 'number') expect([201, 503]).toContain(result);
      else expect(String(result)).toMatch(/fetch failed/);
    }
    expect(results).toContain(201);
    await expect(stream.until('no-such-event', 2000)).rejects.toThrow('stream ended');
  });
});
