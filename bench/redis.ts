/**
 * A throwaway Redis on loopback for the BullMQ comparison: installs redis-server from the
 * distribution's packages when absent (apt-get, needs root), starts it on a free port with
 * persistence off, and stops it by its pid.
 * @module
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { createServer, connect } from 'node:net';

function hasRedis(): boolean {
  try {
    execFileSync('redis-server', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** Installs redis-server with apt-get when it is missing. Returns false when it cannot. */
export function ensureRedisInstalled(log: (s: string) => void = console.error): boolean {
  if (hasRedis()) return true;
  log('bench: redis-server not found; installing it with apt-get (Debian package redis-server)…');
  try {
    execFileSync('apt-get', ['install', '-y', '--no-install-recommends', 'redis-server'], {
      stdio: 'ignore',
      env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
    });
  } catch {
    try {
      execFileSync('apt-get', ['update'], { stdio: 'ignore' });
      execFileSync('apt-get', ['install', '-y', '--no-install-recommends', 'redis-server'], {
        stdio: 'ignore',
        env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
      });
    } catch (err) {
      log(`bench: could not install redis-server: ${(err as Error).message}`);
      return false;
    }
  }
  return hasRedis();
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

/** A running Redis. */
export interface RedisServer {
  port: number;
  pid: number;
  stop(): Promise<void>;
}

/** Starts redis-server on a free loopback port, persistence off; resolves once it accepts connections. */
export async function startRedis(): Promise<RedisServer> {
  const port = await freePort();
  const child: ChildProcess = spawn(
    'redis-server',
    [
      '--port',
      String(port),
      '--bind',
      '127.0.0.1',
      '--save',
      '',
      '--appendonly',
      'no',
      '--maxmemory-policy',
      'noeviction',
      '--loglevel',
      'warning',
    ],
    { stdio: 'ignore' },
  );
  const pid = child.pid!;
  for (let i = 0; i < 100; i++) {
    const ok = await new Promise<boolean>((resolve) => {
      const c = connect(port, '127.0.0.1', () => {
        c.end();
        resolve(true);
      });
      c.once('error', () => resolve(false));
    });
    if (ok) break;
    await new Promise((r) => setTimeout(r, 50));
  }
  return {
    port,
    pid,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        process.kill(pid, 'SIGTERM');
      }),
  };
}
