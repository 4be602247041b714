import { randomBytes, randomInt } from 'node:crypto';
import type { Client, ClientValues } from '#shared/clients.ts';

/** A complete client body as the Add / Edit forms send it: every field given, the password too. */
export type ClientBody = ClientValues & { startDate: string };

const WORDS = ['alpha', 'Zürich', 'naïve', '東京', 'emoji 🚀', "O'Brien", 'a"b', 'x; rm -rf ~'];

function word(): string {
  return WORDS[randomInt(WORDS.length)]!;
}

/**
 * Random but valid client values whose every field differs from write to write, so a stored
 * row shows exactly which write it came from. `name` is the caller's unique label: a write
 * that got no answer can still be recognised if it was saved.
 */
export function randomClientBody(name: string, options: { password: boolean }): ClientBody {
  const tagCount = randomInt(4);
  return {
    name,
    code: randomBytes(4).toString('hex'),
    description: `${word()} ${randomBytes(6).toString('base64url')}\n${word()}`,
    tags: Array.from({ length: tagCount }, (_, i) => `t${i}-${randomBytes(3).toString('hex')}`),
    startDate: `20${10 + randomInt(20)}-0${1 + randomInt(9)}-1${randomInt(10)}`,
    server: {
      host: `h${randomBytes(3).toString('hex')}.example.test`,
      port: 1 + randomInt(65535),
      username: `u${randomBytes(2).toString('hex')}`,
      private: randomInt(2) === 0,
      uiDir: `/srv/${randomBytes(3).toString('hex')}`,
      ...(options.password ? { password: `pw-${randomBytes(8).toString('hex')}` } : {}),
    },
    domains: Array.from(
      { length: randomInt(3) },
      () => `https://${randomBytes(3).toString('hex')}.example.test/`,
    ),
  };
}

/** The fields of a stored client that a write decides, in the shape `storedFields` gives. */
export function expectedFields(body: ClientBody, hadPassword: boolean, version: number) {
  const { password, ...server } = body.server;
  return {
    name: body.name,
    code: body.code,
    description: body.description,
    tags: body.tags,
    startDate: body.startDate,
    server: {
      ...server,
      hasPassword: password === undefined ? hadPassword : password !== '',
    },
    domains: body.domains,
    version,
  };
}

export function storedFields(client: Client): ReturnType<typeof expectedFields> {
  return {
    name: client.name,
    code: client.code,
    description: client.description,
    tags: client.tags,
    startDate: client.startDate,
    server: client.server,
    domains: client.domains,
    version: client.version,
  };
}
