/**
 * IP address text to numbers, for the webhook target policy (host/webhooks/target.ts) and the
 * per-client rate-limit key (host/rate-limit/client-key.ts).
 * @module
 */
import { isIP } from 'node:net';

/** A dotted IPv4 address as a 32-bit unsigned number. */
export function v4Number(text: string): number {
  return text.split('.').reduce((n, part) => n * 256 + Number(part), 0);
}

/** The 16 bytes of an IPv6 address (brackets and zone id dropped), or null when it is not one. */
export function ipv6Bytes(text: string): number[] | null {
  let s = text.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  if (isIP(s) !== 6) return null;
  let tail: number[] = [];
  const lastColon = s.lastIndexOf(':');
  const last = s.slice(lastColon + 1);
  if (last.includes('.')) {
    // A trailing dotted IPv4 (::ffff:127.0.0.1) is the last two 16-bit words.
    const n = v4Number(last);
    tail = [n >>> 16, n & 0xffff];
    s = s.slice(0, lastColon + 1);
    if (!s.endsWith('::')) s = s.slice(0, -1);
  }
  const parse = (part: string) => (part === '' ? [] : part.split(':').map((w) => parseInt(w, 16)));
  const halves = s.split('::');
  let words: number[];
  if (halves.length === 2) {
    const left = parse(halves[0]!);
    const right = [...parse(halves[1]!), ...tail];
    words = [...left, ...new Array<number>(8 - left.length - right.length).fill(0), ...right];
  } else words = [...parse(halves[0]!), ...tail];
  if (words.length !== 8) return null;
  return words.flatMap((w) => [(w >> 8) & 0xff, w & 0xff]);
}
