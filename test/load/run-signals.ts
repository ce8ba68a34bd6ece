/**
 * Signs of requests lost on the way during a load run, for its RESULT line: connections the
 * kernel dropped because an accept queue was full, and requests the hosts could not read.
 * @module
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** The kernel's count of connections dropped because an accept queue was full (Linux), or null. */
export function listenOverflows(): number | null {
  try {
    const lines = readFileSync('/proc/net/netstat', 'utf8')
      .split('\n')
      .filter((l) => l.startsWith('TcpExt:'));
    const names = lines[0]!.split(/\s+/);
    const values = lines[1]!.split(/\s+/);
    const i = names.indexOf('ListenOverflows');
    return i < 0 ? null : Number(values[i]);
  } catch {
    return null;
  }
}

/** Counts the hosts' `request not read` warnings (host/server.ts) in the logs `host-<hostCount>-*` of `dir`, by code. */
export function unreadRequests(dir: string, hostCount: number): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const file of readdirSync(dir).filter((f) => f.startsWith(`host-${hostCount}-`))) {
    for (const line of readFileSync(join(dir, file), 'utf8').split('\n')) {
      if (!line.includes('request not read')) continue;
      let code = 'unparsed'; // a line cut by kill -9
      try {
        code = (JSON.parse(line) as { error_code?: string }).error_code ?? 'unknown';
      } catch {
        // counted as unparsed
      }
      counts[code] = (counts[code] ?? 0) + 1;
    }
  }
  return counts;
}

/** Lines of the logs `host-<hostCount>-*` of `dir` that contain `text` (e.g. `runtime effect failed`: a placement the provider refused or cut). */
export function hostLogLines(dir: string, hostCount: number, text: string): number {
  let n = 0;
  for (const file of readdirSync(dir).filter((f) => f.startsWith(`host-${hostCount}-`)))
    for (const line of readFileSync(join(dir, file), 'utf8').split('\n'))
      if (line.includes(text)) n++;
  return n;
}
