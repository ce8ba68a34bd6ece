/**
 * Request bodies: JSON only, size-capped, read by the operation pipeline for operations that
 * declare a request body (others never read theirs).
 *
 * - A body that is not `application/json` (or `application/<x>+json`; charset utf-8 if
 *   given) gives 415 unsupported_media_type. This check is ours: koa-body skips a body it
 *   does not recognise instead of refusing it.
 * - A body over the limit (WAKEUP_MAX_BODY_BYTES, 1 MiB) gives 413 payload_too_large, from
 *   Content-Length before reading when it is declared (koa-body's `jsonLimit`).
 * - Bytes that are not UTF-8 or not JSON give 400 validation_error with one item
 *   `{field: '', in: 'body', code: 'invalid'}`.
 *
 * Reading and parsing are koa-body's (co-body, raw-body), JSON only. Two settings keep the
 * behaviour the API documents: `jsonStrict` is off, so a body such as `42` or `"text"` is
 * parsed and then refused by the schema with a precise error (strict mode would call it
 * malformed); and since raw-body decodes with replacement characters, the bytes are checked
 * for UTF-8 as they stream past (the bytes on the wire, so a gzip or deflate body, which
 * co-body would inflate, is still refused as not UTF-8, as it was before koa-body).
 * @module
 */
import { TextDecoder } from 'node:util';
import { HttpMethodEnum, koaBody } from 'koa-body';
import type { Middleware } from 'koa';
import type { AppContext } from './context.js';
import { invalid, problem } from '../errors.js';

/** A read body: `present` false when the request carried none. */
export type JsonBody = { present: false } | { present: true; value: unknown };

const JSON_TYPE = /^application\/(?:[\w.+-]+\+)?json$/i;

/** One koa-body middleware per limit (its options are validated when it is built). */
const parsers = new Map<number, Middleware>();

function parser(maxBytes: number): Middleware {
  let p = parsers.get(maxBytes);
  if (!p) {
    p = koaBody({
      json: true,
      jsonLimit: maxBytes,
      jsonStrict: false,
      // Our content-type check has already run; these only have to let its answers through.
      jsonTypes: ['application/json', 'application/*+json'],
      urlencoded: false,
      text: false,
      multipart: false,
      includeUnparsed: true,
      // The schema decides which operations take a body, whatever the method.
      parsedMethods: Object.values(HttpMethodEnum),
    });
    parsers.set(maxBytes, p);
  }
  return p;
}

/** Whether the request declares a body at all. */
function hasBody(ctx: AppContext): boolean {
  const te = ctx.get('Transfer-Encoding');
  const cl = ctx.get('Content-Length');
  return te !== '' || (cl !== '' && cl !== '0');
}

/** Reads and parses the JSON body, or throws the problem described in the module header. */
export async function readJsonBody(ctx: AppContext, maxBytes: number): Promise<JsonBody> {
  if (!hasBody(ctx)) return { present: false };
  const [mediaType = '', ...params] = ctx
    .get('Content-Type')
    .split(';')
    .map((s) => s.trim());
  const charset = params
    .find((p) => /^charset=/i.test(p))
    ?.slice(8)
    .replace(/"/g, '')
    .toLowerCase();
  if (!JSON_TYPE.test(mediaType) || (charset !== undefined && charset !== 'utf-8' && charset !== 'utf8')) {
    throw problem('unsupported_media_type', {
      detail: `Send the body as application/json (got ${mediaType ? JSON.stringify(mediaType) : 'no Content-Type'}).`,
    });
  }

  // Attached before koa-body's reader in the same tick, so it sees every chunk that does.
  const utf8 = new TextDecoder('utf-8', { fatal: true });
  let badUtf8 = false;
  const onData = (chunk: Buffer) => {
    if (badUtf8) return;
    try {
      utf8.decode(chunk, { stream: true });
    } catch {
      badUtf8 = true;
    }
  };
  const req = ctx.req;
  req.on('data', onData);
  let raw: string;
  try {
    await parser(maxBytes)(ctx, async () => {});
    raw = typeof ctx.request.rawBody === 'string' ? ctx.request.rawBody : '';
  } catch (err) {
    const e = err as { status?: number; body?: unknown; message?: string };
    if (e.status === 413) throw tooLarge(ctx, maxBytes);
    // co-body inflates gzip/deflate itself but refuses other Content-Encodings with 415.
    if (e.status === 415)
      throw problem('unsupported_media_type', { detail: `Content-Encoding ${ctx.get('Content-Encoding')} is not supported.` });
    if (badUtf8 || !endsUtf8(utf8)) throw notUtf8();
    if (e.status === 400 && typeof e.body === 'string' && e.body.trim() === '') return { present: false };
    if (e.status === 400) {
      throw invalid({ field: '', in: 'body', code: 'invalid', message: `body is not valid JSON (${e.message ?? 'parse error'})` });
    }
    throw err;
  } finally {
    req.off('data', onData);
  }
  if (badUtf8 || !endsUtf8(utf8)) throw notUtf8();
  if (raw.trim() === '') return { present: false };
  return { present: true, value: ctx.request.body as unknown };
}

/** Whether the streamed bytes did not stop inside a character. */
function endsUtf8(decoder: TextDecoder): boolean {
  try {
    decoder.decode();
    return true;
  } catch {
    return false;
  }
}

function notUtf8() {
  return invalid({ field: '', in: 'body', code: 'invalid', message: 'body is not valid UTF-8' });
}

function tooLarge(ctx: AppContext, maxBytes: number) {
  // The rest of the body is not read; close the connection after answering.
  ctx.set('Connection', 'close');
  ctx.req.resume();
  return problem('payload_too_large', { detail: `The body is larger than ${maxBytes} bytes.` });
}
