import type { Session } from './test-server.ts';

/**
 * Clients as large as the form allows (a 5,000-character description, 50 tags, 40 domains),
 * imported in one request: each is about 24 KB of the list and of an export, so 700 of them
 * make answers of some 16 MB, several times what the loopback socket buffers hold for a client
 * that stopped reading. Answers the ids.
 */
export async function importLargeClients(session: Session, count: number): Promise<string[]> {
  const run = Date.now().toString(36);
  const label = (n: number) => `${'d'.repeat(55)}${String(n).padStart(8, '0')}`;
  const documents = Object.fromEntries(
    Array.from({ length: count }, (_, n) => {
      const id = `large${run}${String(n).padStart(6, '0')}`;
      return [
        id,
        {
          name: `Large ${run} ${n}`,
          // Quotes: each is two bytes of JSON.
          description: '"'.repeat(5000),
          tags: Array.from({ length: 50 }, (_, t) => `t${t}-${'x'.repeat(95)}`),
          domains: Array.from(
            { length: 40 },
            (_, d) => `https://${label(d)}.${label(n)}.${label(d)}.example.com/`,
          ),
        },
      ];
    }),
  );
  const response = await session.json<{ added?: unknown }>('POST', '/api/clients/import', {
    clients: documents,
  });
  if (response.status !== 200) {
    throw new Error(`import answered ${response.status}: ${JSON.stringify(response.body)}`);
  }
  return Object.keys(documents);
}
