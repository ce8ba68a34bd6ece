/**
 * Zone information for GET /time: the current reading of a zone's clock, its abbreviation,
 * offset and DST flag, the next clock change, a human name, and the tz database version
 * the runtime really computes with.
 * @module
 */
import type { EpochMs } from '../../engine/index.js';
import { countryOfZone, formatDate, formatOffset, getZoneRules } from '../../engine/internals.js';

const MS_PER_DAY = 86_400_000;

/** How far ahead {@link zoneInfo} looks for the next clock change: two years. */
export const NEXT_TRANSITION_HORIZON_MS = 731 * MS_PER_DAY;

/** The next clock change of a zone. */
export interface NextTransition {
  /** The instant of the change (epoch ms). */
  at: EpochMs;
  /** Wall clock just before the change, `YYYY-MM-DDTHH:MM` (e.g. 2027-03-14T02:00, the time clocks jump from). */
  localBefore: string;
  /** Wall clock at the change, `YYYY-MM-DDTHH:MM` (e.g. 2027-03-14T03:00, the time they jump to). */
  localAfter: string;
  /** Offset from the change on, `+HH:MM`. */
  offsetAfter: string;
}

/** A zone's clock at an instant (the spec's ZoneInfo). */
export interface ZoneInfo {
  timezone: string;
  /** e.g. `Eastern Time (New York, United States)`; `Coordinated Universal Time` for UTC. */
  displayName: string;
  abbreviation: string;
  /** `+HH:MM`. */
  utcOffset: string;
  /** Local date-time now, `YYYY-MM-DDTHH:MM:SS`. */
  nowLocal: string;
  /** Whether daylight-saving (summer) time is in force, as the runtime's ICU data says. */
  isDst: boolean;
  /** The next clock change within two years, or null when none is known (Asia/Tokyo). */
  nextTransition: NextTransition | null;
}

/**
 * The tz database release the runtime's ICU uses (e.g. `2025c`), from `process.versions.tz`,
 * or `unknown` on a runtime that does not say.
 */
export function tzdataVersion(): string {
  const versions = (globalThis as { process?: { versions?: Record<string, string | undefined> } })
    .process?.versions;
  return versions?.tz ?? 'unknown';
}

function localDateTime(localMs: number): string {
  const day = Math.floor(localMs / MS_PER_DAY);
  const secs = Math.floor((localMs - day * MS_PER_DAY) / 1000);
  const p = (n: number) => (n < 10 ? `0${n}` : String(n));
  return `${formatDate(day)}T${p(Math.floor(secs / 3600))}:${p(Math.floor((secs % 3600) / 60))}:${p(secs % 60)}`;
}

/**
 * The clock of `zone` at `now`.
 * @param zone - a canonical accepted zone (see `checkTimeZone`).
 * @param now - the reference instant (epoch ms).
 * @example
 * const { utcOffset, isDst, nextTransition } = zoneInfo('America/New_York', clock.now());
 */
export function zoneInfo(zone: string, now: EpochMs): ZoneInfo {
  const rules = getZoneRules(zone);
  const offset = rules.offsetAt(now);
  const label = rules.labelAt(now);
  const next = rules.nextTransition(now, NEXT_TRANSITION_HORIZON_MS);
  return {
    timezone: zone,
    displayName: zoneDisplayName(zone, now),
    abbreviation: label.abbreviation,
    utcOffset: formatOffset(offset),
    nowLocal: localDateTime(now + offset),
    isDst: label.isDst,
    nextTransition:
      next === null
        ? null
        : {
            at: next.at,
            localBefore: localDateTime(next.at + next.offsetBefore).slice(0, 16),
            localAfter: localDateTime(next.at + next.offsetAfter).slice(0, 16),
            offsetAfter: formatOffset(next.offsetAfter),
          },
  };
}

const CITY_OVERRIDES: Readonly<Record<string, string>> = { DumontDUrville: "Dumont d'Urville" };

/** The city part of a zone name: `America/Argentina/Buenos_Aires` → `Buenos Aires`. */
export function zoneCity(zone: string): string {
  const last = zone.slice(zone.lastIndexOf('/') + 1);
  return CITY_OVERRIDES[last] ?? last.replace(/_/g, ' ');
}

let regionNames: Intl.DisplayNames | undefined;
/** English name of an ISO 3166 country code (`US` → `United States`). */
export function countryName(code: string): string {
  regionNames ??= new Intl.DisplayNames(['en'], { type: 'region' });
  return regionNames.of(code) ?? code;
}

const genericFormats = new Map<string, Intl.DateTimeFormat>();
/** CLDR's generic English name (`Eastern Time`), or null where there is only `GMT+6`. */
export function genericZoneName(zone: string, at: EpochMs): string | null {
  let f = genericFormats.get(zone);
  if (f === undefined) {
    f = new Intl.DateTimeFormat('en-US', { timeZone: zone, timeZoneName: 'longGeneric' });
    genericFormats.set(zone, f);
  }
  const name = f.formatToParts(at).find((p) => p.type === 'timeZoneName')?.value ?? null;
  return name === null || /^GMT([+\-\u2212]|$)/.test(name) ? null : name;
}

/**
 * A human name for a zone: CLDR's generic English name with the city and country,
 * `Eastern Time (New York, United States)`; just `Qostanay, Kazakhstan` where CLDR has no
 * name; `Coordinated Universal Time` for UTC. Also used as Schedule.timezone_display.
 */
export function zoneDisplayName(zone: string, at: EpochMs): string {
  if (zone === 'UTC') return 'Coordinated Universal Time';
  const cc = countryOfZone(zone);
  const place = cc === null ? zoneCity(zone) : `${zoneCity(zone)}, ${countryName(cc)}`;
  const generic = genericZoneName(zone, at);
  return generic === null ? place : `${generic} (${place})`;
}
