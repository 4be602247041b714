/**
 * The floor: a bare `node:http` server that answers the list and one client with the very bytes
 * the real server sent, from memory. What it reaches on this machine is the most any Node HTTP
 * server could; the bench prints ours as a share of it.
 *
 * Run as its own process: node bench/floor-server.ts <port> <list.json> <client.json>
 */
import fs from 'node:fs';
import http from 'node:http';

const [port, listFile, clientFile] = process.argv.slice(2);
if (!port || !listFile || !clientFile) {
  console.error('usage: node bench/floor-server.ts <port> <list.json> <client.json>');
  process.exit(2);
}
const list = fs.readFileSync(listFile);
const client = fs.readFileSync(clientFile);

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
