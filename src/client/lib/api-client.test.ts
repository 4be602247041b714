import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ApiRequestError, apiRequest } from './api-client.ts';

/** Answers 200 with the start of a JSON body and never finishes it, like a slow big list. */
let server: http.Server;
let url: string;

beforeAll(async () => {
  server = http.createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'application/json' });
    response.write('[{"id":"a"},');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/clients`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

describe('apiRequest', () => {
  it('reports a request cancelled while its body is read as an abort, not a bad answer', async () => {
    // The real fetch, watched for the moment its answer's headers are in: the cancel must come
    // while the body is read, as React Query's does when a newer refetch replaces one.
    const realFetch = globalThis.fetch;
    let answered!: () => void;
    const headersIn = new Promise<void>((resolve) => (answered = resolve));
    globalThis.fetch = async (...args) => {
      const response = await realFetch(...args);
      answered();
      return response;
    };
    const controller = new AbortController();
    const answer = apiRequest(url, z.array(z.object({ id: z.string() })), {
      signal: controller.signal,
    });
    try {
      await headersIn;
    } finally {
      globalThis.fetch = realFetch;
    }
    controller.abort();
    const error: unknown = await answer.catch((caught: unknown) => caught);
    expect(error).not.toBeInstanceOf(ApiRequestError);
    expect(error).toMatchObject({ name: 'AbortError' });
  });
});
