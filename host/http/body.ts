/**
 * Request bodies: JSON only, size-capped, read by the operation pipeline for operations that
 * declare a request body (others never read theirs).
 *
 * - A body that is not `application/json` (or `application/<x>+json`; charset utf-8 if
 *   given) gives 415 unsupported_media_type. This check is ours: koa-body skips a body it
 *   does not recognise instead of refusing it.
 * - A body over the limit (WAKEUP_MAX_BODY_BYTES, 1 MiB) gives 413 payload_too_large, from
 *   Content-Length before reading when it is declared (checked here: co-body truncates the
 *   declared length to 32 bits, so `Content-Length: 1000000000000` reached raw-body as a
 *   negative number and the server waited for the body), else while reading; the connection
 *   is closed after the answer.
 * - A body slower than the minimum rate (./body-rate.ts) gives 408 request_timeout and the
 *   connection is closed.
 * - Bytes that are not UTF-8 or not JSON give 400 validation_error with one item
 *   `{field: '', in: 'body', code: 'invalid'}`.
 *
 * - Content-Encoding: `identity` (or none), `gzip`, `deflate` and `br` are accepted; any
 *   other gives 415 unsupported_media_type. A compressed body that does not decompress gives
 *   400 validation_error; one that decompresses past the limit gives 413 (a zip bomb stops
 *   there). The decompressed bytes must be UTF-8 JSON as above.
 * - JSON nested deeper than {@link MAX_JSON_DEPTH} arrays and objects gives 400
 *   validation_error, checked on the text before the value goes anywhere (clone, schema,
 *   idempotency fingerprint), so that no recursive walk downstream meets an unbounded depth.
 *
 * Reading and parsing of uncompressed bodies are koa-body's (co-body, raw-body), JSON only. Two settings keep the
 * behaviour the API documents: `jsonStrict` is off, so a body such as `42` or `"text"` is
 * parsed and then refused by the schema with a precise error (strict mode would call it
 * malformed); and since raw-body decodes with replacement characters, the bytes are checked
 * for UTF-8 as they stream past (the bytes on the wire, so a gzip or deflate body, which
 * co-body would inflate, is still refused as not UTF-8, as it was before koa-body).
 * @module
 */
import { TextDecoder } from 'node:util';
import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';
import { HttpMethodEnum, koaBody } from 'koa-body';
import type { Middleware } from 'koa';
import type { AppContext } from './context.js';
import { invalid, problem } from '../errors.js';
import { watchBodyRate } from './body-rate.js';

/** Deepest accepted nesting of arrays and objects in a JSON body (schema: info description). */
export const MAX_JSON_DEPTH = 32;

const DECOMPRESS = {
  gzip: gunzipSync,
  'x-gzip': gunzipSync,
  deflate: inflateSync,
  br: brotliDecompressSync,
} as const;

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
  if (
    !JSON_TYPE.test(mediaType) ||
    (charset !== undefined && charset !== 'utf-8' && charset !== 'utf8')
  ) {
    throw problem('unsupported_media_type', {
      detail: `Send the body as application/json (got ${mediaType ? JSON.stringify(mediaType) : 'no Content-Type'}).`,
    });
  }

  if (declaredLength(ctx) > maxBytes) throw tooLarge(ctx, maxBytes);

  const encoding = ctx.get('Content-Encoding').trim().toLowerCase();
  if (encoding !== '' && encoding !== 'identity') {
    if (!Object.hasOwn(DECOMPRESS, encoding)) {
      ctx.set('Accept-Encoding', 'gzip, deflate, br');
      throw problem('unsupported_media_type', {
        detail: `Content-Encoding ${JSON.stringify(encoding)} is not supported (gzip, deflate, br or none).`,
      });
    }
    return parseJsonText(await readCompressed(ctx, encoding as keyof typeof DECOMPRESS, maxBytes));
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
  const rate = watchBodyRate(ctx);
  let raw: string;
  try {
    await Promise.race([parser(maxBytes)(ctx, async () => {}), rate.tooSlow]);
    raw = typeof ctx.request.rawBody === 'string' ? ctx.request.rawBody : '';
  } catch (err) {
    const e = err as { status?: number; body?: unknown; message?: string; code?: string };
    if (e.code === 'request_timeout') throw err;
    if (e.status === 413) throw tooLarge(ctx, maxBytes);
    // co-body inflates gzip/deflate itself but refuses other Content-Encodings with 415.
    if (e.status === 415)
      throw problem('unsupported_media_type', {
        detail: `Content-Encoding ${ctx.get('Content-Encoding')} is not supported.`,
      });
    if (badUtf8 || !endsUtf8(utf8)) throw notUtf8();
    if (e.status === 400 && typeof e.body === 'string' && e.body.trim() === '')
      return { present: false };
    if (e.status === 400) {
      throw invalid({
        field: '',
        in: 'body',
        code: 'invalid',
        message: `body is not valid JSON (${e.message ?? 'parse error'})`,
      });
    }
    throw err;
  } finally {
    req.off('data', onData);
    rate.stop();
  }
  if (badUtf8 || !endsUtf8(utf8)) throw notUtf8();
  if (raw.trim() === '') return { present: false };
  checkDepth(raw);
  return { present: true, value: ctx.request.body as unknown };
}

/** Reads a compressed body (at most `maxBytes` on the wire) and decompresses it (at most `maxBytes`). */
async function readCompressed(
  ctx: AppContext,
  encoding: keyof typeof DECOMPRESS,
  maxBytes: number,
): Promise<string> {
  const req = ctx.req;
  const chunks: Buffer[] = [];
  const rate = watchBodyRate(ctx);
  const reading = new Promise<boolean>((resolve, reject) => {
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBytes) {
        cleanup();
        resolve(true);
      } else chunks.push(chunk);
    };
    const onEnd = () => {
      cleanup();
      resolve(false);
    };
    const onError = (err: Error) => {
      cleanup();
      reject(err);
    };
    const cleanup = () => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onError);
    };
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onError);
  });
  let overLimit: boolean;
  try {
    overLimit = await Promise.race([reading, rate.tooSlow]);
  } finally {
    rate.stop();
  }
  if (overLimit) throw tooLarge(ctx, maxBytes);
  let bytes: Buffer;
  try {
    bytes = DECOMPRESS[encoding](Buffer.concat(chunks), { maxOutputLength: maxBytes });
  } catch (err) {
    if ((err as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE' || err instanceof RangeError) {
      throw problem('payload_too_large', {
        detail: `The body decompresses to more than ${maxBytes} bytes.`,
      });
    }
    throw invalid({
      field: '',
      in: 'body',
      code: 'invalid',
      message: `body does not decompress as Content-Encoding ${encoding}`,
    });
  }
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw notUtf8();
  }
}

/** Parses decompressed JSON text (same answers as the uncompressed path). */
function parseJsonText(text: string): JsonBody {
  if (text.trim() === '') return { present: false };
  checkDepth(text);
  try {
    return { present: true, value: JSON.parse(text) as unknown };
  } catch (err) {
    throw invalid({
      field: '',
      in: 'body',
      code: 'invalid',
      message: `body is not valid JSON (${(err as Error).message})`,
    });
  }
}

/** Throws 400 validation_error when arrays and objects nest deeper than {@link MAX_JSON_DEPTH}. */
function checkDepth(text: string): void {
  if (jsonDepth(text) > MAX_JSON_DEPTH) {
    throw invalid({
      field: '',
      in: 'body',
      code: 'invalid',
      message: `nests arrays and objects deeper than ${MAX_JSON_DEPTH} levels`,
    });
  }
}

/** The deepest nesting of `[` and `{` in JSON text (strings skipped); stops counting past the bound. */
export function jsonDepth(text: string): number {
  let depth = 0;
  let max = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > max) {
        max = depth;
        if (max > MAX_JSON_DEPTH) return max;
      }
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return max;
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

/** The declared Content-Length, or 0 when none is declared (chunked, or no body). */
function declaredLength(ctx: AppContext): number {
  const n = Number(ctx.get('Content-Length') || 0);
  return Number.isFinite(n) ? n : Infinity;
}

function tooLarge(ctx: AppContext, maxBytes: number) {
  // The rest of the body is not read; close the connection after answering.
  ctx.set('Connection', 'close');
  ctx.req.resume();
  return problem('payload_too_large', { detail: `The body is larger than ${maxBytes} bytes.` });
}
