/**
 * Request bodies: JSON only, size-capped, read by the operation pipeline for operations that
 * declare a request body (others never read theirs).
 *
 * - A body that is not `application/json` (or `application/<x>+json`; charset utf-8 if
 *   given) gives 415 unsupported_media_type.
 * - A body over the limit (WAKEUP_MAX_BODY_BYTES, 1 MiB) gives 413 payload_too_large, from
 *   Content-Length before reading when it is declared.
 * - Bytes that are not UTF-8 or not JSON give 400 validation_error with one item
 *   `{field: '', in: 'body', code: 'invalid'}`.
 * @module
 */
import type { AppContext } from './context.js';
import { invalid, problem } from './problem.js';

/** A read body: `present` false when the request carried none. */
export type JsonBody = { present: false } | { present: true; value: unknown };

const JSON_TYPE = /^application\/(?:[\w.+-]+\+)?json$/i;

/** Whether the request declares a body at all. */
function hasBody(ctx: AppContext): boolean {
  const te = ctx.get('Transfer-Encoding');
  const cl = ctx.get('Content-Length');
  return te !== '' || (cl !== '' && cl !== '0');
}

/** Reads and parses the JSON body, or throws the problem described in the module header. */
export async function readJsonBody(ctx: AppContext, maxBytes: number): Promise<JsonBody> {
  if (!hasBody(ctx)) return { present: false };
  const [mediaType = '', ...params] = ctx.get('Content-Type').split(';').map((s) => s.trim());
  const charset = params.find((p) => /^charset=/i.test(p))?.slice(8).replace(/"/g, '').toLowerCase();
  if (!JSON_TYPE.test(mediaType) || (charset !== undefined && charset !== 'utf-8' && charset !== 'utf8')) {
    throw problem('unsupported_media_type', {
      detail: `Send the body as application/json (got ${mediaType ? JSON.stringify(mediaType) : 'no Content-Type'}).`,
    });
  }
  const declared = Number(ctx.get('Content-Length') || NaN);
  if (declared > maxBytes) throw tooLarge(ctx, maxBytes);

  const bytes = await collect(ctx, maxBytes);
  if (bytes === null) throw tooLarge(ctx, maxBytes);
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw invalid({ field: '', in: 'body', code: 'invalid', message: 'body is not valid UTF-8' });
  }
  if (text.trim() === '') return { present: false };
  try {
    return { present: true, value: JSON.parse(text) as unknown };
  } catch (err) {
    throw invalid({ field: '', in: 'body', code: 'invalid', message: `body is not valid JSON (${(err as Error).message})` });
  }
}

/**
 * Reads the body, or returns null once it passes `maxBytes`. Not `for await`: leaving that
 * loop early destroys the socket, and the client would see a reset instead of the 413.
 */
function collect(ctx: AppContext, maxBytes: number): Promise<Buffer | null> {
  return new Promise((resolve, reject) => {
    const req = ctx.req;
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBytes) {
        cleanup();
        req.resume(); // discard the rest
        resolve(null);
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = () => {
      cleanup();
      resolve(Buffer.concat(chunks));
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
}

function tooLarge(ctx: AppContext, maxBytes: number) {
  // The rest of the body is not read; close the connection after answering.
  ctx.set('Connection', 'close');
  ctx.req.resume();
  return problem('payload_too_large', { detail: `The body is larger than ${maxBytes} bytes.` });
}
