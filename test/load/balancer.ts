/**
 * The round-robin HTTP proxy of the load harness: the provider's webhooks reach whichever live
 * host it picks, as behind a load balancer, and a refused connection (a host just killed) is
 * sent to the next one. Its counts ({@link ProxyStats}) say what it retried and answered 502.
 * @module
 */
import {
  Agent,
  createServer,
  request,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import type { Socket } from 'node:net';

/** What a balancer saw: requests sent again to the next host, and 502s it gave. */
export interface ProxyStats {
  retried: number;
  /** Why a forward failed and was sent again, by error code (ECONNREFUSED: a host down). */
  retriedBy: Record<string, number>;
  badGateway: number;
  failedMidAnswer: number;
  clientErrors: Record<string, number>;
}

/** Counts at zero (one object may be shared by the balancers of several runs, to count them all). */
export function newProxyStats(): ProxyStats {
  return { retried: 0, retriedBy: {}, badGateway: 0, failedMidAnswer: 0, clientErrors: {} };
}

/** A copy of the counts as they are now. */
export function snapshotProxyStats(s: ProxyStats): ProxyStats {
  return { ...s, retriedBy: { ...s.retriedBy }, clientErrors: { ...s.clientErrors } };
}

/** A round-robin HTTP proxy over the live hosts `hosts()` lists, counting into `stats`. Not listening yet. */
export function balancer(hosts: () => readonly { url: string }[], stats: ProxyStats): Server {
  let next = 0;
  // A bounded pool per host, as load balancers keep (HAProxy's maxconn per server): past it,
  // requests wait here rather than open ever more connections while the hosts are busy.
  const upstream = new Agent({ keepAlive: true, maxSockets: 128 });
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const forward = (tries: number) => {
        const live = hosts();
        if (live.length === 0 || tries > 6) {
          stats.badGateway++;
          res.writeHead(502).end();
          return;
        }
        const target = new URL(live[next++ % live.length]!.url);
        const out = request(
          {
            host: target.hostname,
            port: target.port,
            method: req.method,
            path: req.url,
            headers: req.headers,
            agent: upstream,
          },
          (answer) => {
            res.writeHead(answer.statusCode ?? 502, answer.headers);
            answer.pipe(res);
          },
        );
        // A host that just died refuses the connection: the balancer tries the next one (unless
        // its answer had begun: then the request cannot be sent again).
        out.on('error', (err: NodeJS.ErrnoException) => {
          if (res.headersSent) {
            stats.failedMidAnswer++;
            res.destroy();
            return;
          }
          stats.retried++;
          const code = err.code ?? 'unknown';
          stats.retriedBy[code] = (stats.retriedBy[code] ?? 0) + 1;
          forward(tries + 1);
        });
        out.end(body);
      };
      forward(0);
    });
  });
  // The provider's HTTP client keeps idle connections open a few seconds (undici: 4 s). A
  // balancer that closes them sooner or at the same moment (Node's default: 5 s) races it: a
  // webhook sent on a connection being closed fails, and the provider treats that as a failed
  // answer (the call hangs up). Load balancers in front of webhooks keep idle connections
  // longer than their clients do; so does this one (the hosts too: host/server.ts).
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;
  server.on('close', () => upstream.destroy());
  // Counted (a 408 the provider sees may come from here): a timeout on a connection not yet
  // answered gets Node's 408, anything else is closed.
  server.on('clientError', (err: NodeJS.ErrnoException, socket) => {
    const code = err.code ?? 'unknown';
    stats.clientErrors[code] = (stats.clientErrors[code] ?? 0) + 1;
    if (
      code === 'ERR_HTTP_REQUEST_TIMEOUT' &&
      socket.writable &&
      (socket as Socket).bytesWritten === 0
    ) {
      socket.write('HTTP/1.1 408 Request Timeout\r\nConnection: close\r\n\r\n');
    }
    socket.destroy();
  });
  return server;
}
