/**
 * The key a client is counted under by every per-IP window (the general limit, sign-in codes,
 * texts, the demo): an IPv4 address as it is; an IPv6 address by its network prefix (/64 by
 * default, WAKEUP_IPV6_PREFIX), since one subscriber is usually given a whole /64 (or /56) and
 * can take a fresh address in it for every request. An IPv4 address written as IPv6
 * (`::ffff:a.b.c.d`, as a dual-stack socket reports IPv4 clients) is that IPv4 address.
 * @module
 */
import { isIP } from 'node:net';
import { ipv6Bytes } from './ip-address.js';

/** `address` as a rate-limit key: see the module header. Anything that is not an IP address is returned as given. */
export function clientKey(address: string, ipv6Prefix: number): string {
  if (isIP(address) !== 6) return address;
  const b = ipv6Bytes(address);
  if (!b) return address;
  if (b.slice(0, 10).every((x) => x === 0) && b[10] === 0xff && b[11] === 0xff)
    return b.slice(12).join('.');
  const kept = b.map((x, i) => {
    const bits = Math.min(8, Math.max(0, ipv6Prefix - i * 8));
    return x & ((0xff << (8 - bits)) & 0xff);
  });
  const words = Array.from({ length: 8 }, (_, i) =>
    ((kept[2 * i]! << 8) | kept[2 * i + 1]!).toString(16),
  );
  return `${words.join(':')}/${ipv6Prefix}`;
}
