/**
 * A small fetch wrapper for host tests: JSON in, parsed body out, headers kept.
 * @module
 */

/** A response with its parsed body (JSON when the type says so, else text). */
export interface Res {
  status: number;
  headers: Headers;
  body: any;
  text: string;
}

/** Request options. */
export interface ReqOptions {
  /** App session token or API key, sent as Bearer. */
  token?: string;
  /** JSON-encoded unless a string. */
  body?: unknown;
  headers?: Record<string, string>;
}

/** Sends a request to `base + path`. */
export async function req(
  base: string,
  method: string,
  path: string,
  options: ReqOptions = {},
): Promise<Res> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  let body: string | undefined;
  if (options.body !== undefined) {
    body = typeof options.body === 'string' ? options.body : JSON.stringify(options.body);
    if (!Object.keys(headers).some((h) => h.toLowerCase() === 'content-type'))
      headers['content-type'] = 'application/json';
  }
  const res = await fetch(base + path, {
    method,
    headers,
    ...(body !== undefined ? { body } : {}),
  });
  const text = await res.text();
  const type = res.headers.get('content-type') ?? '';
  let parsed: unknown = text;
  if (/json/.test(type) && text !== '') parsed = JSON.parse(text);
  return { status: res.status, headers: res.headers, body: parsed, text };
}

/** Asserts nothing; returns the problem fields tests usually compare. */
export function problemOf(res: Res): { status: number; code: string } {
  return { status: res.status, code: (res.body as { code?: string })?.code ?? '(no code)' };
}
