/**
 * The bare Koa handler `npm run bench:http` compares the service with: one route returning a
 * JSON body the size and shape of GET /me's, no middleware. Prints `LISTENING <url>`.
 * @module
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import Koa from 'koa';

const body = JSON.parse(process.env.BARE_BODY ?? '{"id":"x"}') as unknown;
const app = new Koa();
app.use((ctx) => {
  ctx.body = body;
});
const handle = app.callback();
const server = createServer((req, res) => void handle(req, res));
server.keepAliveTimeout = 65_000;
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`LISTENING http://127.0.0.1:${(server.address() as AddressInfo).port}\n`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
