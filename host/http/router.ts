/**
 * The route table: path templates (`/api/v1/api-keys/{key_id}`) by method, matched before
 * anything else runs, so that an unknown path is 404 not_found and a known path with another
 * method is 405 method_not_allowed with `Allow`, without touching auth or handlers.
 *
 * A small matcher of our own rather than @koa/router: the 404/405 decision needs the full
 * list of methods per path up front, templates come straight from the OpenAPI paths, and
 * HEAD is answered by the GET route (Koa drops the body).
 * @module
 */
import type { AppContext } from './context.js';

/** A registered route. */
export interface Route {
  method: string;
  /** Full path template, e.g. `/api/v1/api-keys/{key_id}`. */
  template: string;
  /** Runs the route; params are decoded. */
  run(ctx: AppContext, params: Record<string, string>): Promise<void>;
}

/** Outcome of {@link RouteTable.match}. */
export type RouteMatch =
  | { kind: 'route'; route: Route; params: Record<string, string> }
  | { kind: 'method_not_allowed'; allow: string[] }
  | { kind: 'not_found' };

type Segment = { literal: string } | { param: string };

interface Entry {
  route: Route;
  segments: Segment[];
  literals: number;
}

const METHOD_ORDER = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];

/** Routes by method and template. */
export class RouteTable {
  private readonly entries: Entry[] = [];

  /** Adds a route; a second route for the same method and template is a programming error. */
  add(route: Route): void {
    const segments = parseTemplate(route.template);
    const shape = segments.map((s) => ('literal' in s ? s.literal : '{}')).join('/');
    for (const e of this.entries) {
      const other = e.segments.map((s) => ('literal' in s ? s.literal : '{}')).join('/');
      if (other === shape && e.route.method === route.method) {
        throw new Error(`RouteTable: ${route.method} ${route.template} is registered twice`);
      }
    }
    this.entries.push({ route, segments, literals: segments.filter((s) => 'literal' in s).length });
  }

  /** Every registered route (for docs and tests). */
  list(): Route[] {
    return this.entries.map((e) => e.route);
  }

  /**
   * Matches a request. HEAD uses the GET route. When several templates match, the one with
   * the most literal segments wins (`/schedules/preview` before `/schedules/{schedule_id}`).
   */
  match(method: string, path: string): RouteMatch {
    const parts = path.split('/');
    const wanted = method === 'HEAD' ? 'GET' : method;
    const methods = new Set<string>();
    let best: { entry: Entry; params: Record<string, string> } | undefined;
    for (const entry of this.entries) {
      const params = matchSegments(entry.segments, parts);
      if (!params) continue;
      methods.add(entry.route.method);
      if (entry.route.method === wanted && (!best || entry.literals > best.entry.literals)) best = { entry, params };
    }
    if (best) return { kind: 'route', route: best.entry.route, params: best.params };
    if (methods.size === 0) return { kind: 'not_found' };
    if (methods.has('GET')) methods.add('HEAD');
    return { kind: 'method_not_allowed', allow: [...methods].sort((a, b) => rank(a) - rank(b)) };
  }
}

function rank(method: string): number {
  const i = METHOD_ORDER.indexOf(method);
  return i < 0 ? METHOD_ORDER.length : i;
}

function parseTemplate(template: string): Segment[] {
  if (!template.startsWith('/')) throw new Error(`RouteTable: template must start with /: ${template}`);
  return template.split('/').map((s) => {
    const m = /^\{([A-Za-z0-9_]+)\}$/.exec(s);
    return m ? { param: m[1]! } : { literal: s };
  });
}

/** Decoded params when `parts` fits the template, else null (also for undecodable params). */
function matchSegments(segments: Segment[], parts: string[]): Record<string, string> | null {
  if (segments.length !== parts.length) return null;
  const params: Record<string, string> = {};
  for (let i = 0; i < segments.length; i++) {
    const seg = segments[i]!;
    const part = parts[i]!;
    if ('literal' in seg) {
      if (seg.literal !== part) return null;
    } else {
      if (part === '') return null;
      try {
        params[seg.param] = decodeURIComponent(part);
      } catch {
        return null;
      }
    }
  }
  return params;
}
