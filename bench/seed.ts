import { randomBytes, randomInt } from 'node:crypto';
import type { Session } from '../src/server/testing/test-server.ts';

const WORDS = ['alpha', 'Zürich', 'naïve', 'Tōkyō', 'harbour', "O'Brien", 'délice', 'north'];

/** A client as the Add form sends it; names are `<word> <n>` so searches have known matches. */
export function benchClientBody(n: number) {
  return {
    name: `${WORDS[n % WORDS.length]} ${n}`,
    code: randomBytes(3).toString('hex'),
    description: `Hosting for ${WORDS[randomInt(WORDS.length)]} team, ${randomBytes(6).toString('base64url')}`,
    tags: [`eu-west-${randomInt(3)}`, `t${randomInt(100)}`],
    startDate: '2024-05-17',
    server: {
      host: `h${randomBytes(3).toString('hex')}.example.test`,
      port: 22,
      username: 'deploy',
      private: true,
      uiDir: '/srv/app',
      password: `pw-${randomBytes(6).toString('hex')}`,
    },
    domains: [`https://${randomBytes(3).toString('hex')}.example.test/`],
  };
}

/** Adds clients through the API (as people do), `concurrency` requests in flight. */
export async function seedClients(
  session: Session,
  from: number,
  to: number,
  concurrency = 16,
): Promise<void> {
  let next = from;
  const worker = async () => {
    while (next < to) {
      const n = next++;
      const { status, body } = await session.json('POST', '/api/clients', benchClientBody(n));
      if (status !== 201) throw new Error(`seeding answered ${status}: ${JSON.stringify(body)}`);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
}
