/**
 * The floor: a bare `node:http` server that answers the list and one client with the very bytes
 * the real server sent, from memory. What it reaches on this machine is the most any Node HTTP
 * server could; the bench prints ours as a share of it.
 *
 * With `fastify` after the files, Fastify (the server's framework, with its per-request logger
 * as the app configures it, no hooks and no database) answers the same bytes instead: what the
 * framework itself takes of the gap between the floor and us.
 *
 * Run as its own process: node bench/floor-server.ts <port> <list.json> <client.json> [fastify]
 */
import fs from 'node:fs';
import http from 'node:http';
import Fastify from 'fastify';

const [port, listFile, clientFile, kind] = process.argv.slice(2);
if (!port || !listFile || !clientFile) {
  console.error('usage: node bench/floor-server.ts <port> <list.json> <client.json> [fastify]');
  process.exit(2);
}
const list = fs.readFileSync(listFile);
const client = fs.readFileSync(clientFile);

if (kind === 'fastify') {
  const app = Fastify({ logger: { level: 'warn' } });
  const json = 'application/json; charset=utf-8';
  app.get('/api/clients', (_request, reply) => reply.type(json).send(list));
  app.get('/api/clients/:id', (_request, reply) => reply.type(json).send(client));
  await app.listen({ port: Number(port), host: '127.0.0.1' });
  console.log('ready');
  process.on('SIGTERM', () => void app.close().then(() => process.exit(0)));
} else {
  serveBare();
}

function serveBare() {
  const server = http.createServer((request, response) => {
    const body = request.url === '/api/clients' ? list : client;
    response.writeHead(200, {
      'content-type': 'application/json; charset=utf-8',
      'content-length': body.length,
    });
    response.end(body);
  });
  server.keepAliveTimeout = 72_000;
  server.listen(Number(port), '127.0.0.1', () => console.log('ready'));
  process.on('SIGTERM', () => server.close(() => process.exit(0)));
}
