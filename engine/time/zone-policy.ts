/**
 * Zone policy: which time-zone names the service accepts.
 *
 * The rule (also written into the OpenAPI descriptions of every `timezone` field):
 * 1. Accepted: the IANA city zones, meaning every zone name in the tz database's `zone.tab`
 *    (America/New_York, Europe/Amsterdam, Asia/Kolkata, Europe/Kyiv, ...), and `UTC`.
 *    `Etc/UTC` is accepted as a spelling of `UTC` and answered as `UTC`.
 * 2. Accepted and rewritten: the 19 old spellings that ICU/CLDR still reports as canonical
 *    (so browsers and Android phones send them: `Intl.DateTimeFormat().resolvedOptions()`
 *    gives Asia/Calcutta in Chrome and Node). Each is the same place under its former name
 *    and is answered under its current IANA name (Asia/Calcutta → Asia/Kolkata, Europe/Kiev →
 *    Europe/Kyiv, America/Godthab → America/Nuuk, ...). See {@link CLDR_SPELLINGS}.
 * 3. `timezone_not_allowed`: fixed offsets rather than places: every other `Etc/` name
 *    (Etc/GMT+5, Etc/GMT, Etc/UCT, ...) and offset strings (`+05:00`, `-0500`, `UTC+5`,
 *    `GMT-03:30`).
 * 4. `invalid_timezone`: everything else: abbreviations (EST, CET, PST8PDT), the tz
 *    database's other legacy aliases (US/Eastern, Japan, GB, Canada/Pacific,
 *    America/Montreal, Asia/Istanbul), unknown names, and names the running ICU does not
 *    know.
 * Matching ignores ASCII case (tz names are case-insensitive); the answer is always the
 * canonical spelling.
 * @module
 */
import { ZONE_TAB } from './data/zone-tab.js';

/** Result of {@link checkTimeZone}. */
export type TimeZoneCheck =
  { ok: true; timezone: string } | { ok: false; code: 'invalid_timezone' | 'timezone_not_allowed' };

/**
 * Former IANA spellings that ICU (CLDR) still treats as canonical, mapped to the current
 * IANA name of the same place. These are exactly the entries of the runtime's
 * `Intl.supportedValuesOf('timeZone')` that are absent from `zone.tab` (ICU 78); a test keeps
 * that true.
 */
export const CLDR_SPELLINGS: Readonly<Record<string, string>> = Object.freeze({
  'Africa/Asmera': 'Africa/Asmara',
  'America/Buenos_Aires': 'America/Argentina/Buenos_Aires',
  'America/Catamarca': 'America/Argentina/Catamarca',
  'America/Coral_Harbour': 'America/Atikokan',
  'America/Cordoba': 'America/Argentina/Cordoba',
  'America/Godthab': 'America/Nuuk',
  'America/Indianapolis': 'America/Indiana/Indianapolis',
  'America/Jujuy': 'America/Argentina/Jujuy',
  'America/Louisville': 'America/Kentucky/Louisville',
  'America/Mendoza': 'America/Argentina/Mendoza',
  'Asia/Calcutta': 'Asia/Kolkata',
  'Asia/Katmandu': 'Asia/Kathmandu',
  'Asia/Rangoon': 'Asia/Yangon',
  'Asia/Saigon': 'Asia/Ho_Chi_Minh',
  'Atlantic/Faeroe': 'Atlantic/Faroe',
  'Europe/Kiev': 'Europe/Kyiv',
  'Pacific/Enderbury': 'Pacific/Kanton',
  'Pacific/Ponape': 'Pacific/Pohnpei',
  'Pacific/Truk': 'Pacific/Chuuk',
});

/** Lower-cased accepted spelling → canonical answer. Built once at module load. */
const ACCEPTED = new Map<string, string>();
for (const [, zone] of ZONE_TAB) ACCEPTED.set(zone.toLowerCase(), zone);
for (const [old, current] of Object.entries(CLDR_SPELLINGS))
  ACCEPTED.set(old.toLowerCase(), current);
ACCEPTED.set('utc', 'UTC');
ACCEPTED.set('etc/utc', 'UTC');

/** `+05:00`, `-0500`, `+5`, `UTC+5`, `GMT-03:30`, `UTC −2` (Unicode minus too). */
const OFFSET_LIKE = /^(?:utc|gmt|ut)?\s*[+\-\u2212]\s*\d{1,2}(?::?\d{2}(?::?\d{2})?)?$/i;

/**
 * Whether the running ICU can compute the zone (any spelling it accepts, fixed offsets
 * included); cached per name. The recurrence functions check a rule's zone with it.
 */
export function isZoneKnown(zone: string): boolean {
  return typeof zone === 'string' && zone.length > 0 && knownToRuntime(zone);
}

/** Whether the running ICU can compute the zone; cached per canonical name. */
const runtimeKnows = new Map<string, boolean>();
let runtimeList: Set<string> | undefined;
function knownToRuntime(zone: string): boolean {
  let known = runtimeKnows.get(zone);
  if (known === undefined) {
    // The runtime's list is the cheap answer (constructing a formatter costs ~50 µs); a
    // current spelling ICU lists under its old name (Asia/Kolkata) needs the slow check.
    runtimeList ??= new Set(Intl.supportedValuesOf('timeZone'));
    known = runtimeList.has(zone);
    if (!known) {
      try {
        new Intl.DateTimeFormat('en-US', { timeZone: zone });
        known = true;
      } catch {
        known = false;
      }
    }
    runtimeKnows.set(zone, known);
  }
  return known;
}

/**
 * Applies the zone policy to a client-supplied zone name (see the module header for the
 * rule). Pure and cheap (one map lookup after the first call per zone).
 *
 * @param name - what the client sent, e.g. `America/New_York`, `Asia/Calcutta`, `+05:00`.
 * @returns `{ ok: true, timezone }` with the canonical name to store, or the error code:
 *   `timezone_not_allowed` for fixed offsets, `invalid_timezone` for everything else refused.
 * @example checkTimeZone('Asia/Calcutta') // { ok: true, timezone: 'Asia/Kolkata' }
 * @example checkTimeZone('Etc/GMT+5') // { ok: false, code: 'timezone_not_allowed' }
 * @example checkTimeZone('US/Eastern') // { ok: false, code: 'invalid_timezone' }
 */
export function checkTimeZone(name: string): TimeZoneCheck {
  if (typeof name !== 'string' || name.length === 0 || name.length > 64) {
    return { ok: false, code: 'invalid_timezone' };
  }
  const lower = name.toLowerCase();
  const canonical = ACCEPTED.get(lower);
  if (canonical !== undefined) {
    return knownToRuntime(canonical)
      ? { ok: true, timezone: canonical }
      : { ok: false, code: 'invalid_timezone' };
  }
  if (lower.startsWith('etc/') || OFFSET_LIKE.test(name.trim())) {
    return { ok: false, code: 'timezone_not_allowed' };
  }
  return { ok: false, code: 'invalid_timezone' };
}

let acceptedList: readonly string[] | undefined;

/**
 * Every accepted canonical zone name that the running ICU knows: the `zone.tab` city zones
 * plus `UTC`, sorted. The list the property tests and the zone search iterate over.
 */
export function listAcceptedZones(): readonly string[] {
  acceptedList ??= Object.freeze([...new Set(ACCEPTED.values())].filter(knownToRuntime).sort());
  return acceptedList;
}
