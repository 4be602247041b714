import { afterAll, beforeAll } from 'vitest';
import { signUpVerified, startTestServer, type Session, type TestServer } from './test-server.ts';

/** What a test file shares: its server and, when asked for, a signed-in staff member. */
export interface FileServer {
  readonly server: TestServer;
  readonly staff: Session;
}

/**
 * The preamble of an API test file: a real server for the file's tests (started before them,
 * closed after), and a verified, signed-in staff member named `staff` when one is asked for.
 * Read `server` and `staff` inside tests and hooks: they are set when the file starts.
 */
export function serveThisFile(
  options: { env?: Record<string, string>; staff?: string } = {},
): FileServer {
  let server: TestServer | undefined;
  let staff: Session | undefined;
  beforeAll(async () => {
    server = await startTestServer(options.env);
    if (options.staff !== undefined) staff = await signUpVerified(server, { name: options.staff });
  });
  afterAll(async () => server?.close());
  return {
    get server() {
      if (!server) throw new Error('serveThisFile: the server starts before the first test');
      return server;
    },
    get staff() {
      if (!staff) throw new Error('serveThisFile: no staff member was asked for');
      return staff;
    },
  };
}
