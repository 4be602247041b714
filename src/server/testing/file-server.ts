import { afterAll, beforeAll } from 'vitest';
import { signUpVerified, startTestServer, type Session, type TestServer } from './test-server.ts';
import { setAccess, type TestAccess } from './access.ts';

/** How the server starts besides its settings (startTestServer's options): a web build, a log. */
export type StartOptions = Omit<NonNullable<Parameters<typeof startTestServer>[1]>, 'dataDir'>;

/**
 * A staff member to sign up: name, email, password (signUpVerified's defaults for the rest), and
 * a role and tag limit to give them (the first one signed up is the installation's admin).
 */
export type StaffMember = NonNullable<Parameters<typeof signUpVerified>[1]> & TestAccess;

/** What a test file shares: its server, and its signed-in staff by the names the file chose. */
export interface FileServer<Name extends string> {
  readonly server: TestServer;
  readonly staff: Readonly<Record<Name, Session>>;
}

/**
 * The preamble of an API test file: a real server for the file's tests (started before them,
 * closed after), with `env` over the test settings, and the `staff` members signed up, verified
 * and signed in, e.g. `staff: { alice: { name: 'Alice' } }` gives `t.staff.alice`. `start` is a
 * function when what it names must be made as the file starts (a web build in a temp folder).
 * Read `server` and `staff` inside tests and hooks: they are set when the file starts. A
 * `beforeAll` of the file's own, written after this call, runs after them.
 */
export function serveThisFile<const Name extends string = never>(
  options: {
    env?: Record<string, string>;
    start?: StartOptions | (() => StartOptions);
    staff?: Record<Name, StaffMember>;
  } = {},
): FileServer<Name> {
  let server: TestServer | undefined;
  let staff: Record<Name, Session> | undefined;
  beforeAll(async () => {
    const start = typeof options.start === 'function' ? options.start() : options.start;
    server = await startTestServer(options.env, start);
    const members = options.staff ?? ({} as Record<Name, StaffMember>);
    const signedIn: Partial<Record<Name, Session>> = {};
    // One after another, in the order written: the users are created in that order.
    for (const name of Object.keys(members) as Name[]) {
      const { role, tags, ...member } = members[name];
      const session = await signUpVerified(server, member);
      if (role !== undefined || tags !== undefined) {
        await setAccess(server, session, {
          ...(role ? { role } : {}),
          ...(tags !== undefined ? { tags } : {}),
        });
      }
      signedIn[name] = session;
    }
    staff = signedIn as Record<Name, Session>;
  });
  afterAll(async () => server?.close());
  return {
    get server() {
      if (!server) throw new Error('serveThisFile: the server starts before the first test');
      return server;
    },
    get staff() {
      if (!staff) throw new Error('serveThisFile: the staff sign up before the first test');
      return staff;
    },
  };
}
