/**
 * Strong ETags for public cacheable documents (GET /countries, GET /contact-card.vcf) and
 * the If-None-Match check (RFC 9110 §13.1.2: weak comparison, `*`, comma lists).
 * @module
 */
import { createHash } from 'node:crypto';

/** A strong ETag for a body: the quoted base64url sha256 prefix. */
export function etagOf(body: string): string {
  return `"${createHash('sha256').update(body, 'utf8').digest('base64url').slice(0, 27)}"`;
}

/** Whether an If-None-Match header value matches `etag` (so the answer is 304). */
export function ifNoneMatch(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  const bare = etag.replace(/^W\//, '');
  return header.split(',').some((raw) => {
    const t = raw.trim();
    return t === '*' || t.replace(/^W\//, '') === bare;
  });
}
