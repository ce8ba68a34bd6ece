/**
 * The local receiver the end-to-end cell's webhook endpoints point at: answers every request
 * 200 at once and counts them (and the distinct `webhook-id`s), so that the outbound webhook
 * path costs the hosts what a healthy receiver would.
 * @module
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A listening receiver. */
export interface WebhookReceiver {
  /** Where endpoints should point (loopback, plain HTTP). */
  url: string;
  /** Requests answered. */
  received(): number;
  /** Distinct `webhook-id` headers among them (fewer than requests: some were sent again). */
  distinct(): number;
  close(): Promise<void>;
}

/** Starts a receiver on a free loopback port. */
export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  let received = 0;
  const ids = new Set<string>();
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      received++;
      const id = req.headers['webhook-id'];
      if (typeof id === 'string') ids.add(id);
      res.writeHead(200).end();
    });
  });
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks/wakeup`,
    received: () => received,
    distinct: () => ids.size,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
