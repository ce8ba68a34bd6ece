/**
 * Child processes of the load harness: the real server entry (`dist/host/main.js` after
 * `npm run build`, or `host/main.ts` through tsx) with its environment, readiness by
 * `GET /readyz`, kill -9, and the small helpers around them. Reused by every load test that
 * starts servers (the crash loop; several hosts on one database later).
 * @module
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { openSync, closeSync, readFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';

/** The repository root. */
export const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** A free loopback port (bound, read, released). */
export async function freePort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
  const { port } = s.address() as AddressInfo;
  await new Promise<void>((resolve) => s.close(() => resolve()));
  return port;
}

/** Resolves with the first line of the child's stdout that `match` accepts. */
export function readLine(
  child: ChildProcess,
  match: (line: string) => boolean,
  timeoutMs: number,
): Promise<string> {
  return new Promise((resolve, reject) => {
    let buffer = '';
    const done = (err: Error | null, line?: string) => {
      clearTimeout(timer);
      child.stdout?.off('data', onData);
      child.off('exit', onExit);
      if (err) reject(err);
      else resolve(line!);
    };
    const onData = (chunk: Buffer) => {
      buffer += chunk.toString('utf8');
      for (let i = buffer.indexOf('\n'); i >= 0; i = buffer.indexOf('\n')) {
        const line = buffer.slice(0, i);
        buffer = buffer.slice(i + 1);
        if (match(line)) return done(null, line);
      }
    };
    const onExit = (code: number | null) =>
      done(new Error(`process exited (${code}) before the expected line`));
    const timer = setTimeout(
      () => done(new Error(`no expected line within ${timeoutMs} ms`)),
      timeoutMs,
    );
    child.stdout?.on('data', onData);
    child.once('exit', onExit);
  });
}

/**
 * CPU time (user + system, ms) the process `pid` used so far, from /proc (Linux; 10 ms
 * steps); null elsewhere or once it is gone. Readiness in CPU time does not depend on how
 * busy the machine's other processes keep the cores, which wall-clock readiness does.
 */
export function cpuMs(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // Fields 14 and 15 of stat (utime, stime), in clock ticks (USER_HZ, 100 on Linux).
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return null;
  }
}

/** Compiles the server to dist/ (`npm run build`, incremental). */
export function buildDist(): void {
  execFileSync('npm', ['run', 'build', '--silent'], { cwd: ROOT, stdio: 'inherit' });
}

/**
 * The server entry a harness spawns: `bundle` is production's (`node dist/server.cjs`, one
 * file, what `npm start` runs); `dist` the compiled modules (`node dist/host/main.js`); both
 * need {@link buildDist} first. `tsx` runs host/main.ts from source.
 */
export type ServerEntry = 'bundle' | 'dist' | 'tsx';

const ENTRY_ARGS: Record<ServerEntry, string[]> = {
  bundle: ['dist/server.cjs'],
  dist: ['dist/host/main.js'],
  tsx: ['--import', 'tsx', 'host/main.ts'],
};

/** Options of {@link spawnServer}. */
export interface ServerProcessOptions {
  /** Listen port (fixed across restarts, so that the provider's webhooks reach the next process). */
  port: number;
  /** Environment on top of a minimal base (PATH, HOME); HOST and PORT are set from `port`. */
  env: Record<string, string>;
  /** Which entry runs (see {@link ServerEntry}). @defaultValue 'bundle' */
  entry?: ServerEntry;
  /** File that receives the server's stdout and stderr (appended); discarded when absent. */
  logFile?: string;
  /** Extra node options before the entry (e.g. `--cpu-prof`). */
  nodeArgs?: string[];
}

/** A server process. */
export interface ServerProcess {
  url: string;
  child: ChildProcess;
  pid: number;
  /** performance.now() at spawn. */
  spawnedAt: number;
  /** Resolves with the ms from spawn to the first 200 of GET /readyz; rejects after `timeoutMs` or if the process exits. */
  waitReady(timeoutMs?: number): Promise<number>;
  /** SIGKILL; resolves once the process is gone. */
  kill9(): Promise<void>;
  /** SIGTERM (graceful shutdown); resolves with the exit code. */
  stop(): Promise<number | null>;
  /** Resolves with the exit code when the process is gone. */
  exited: Promise<number | null>;
}

/** Spawns the production entry. */
export function spawnServer(options: ServerProcessOptions): ServerProcess {
  const args = [...(options.nodeArgs ?? []), ...ENTRY_ARGS[options.entry ?? 'bundle']];
  const out = options.logFile ? openSync(options.logFile, 'a') : 'ignore';
  const env = {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? '',
    ...options.env,
    HOST: '127.0.0.1',
    PORT: String(options.port),
  };
  const spawnedAt = performance.now();
  const child = spawn(process.execPath, args, { cwd: ROOT, env, stdio: ['ignore', out, out] });
  if (typeof out === 'number') closeSync(out);
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (code) => resolve(code)),
  );
  const url = `http://127.0.0.1:${options.port}`;
  let gone = false;
  void exited.then(() => (gone = true));

  return {
    url,
    child,
    pid: child.pid!,
    spawnedAt,
    exited,
    async waitReady(timeoutMs = 60_000) {
      const deadline = spawnedAt + timeoutMs;
      for (;;) {
        if (gone) throw new Error(`server exited (code ${child.exitCode}) before it was ready`);
        try {
          // A refused connection fails at once; a listening server gets until the deadline to
          // answer (an overloaded one answers late, and that lateness is its recovery time).
          // (AbortSignal.timeout throws on a fractional delay: round it.)
          const r = await fetch(`${url}/readyz`, {
            signal: AbortSignal.timeout(Math.max(100, Math.ceil(deadline - performance.now()))),
          });
          await r.arrayBuffer();
          if (r.status === 200) return performance.now() - spawnedAt;
        } catch {
          // Not listening yet.
        }
        if (performance.now() > deadline)
          throw new Error(`server not ready within ${timeoutMs} ms`);
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
    },
    async kill9() {
      if (!gone) child.kill('SIGKILL');
      await exited;
    },
    async stop() {
      if (!gone) child.kill('SIGTERM');
      return exited;
    },
  };
}
