/* global process, console, URL */
/**
 * `npm run check:arch`: runs dependency-cruiser with `.dependency-cruiser.cjs` over engine/,
 * host/, schema/ and examples/ and prints each rule broken (as `depcruise --output-type err`
 * does), then checks what dependency-cruiser cannot express: that the folders of host/ import
 * each other without a cycle. A unit of that graph is a folder directly under host/ (host/db/,
 * host/adapters/, ...) or a file at its root (host/compose.ts); an import from one unit to
 * another is an arrow. A cycle is printed with one import that makes each of its arrows.
 *
 *   node scripts/check-layers.mjs                  the check (exit 1 on a violation or a cycle)
 *   node scripts/check-layers.mjs --graph          also prints the folder graph, floor by floor
 *   node scripts/check-layers.mjs --json <file>    reads a saved `depcruise --output-type json` result
 *                                                  (e.g. of an older commit) instead of cruising
 * @module
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { format } from 'dependency-cruiser';

const root = fileURLToPath(new URL('..', import.meta.url));
const args = process.argv.slice(2);
const jsonFile = args.includes('--json') ? args[args.indexOf('--json') + 1] : null;
/** The floors of host/, from the ground up (.dependency-cruiser.cjs). */
const floors = createRequire(import.meta.url)('../.dependency-cruiser.cjs').floors;

/** The cruise result: the modules of engine/, host/, schema/ and examples/ and the rules they break. */
function cruise() {
  if (jsonFile) return JSON.parse(readFileSync(jsonFile, 'utf8'));
  const pkg = new URL('../../', import.meta.resolve('dependency-cruiser'));
  const bin = fileURLToPath(
    new URL(JSON.parse(readFileSync(new URL('package.json', pkg), 'utf8')).bin.depcruise, pkg),
  );
  const out = execFileSync(
    process.execPath,
    [
      bin,
      'engine',
      'host',
      'schema',
      'examples',
      '--config',
      '.dependency-cruiser.cjs',
      '--output-type',
      'json',
    ],
    { cwd: root, maxBuffer: 1 << 30, encoding: 'utf8' },
  );
  return JSON.parse(out);
}

/** The unit of host/ a module belongs to (`db/`, `compose.ts`), or null outside host/. */
function unitOf(path) {
  if (!path?.startsWith('host/')) return null;
  const rest = path.slice('host/'.length);
  const slash = rest.indexOf('/');
  return slash < 0 ? rest : rest.slice(0, slash + 1);
}

/** The folder graph: unit → unit → the first import (from → to) that makes the arrow. */
function folderGraph(modules) {
  const graph = new Map();
  for (const m of modules) {
    const from = unitOf(m.source);
    if (from === null) continue;
    if (!graph.has(from)) graph.set(from, new Map());
    for (const d of m.dependencies) {
      const to = unitOf(d.resolved);
      if (to === null || to === from) continue;
      if (!graph.has(to)) graph.set(to, new Map());
      if (!graph.get(from).has(to)) graph.get(from).set(to, `${m.source} → ${d.resolved}`);
    }
  }
  return graph;
}

/** Strongly connected components of more than one unit (Tarjan). */
function cycles(graph) {
  const index = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const found = [];
  let next = 0;
  const visit = (v) => {
    index.set(v, next);
    low.set(v, next);
    next++;
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v).keys()) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v), low.get(w)));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v), index.get(w)));
    }
    if (low.get(v) === index.get(v)) {
      const component = [];
      let w;
      do {
        w = stack.pop();
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1) found.push(component.sort());
    }
  };
  for (const v of [...graph.keys()].sort()) if (!index.has(v)) visit(v);
  return found;
}

/** One cycle through `start` inside `component` (breadth first: a shortest one). */
function cycleThrough(graph, component, start) {
  const inside = new Set(component);
  const previous = new Map([[start, null]]);
  const queue = [start];
  while (queue.length > 0) {
    const v = queue.shift();
    for (const w of graph.get(v).keys()) {
      if (!inside.has(w)) continue;
      if (w === start) {
        const path = [v];
        for (let p = previous.get(v); p !== null; p = previous.get(p)) path.unshift(p);
        return [...path, start];
      }
      if (!previous.has(w)) {
        previous.set(w, v);
        queue.push(w);
      }
    }
  }
  return [start];
}

const result = cruise();
const report = await format(result, { outputType: 'err' });
process.stdout.write(report.output);
let failed = result.summary.error > 0;

const graph = folderGraph(result.modules);
if (args.includes('--graph')) {
  const placed = new Set();
  const line = (unit) =>
    `    ${unit.padEnd(16)} → ${[...(graph.get(unit)?.keys() ?? [])].sort().join(' ') || '(nothing in host/)'}`;
  console.log('The folders of host/ and what each imports, floor by floor from the ground up:');
  floors.forEach((floor) => {
    console.log(`  ${floor.id}. ${floor.name}`);
    for (const unit of floor.units) {
      placed.add(unit);
      if (graph.has(unit)) console.log(line(unit));
    }
  });
  const rest = [...graph.keys()].filter((u) => !placed.has(u)).sort();
  if (rest.length > 0) {
    console.log('  on no floor');
    for (const unit of rest) console.log(line(unit));
  }
  const arrows = [...graph.values()].reduce((n, targets) => n + targets.size, 0);
  console.log(`  ${graph.size} folders and root files, ${arrows} arrows between them.\n`);
}

for (const component of cycles(graph)) {
  failed = true;
  const path = cycleThrough(graph, component, component[0]);
  console.log(
    `  error folder-cycle: the folders of host/ ${component.join(', ')} reach each other; one cycle:`,
  );
  for (let i = 0; i + 1 < path.length; i++)
    console.log(`    ${path[i]} → ${path[i + 1]}   (${graph.get(path[i]).get(path[i + 1])})`);
}
if (failed) {
  console.log(
    '\nx npm run check:arch failed (the layers are in .dependency-cruiser.cjs and docs/decisions/0022-host-layering.md).',
  );
  process.exit(1);
}
console.log(`✔ no cycle between the ${graph.size} folders and root files of host/`);
