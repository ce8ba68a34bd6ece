/**
 * Which targets a webhook may reach (server-side request forgery): the URL's shape, and the
 * addresses its host resolves to.
 *
 * - Shape: an absolute `https://` URL (`http://` too with WAKEUP_WEBHOOK_ALLOW_HTTP), at most
 *   2,000 characters as given and as stored (encoded), with a host and without user name, password or fragment.
 * - Addresses: every address the host resolves to (or the literal address) is classified
 *   ({@link classifyAddress}); `private` ones (loopback, RFC 1918, CGNAT, link-local, unique
 *   local, documentation and benchmark ranges, IPv4 inside IPv6 by mapping, NAT64 or 6to4 when
 *   the IPv4 is one) are refused unless WAKEUP_WEBHOOK_ALLOW_PRIVATE; `forbidden` ones
 *   (unspecified, multicast, broadcast, reserved) always are. One refused address refuses the
 *   target: a name that resolves to a public and a private address reaches neither.
 * - The delivery connects to the address checked here, never resolving the name again
 *   (host/webhooks/send.ts): no window between the check and the connection.
 * - Saving an endpoint resolves nothing ({@link checkSavedHost}): only literal addresses and
 *   local names are refused then, so the answer never tells what a name resolves to.
 * @module
 */
import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { ipv6Bytes, v4Number } from '../rate-limit/ip-address.js';
import { MAX_URL_LENGTH } from './rules.js';
import type { WebhookConfig } from './config.js';

/** `public`: any target; `private`: only with WAKEUP_WEBHOOK_ALLOW_PRIVATE; `forbidden`: never. */
export type AddressClass = 'public' | 'private' | 'forbidden';

/** A resolved address. */
export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/** Resolves a host name to all its addresses (node:dns `lookup` with `all: true` in production). */
export type Resolver = (hostname: string) => Promise<ResolvedAddress[]>;

/** The system's resolver (node:dns `lookup`: /etc/hosts, then DNS), every address of the name. */
export const systemResolver: Resolver = async (hostname) =>
  (await lookup(hostname, { all: true, verbatim: true })).map((a) => ({
    address: a.address,
    family: a.family === 6 ? 6 : 4,
  }));

/** IPv4 ranges as [first octets..., prefix length] and their class, most specific where they overlap. */
const V4: ReadonlyArray<[number, number, AddressClass]> = [
  [0x00000000, 8, 'forbidden'], // "this network" (0.0.0.0 reaches the local host on Linux)
  [0x7f000000, 8, 'private'], // loopback
  [0x0a000000, 8, 'private'], // RFC 1918
  [0xac100000, 12, 'private'],
  [0xc0a80000, 16, 'private'],
  [0x64400000, 10, 'private'], // carrier-grade NAT (RFC 6598)
  [0xa9fe0000, 16, 'private'], // link-local (cloud metadata services live here)
  [0xc0000000, 24, 'private'], // IETF protocol assignments
  [0xc0000200, 24, 'private'], // documentation (TEST-NET-1..3)
  [0xc6336400, 24, 'private'],
  [0xcb007100, 24, 'private'],
  [0xc6120000, 15, 'private'], // benchmarking
  [0xe0000000, 4, 'forbidden'], // multicast
  [0xf0000000, 4, 'forbidden'], // reserved, and 255.255.255.255
];

function classifyV4(n: number): AddressClass {
  for (const [base, bits, cls] of V4) {
    const mask = bits === 0 ? 0 : (0xffffffff << (32 - bits)) >>> 0;
    if ((n & mask) >>> 0 === base) return cls;
  }
  return 'public';
}

/**
 * IPv6: an IPv4-mapped address (`::ffff:0:0/96`) and a NAT64 one (`64:ff9b::/96`) are the IPv4
 * address they carry; loopback, link-local, site-local and unique local ones are private; of
 * the rest only global unicast (`2000::/3`) may be public, less its special ranges (Teredo,
 * 6to4 by its IPv4, ORCHID, benchmarking and documentation). Everything else (unspecified,
 * multicast, IPv4-compatible and IPv4-translated forms, reserved and unassigned space) is
 * forbidden.
 */
function classifyV6(b: number[]): AddressClass {
  const zero = (from: number, to: number) => b.slice(from, to).every((x) => x === 0);
  const v4At = (i: number) =>
    ((b[i]! << 24) | (b[i + 1]! << 16) | (b[i + 2]! << 8) | b[i + 3]!) >>> 0;
  const word = (i: number) => (b[2 * i]! << 8) | b[2 * i + 1]!;
  if (zero(0, 15) && b[15] === 1) return 'private'; // ::1
  if (zero(0, 10) && b[10] === 0xff && b[11] === 0xff) return classifyV4(v4At(12)); // ::ffff:0:0/96, IPv4-mapped
  if (word(0) === 0x0064 && word(1) === 0xff9b) {
    // 64:ff9b::/96 (NAT64, the IPv4 it reaches); 64:ff9b:1::/48 (local-use NAT64)
    return zero(4, 12) ? classifyV4(v4At(12)) : 'private';
  }
  if (b[0] === 0xfe && (b[1]! & 0xc0) === 0x80) return 'private'; // fe80::/10, link-local
  if (b[0] === 0xfe && (b[1]! & 0xc0) === 0xc0) return 'private'; // fec0::/10, site-local (deprecated)
  if ((b[0]! & 0xfe) === 0xfc) return 'private'; // fc00::/7, unique local
  if ((b[0]! & 0xe0) !== 0x20) return 'forbidden'; // outside 2000::/3: not global unicast
  if (word(0) === 0x2002) return classifyV4(v4At(2)); // 2002::/16, 6to4
  if (word(0) === 0x2001 && word(1) === 0x0000) return 'private'; // 2001::/32, Teredo
  if (word(0) === 0x2001 && word(1) === 0x0002 && word(2) === 0x0000) return 'private'; // 2001:2::/48, benchmarking
  if (word(0) === 0x2001 && (word(1) & 0xfff0) === 0x0020) return 'forbidden'; // 2001:20::/28, ORCHIDv2
  if (word(0) === 0x2001 && (word(1) & 0xfff0) === 0x0010) return 'forbidden'; // 2001:10::/28, ORCHID
  if (word(0) === 0x2001 && word(1) === 0x0db8) return 'private'; // 2001:db8::/32, documentation
  if (word(0) === 0x3fff && (word(1) & 0xf000) === 0) return 'private'; // 3fff::/20, documentation
  return 'public';
}

/** The class of an IP address (IPv4, IPv6 with or without brackets or zone id); `forbidden` for anything else. */
export function classifyAddress(address: string): AddressClass {
  const bare = address.replace(/^\[|\]$/g, '');
  if (isIP(bare) === 4) return classifyV4(v4Number(bare));
  const bytes = ipv6Bytes(bare);
  return bytes ? classifyV6(bytes) : 'forbidden';
}

/** Whether the operator's settings let a delivery reach an address of this class. */
export function addressAllowed(
  cls: AddressClass,
  config: Pick<WebhookConfig, 'allowPrivate'>,
): boolean {
  return cls === 'public' || (cls === 'private' && config.allowPrivate);
}

/** An endpoint URL checked for shape, or why not. */
export type UrlCheck = { ok: true; url: URL } | { ok: false; reason: string };

/** Checks a URL's shape (see the module header). */
export function checkUrlShape(raw: string, config: Pick<WebhookConfig, 'allowHttp'>): UrlCheck {
  if (raw.length > MAX_URL_LENGTH)
    return { ok: false, reason: `is longer than ${MAX_URL_LENGTH} characters` };
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { ok: false, reason: 'is not an absolute URL' };
  }
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && config.allowHttp)) {
    return {
      ok: false,
      reason: config.allowHttp ? 'must start with https:// or http://' : 'must start with https://',
    };
  }
  if (url.hostname === '') return { ok: false, reason: 'has no host' };
  if (url.username !== '' || url.password !== '')
    return { ok: false, reason: 'must not carry a user name or password' };
  if (url.hash !== '' || raw.includes('#'))
    return { ok: false, reason: 'must not carry a fragment (#...)' };
  // The limit holds for the URL as stored and sent: percent-encoding and punycode lengthen it.
  if (url.href.length > MAX_URL_LENGTH)
    return { ok: false, reason: `is longer than ${MAX_URL_LENGTH} characters once encoded` };
  return { ok: true, url };
}

/** Names that only a local network resolves: refused when saved, without asking any resolver. */
const LOCAL_NAME = /(^|\.)(localhost|local|internal|intranet|lan|home\.arpa|localdomain)\.?$/i;

/**
 * The check of a host when an endpoint is saved, which never resolves a name: a literal address
 * must be allowed by its class; a name must not be a local one (`localhost`, `*.local`,
 * `*.internal`, ..., or a single label) unless the operator allows private targets. Any other
 * name is accepted and resolved at each attempt only, so that saving an endpoint tells nothing
 * of what a name resolves to.
 */
export function checkSavedHost(
  hostname: string,
  config: Pick<WebhookConfig, 'allowPrivate'>,
): boolean {
  const bare = hostname.replace(/^\[|\]$/g, '');
  if (isIP(bare) !== 0) return addressAllowed(classifyAddress(bare), config);
  if (config.allowPrivate) return true;
  return !LOCAL_NAME.test(bare) && bare.replace(/\.$/, '').includes('.');
}

/** The address a delivery may connect to, or why none. */
export type TargetCheck =
  | { ok: true; address: ResolvedAddress }
  | { ok: false; reason: 'not_allowed'; address: string }
  | { ok: false; reason: 'unresolvable'; detail: string };

/**
 * Resolves `hostname` (a literal address is its own resolution) and checks every address: the
 * first one when all are allowed (the one to connect to), else the first refused.
 */
export async function resolveTarget(
  hostname: string,
  config: Pick<WebhookConfig, 'allowPrivate'>,
  resolve: Resolver,
): Promise<TargetCheck> {
  const bare = hostname.replace(/^\[|\]$/g, '');
  let addresses: ResolvedAddress[];
  if (isIP(bare) !== 0) addresses = [{ address: bare, family: isIP(bare) === 4 ? 4 : 6 }];
  else {
    try {
      addresses = await resolve(bare);
    } catch (err) {
      return {
        ok: false,
        reason: 'unresolvable',
        detail: (err as { code?: string }).code ?? String(err),
      };
    }
    if (addresses.length === 0) return { ok: false, reason: 'unresolvable', detail: 'no address' };
  }
  for (const a of addresses)
    if (!addressAllowed(classifyAddress(a.address), config))
      return { ok: false, reason: 'not_allowed', address: a.address };
  return { ok: true, address: addresses[0]! };
}
