/**
 * A webhook receiver for the outbound webhook tests: an HTTP server on loopback that records
 * every request (headers and raw body) and answers as scripted (a status per request in order,
 * the last one repeating; `hang` never answers), and verifies deliveries with the
 * `standardwebhooks` package exactly as a receiver would.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

/** One request the receiver got. */
export interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  /** The webhook-id header. */
  id: string;
  /** The parsed body. */
  json: { id: string; type: string; timestamp: string; data: Record<string, any> };
}

/** A running receiver. */
export interface Receiver {
  /** `http://127.0.0.1:<port>` */
  url: string;
  received: Received[];
  /** The answers to the next requests, in order (the last one repeats). */
  answer(...statuses: Array<number | 'hang'>): void;
  /** Resolves once `predicate` holds for the requests received (polls every 50 ms), or rejects after `ms`. */
  waitFor(
    predicate: (received: Received[]) => boolean,
    ms?: number,
    what?: string,
  ): Promise<Received[]>;
  close(): Promise<void>;
}

/** Starts a receiver on 127.0.0.1 (answers 204 until told otherwise). */
export async function startReceiver(): Promise<Receiver> {
  const received: Received[] = [];
  let script: Array<number | 'hang'> = [204];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      let json: Received['json'];
      try {
        json = JSON.parse(body) as Received['json'];
      } catch {
        json = { id: '', type: '', timestamp: '', data: {} };
      }
      received.push({
        path: req.url ?? '/',
        headers: req.headers,
        body,
        id: String(req.headers['webhook-id'] ?? ''),
        json,
      });
      const next = script.length > 1 ? script.shift()! : script[0]!;
      if (next === 'hang') return;
      res.writeHead(next, { 'content-type': 'text/plain' }).end('thanks');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    received,
    answer(...statuses) {
      script = statuses.length > 0 ? statuses : [204];
    },
    async waitFor(predicate, ms = 15_000, what = 'the expected deliveries') {
      const until = Date.now() + ms;
      for (;;) {
        if (predicate(received)) return received;
        if (Date.now() > until) {
          throw new Error(
            `receiver: timed out waiting for ${what}; got ${JSON.stringify(received.map((r) => [r.id, r.json.type]))}`,
          );
        }
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    },
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/**
 * Verifies a delivery as a receiver would, with the `standardwebhooks` package (signature over
 * `id.timestamp.body`, timestamp within its 5-minute tolerance); returns the verified payload.
 */
export function verifyDelivery(secret: string, r: Received): unknown {
  const headers: Record<string, string> = {};
  for (const name of ['webhook-id', 'webhook-timestamp', 'webhook-signature'])
    headers[name] = String(r.headers[name] ?? '');
  return new Webhook(secret).verify(r.body, headers);
}
