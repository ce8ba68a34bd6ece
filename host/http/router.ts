/**
 * The route table: path templates (`/api/v1/api-keys/{key_id}`) by method, matched before
 * anything else runs, so that an unknown path is 404 not_found and a known path with another
 * method is 405 method_not_allowed with `Allow`, without touching auth or handlers.
 *
 * Template matching is @koa/router's (path-to-regexp): each OpenAPI template becomes a
 * `:param` path on one router built with `strict` (a trailing slash does not match) and
 * `sensitive` (case matters). We only ask the router which layers match (`router.match`), and
 * keep three decisions here because the router's own dispatch does not make them the way the
 * contract wants: the 404/405 split with `Allow` in a fixed method order, "most literal
 * segments wins" (`/schedules/preview` before `/schedules/{schedule_id}`), and a param that
 * is not valid percent-encoding making the template not match (the router would pass it on
 * undecoded). HEAD is answered by the GET route (the router adds HEAD to GET layers; Koa
 * drops the body).
 * @module
 */
import Router from '@koa/router';
import type { Layer } from '@koa/router';
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

interface Entry {
  route: Route;
  /** The template with every param written `{}`, to find duplicates. */
  shape: string;
  literals: number;
}

const METHOD_ORDER = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];

/** Characters path-to-regexp v8 gives a meaning to, escaped in literal segments. */
const PATH_SYNTAX = /[{}()[\]+?!*:\\]/g;

/** Routes by method and template. */
export class RouteTable {
  // Only used for matching: its layers carry no middleware of ours worth running.
  private readonly router = new Router({ strict: true, sensitive: true });
  private readonly entries = new Map<Layer, Entry>();

  /** Adds a route; a second route for the same method and template is a programming error. */
  add(route: Route): void {
    const segments = parseTemplate(route.template);
    const shape = segments.map((s) => ('literal' in s ? s.literal : '{}')).join('/');
    for (const e of this.entries.values()) {
      if (e.shape === shape && e.route.method === route.method) {
        throw new Error(`RouteTable: ${route.method} ${route.template} is registered twice`);
      }
    }
    const path = segments
      .map((s) => ('literal' in s ? s.literal.replace(PATH_SYNTAX, '\\$&') : `:${s.param}`))
      .join('/');
    const layer = this.router.register(path, [route.method], noop);
    if (!isLayer(layer))
      throw new Error(`RouteTable: @koa/router did not return a layer for ${route.template}`);
    this.entries.set(layer, {
      route,
      shape,
      literals: segments.filter((s) => 'literal' in s).length,
    });
  }

  /** Every registered route (for docs and tests). */
  list(): Route[] {
    return [...this.entries.values()].map((e) => e.route);
  }

  /**
   * Matches a request. HEAD uses the GET route. When several templates match, the one with
   * the most literal segments wins (`/schedules/preview` before `/schedules/{schedule_id}`).
   */
  match(method: string, path: string): RouteMatch {
    const wanted = method === 'HEAD' ? 'GET' : method;
    const found = this.router.match(path, wanted);
    const hit = (layer: Layer) => {
      const entry = this.entries.get(layer);
      const params = entry && decodedParams(layer, path);
      return entry && params ? { entry, params } : undefined;
    };
    let best: { entry: Entry; params: Record<string, string> } | undefined;
    for (const layer of found.pathAndMethod) {
      const h = hit(layer);
      if (h && (!best || h.entry.literals > best.entry.literals)) best = h;
    }
    if (best) return { kind: 'route', route: best.entry.route, params: best.params };
    const methods = new Set<string>();
    for (const layer of found.path) {
      const h = hit(layer);
      if (h) methods.add(h.entry.route.method);
    }
    if (methods.size === 0) return { kind: 'not_found' };
    if (methods.has('GET')) methods.add('HEAD');
    return { kind: 'method_not_allowed', allow: [...methods].sort((a, b) => rank(a) - rank(b)) };
  }
}

async function noop(): Promise<void> {}

function isLayer(x: unknown): x is Layer {
  return typeof x === 'object' && x !== null && 'regexp' in x && 'paramNames' in x;
}

function rank(method: string): number {
  const i = METHOD_ORDER.indexOf(method);
  return i < 0 ? METHOD_ORDER.length : i;
}

type Segment = { literal: string } | { param: string };

function parseTemplate(template: string): Segment[] {
  if (!template.startsWith('/'))
    throw new Error(`RouteTable: template must start with /: ${template}`);
  return template.split('/').map((s) => {
    const m = /^\{([A-Za-z0-9_]+)\}$/.exec(s);
    return m ? { param: m[1]! } : { literal: s };
  });
}

/** The layer's params, decoded; null when one is not valid percent-encoding. */
function decodedParams(layer: Layer, path: string): Record<string, string> | null {
  const params: Record<string, string> = {};
  const captures = layer.captures(path);
  for (let i = 0; i < layer.paramNames.length; i++) {
    const value = captures[i];
    if (value === undefined || value === '') return null;
    try {
      params[layer.paramNames[i]!.name] = decodeURIComponent(value);
    } catch {
      return null;
    }
  }
  return params;
}
