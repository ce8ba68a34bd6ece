/**
 * The CPU profile summary `npm run bench:http -- --profile` prints: self time of the service
 * by package or folder and by function, from the newest `.cpuprofile` in a folder.
 * @module
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** Prints self time by package and by function of the newest profile in `profDir`. */
export function summarizeProfile(profDir: string, root: string): void {
  const files = readdirSync(profDir)
    .filter((f) => f.endsWith('.cpuprofile'))
    .sort();
  const file = join(profDir, files[files.length - 1]!);
  const prof = JSON.parse(readFileSync(file, 'utf8')) as {
    nodes: Array<{
      id: number;
      callFrame: { functionName: string; url: string; lineNumber: number };
    }>;
    samples: number[];
    timeDeltas: number[];
  };
  const byId = new Map(prof.nodes.map((n) => [n.id, n]));
  const self = new Map<number, number>();
  prof.samples.forEach((id, i) => self.set(id, (self.get(id) ?? 0) + (prof.timeDeltas[i] ?? 0)));
  const fn = new Map<string, number>();
  const pkg = new Map<string, number>();
  let total = 0;
  for (const [id, us] of self) {
    const { functionName, url, lineNumber } = byId.get(id)!.callFrame;
    // Idle time is not the service's work: leave it out of the shares.
    if (functionName === '(idle)') continue;
    total += us;
    const where = url.replace(/^file:\/\//, '').replace(root, '');
    const group =
      /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(where)?.[1] ??
      (where.startsWith('dist/')
        ? where.split('/').slice(0, 3).join('/')
        : where.startsWith('node:')
          ? 'node internals'
          : where || `(${functionName || 'native'})`);
    const key = `${functionName || '(anonymous)'} ${where ? `${where}:${lineNumber + 1}` : ''}`;
    fn.set(key, (fn.get(key) ?? 0) + us);
    pkg.set(group, (pkg.get(group) ?? 0) + us);
  }
  const top = (m: Map<string, number>, n: number) =>
    [...m.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, n)
      .map(([k, us]) => `  ${((100 * us) / total).toFixed(1).padStart(5)}%  ${k}`);
  console.log(
    `\nCPU profile of the service (${file}), busy time only: self time by package or folder`,
  );
  console.log(top(pkg, 20).join('\n'));
  console.log('\nby function');
  console.log(top(fn, 30).join('\n'));
}
