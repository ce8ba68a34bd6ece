/**
 * The Twilio-compatible provider's webhooks, at the site root (see
 * `host/adapters/twilio/paths.ts` for each path). They are not API operations: no
 * credentials, no JSON. Each request's form body is read (at most 64 KiB) and handed, with
 * the exact public URL (WAKEUP_SITE_URL + the request path and query) and the
 * X-Twilio-Signature header, to the adapter's dispatcher, which refuses a missing or wrong
 * signature with 403 before anything else. Without a Twilio-compatible provider configured
 * these paths answer 404.
 * @module
 */
import type { AppServices } from '../../services.js';
import { TWILIO_WEBHOOK_PATHS } from '../../adapters/twilio/paths.js';
import type { AppContext } from '../context.js';
import { problem } from '../../errors.js';
import type { Routes } from '../registrar.js';

const MAX_FORM_BYTES = 64 * 1024;

/** Reads an application/x-www-form-urlencoded body into a flat record (last value wins). */
async function readForm(ctx: AppContext): Promise<Record<string, string>> {
  if (!ctx.is('application/x-www-form-urlencoded')) {
    throw problem('unsupported_media_type', { detail: 'Provider webhooks are form-encoded.' });
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of ctx.req) {
    size += (chunk as Buffer).length;
    if (size > MAX_FORM_BYTES)
      throw problem('payload_too_large', { detail: 'Webhook bodies are at most 64 KiB.' });
    chunks.push(chunk as Buffer);
  }
  return Object.fromEntries(new URLSearchParams(Buffer.concat(chunks).toString('utf8')));
}

/** Registers the webhook paths. */
export function register(routes: Routes, services: AppServices): void {
  for (const path of Object.values(TWILIO_WEBHOOK_PATHS)) {
    routes.page('POST', path, async (ctx) => {
      const webhooks = services.phone.webhooks;
      if (!webhooks)
        throw problem('not_found', { detail: 'No Twilio-compatible provider is configured.' });
      const params = await readForm(ctx);
      const signature = ctx.get('X-Twilio-Signature') || undefined;
      const r = await webhooks.handle(path, {
        url: services.siteUrl() + ctx.originalUrl,
        params,
        signature,
      });
      ctx.status = r.status;
      if (r.status !== 204) {
        ctx.type = r.contentType;
        ctx.body = r.body;
      }
    });
  }
}
