// The only module that talks to the server: the public JSON API under /api/v1 with the web
// session (cookie sessionid, set by sign-in; cookie csrftoken echoed in X-CSRFToken on every
// unsafe request). Errors come back as ApiError carrying the problem's code, detail and field.

export const BASE = '/api/v1';

/** A problem+json answer (RFC 9457), or a network failure (status 0). */
export class ApiError extends Error {
  constructor(status, problem) {
    super(problem.detail || problem.title || `HTTP ${status}`);
    this.status = status;
    this.code = problem.code || (status === 0 ? 'network_error' : 'http_error');
    this.detail = problem.detail || problem.title || `The server answered ${status}.`;
    this.field = problem.field || null;
    this.errors = Array.isArray(problem.errors) ? problem.errors : [];
    this.retryAfter = null;
  }
}

function cookie(name) {
  for (const part of document.cookie.split(';')) {
    const [k, ...v] = part.trim().split('=');
    if (k === name) return decodeURIComponent(v.join('='));
  }
  return null;
}

/** A random UUID (also where crypto.randomUUID is missing: plain http on a LAN address). */
export function uuid() {
  if (crypto.randomUUID) return crypto.randomUUID();
  const b = crypto.getRandomValues(new Uint8Array(16));
  b[6] = (b[6] & 0x0f) | 0x40;
  b[8] = (b[8] & 0x3f) | 0x80;
  const h = [...b].map((x) => x.toString(16).padStart(2, '0')).join('');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

let onUnauthenticated = () => {};
/** Called when a request answers 401 (session ended): the app shows sign-in. */
export function setUnauthenticatedHandler(fn) {
  onUnauthenticated = fn;
}

/**
 * Sends one request. `path` is under /api/v1 unless it starts with `/dev/` (site root).
 * Options: `idem: true` adds a fresh Idempotency-Key (so a double click cannot create twice
 * only when the caller reuses the key: pass `idem: '<key>'` to do that); `raw: true` returns the
 * Response.
 */
export async function api(method, path, body, opts = {}) {
  const url = path.startsWith('/dev/') ? path : BASE + path;
  const headers = { accept: 'application/json' };
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (method !== 'GET' && method !== 'HEAD') {
    const csrf = cookie('csrftoken');
    if (csrf) headers['x-csrftoken'] = csrf;
  }
  if (opts.idem) headers['idempotency-key'] = opts.idem === true ? uuid() : opts.idem;
  let res;
  try {
    res = await fetch(url, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      credentials: 'same-origin',
    });
  } catch {
    throw new ApiError(0, {
      detail: 'The server could not be reached. Check that it is running, then try again.',
    });
  }
  if (opts.raw && res.ok) return res;
  if (res.status === 204 || res.status === 304) return null;
  const type = res.headers.get('content-type') || '';
  const data = type.includes('json')
    ? await res.json().catch(() => ({}))
    : { detail: await res.text() };
  if (!res.ok) {
    const err = new ApiError(res.status, data || {});
    const ra = res.headers.get('retry-after');
    if (ra) err.retryAfter = Number(ra);
    if (res.status === 401 && !opts.quiet401) onUnauthenticated(err);
    throw err;
  }
  return data;
}

export const get = (path, opts) => api('GET', path, undefined, opts);
export const post = (path, body, opts) => api('POST', path, body, opts);
export const patch = (path, body, opts) => api('PATCH', path, body, opts);
export const del = (path, opts) => api('DELETE', path, undefined, opts);
