/**
 * Time routes (public): GET /time (the clock in zones) and GET /timezones (zone search).
 * Both map the engine's time API (`engine/time`) to the wire shapes of the schema.
 * @module
 */
import { checkTimeZone } from '../../../engine/index.js';
import { tzdataVersion, zoneInfo, type ZoneInfo } from '../../reference/zone-info.js';
import { searchZones, type ZoneMatch } from '../../reference/zone-search.js';
import type { AppServices } from '../../services.js';
import { isoInstant } from '../../instant.js';
import { invalid, problem } from '../../errors.js';
import type { Routes } from '../registrar.js';

/** Most zones GET /time takes (spec Limits). */
export const MAX_TIME_ZONES = 50;

/** ZoneInfo on the wire. */
export function zoneInfoOut(info: ZoneInfo) {
  return {
    timezone: info.timezone,
    display_name: info.displayName,
    abbreviation: info.abbreviation,
    utc_offset: info.utcOffset,
    now_local: info.nowLocal,
    is_dst: info.isDst,
    next_transition:
      info.nextTransition === null
        ? null
        : {
            at: isoInstant(info.nextTransition.at),
            local_before: info.nextTransition.localBefore,
            local_after: info.nextTransition.localAfter,
            offset_after: info.nextTransition.offsetAfter,
          },
  };
}

/** ZoneMatch on the wire (country_code is empty for UTC, which has no country). */
export function zoneMatchOut(m: ZoneMatch) {
  return {
    timezone: m.timezone,
    label: m.label,
    kind: m.kind,
    country_code: m.countryCode ?? '',
    abbreviation: m.abbreviation,
    utc_offset: m.utcOffset,
  };
}

/**
 * The zones GET /time reports: the `zones` list (checked by the zone policy, canonical
 * names, duplicates dropped, order kept), or UTC and the caller's home zone.
 */
function requestedZones(raw: string | null | undefined, homeZone: string | null): string[] {
  if (raw === null || raw === undefined || raw.trim() === '') {
    return homeZone === null || homeZone === 'UTC' ? ['UTC'] : ['UTC', homeZone];
  }
  const names = raw.split(',').map((s) => s.trim());
  if (names.length > MAX_TIME_ZONES) {
    throw invalid({
      field: 'zones',
      in: 'query',
      code: 'max_items',
      message: `must list at most ${MAX_TIME_ZONES} zones`,
    });
  }
  const out: string[] = [];
  for (const name of names) {
    const zone = checkTimeZone(name);
    if (!zone.ok) {
      throw problem(zone.code, {
        field: 'zones',
        detail:
          zone.code === 'timezone_not_allowed'
            ? `${JSON.stringify(name)} is a fixed offset, not a place; pick a city zone such as Europe/Paris, or UTC.`
            : `${JSON.stringify(name)} is not an IANA city zone; send zones such as America/New_York or UTC (search them with GET /timezones).`,
      });
    }
    if (!out.includes(zone.timezone)) out.push(zone.timezone);
  }
  return out;
}

/** Registers getTime and searchTimezones. */
export function register(routes: Routes, services: AppServices): void {
  routes.operation<unknown, { zones?: string | null }>('getTime', async ({ query, principal }) => {
    const now = services.clock.now();
    const home = principal ? await services.account.homeTimezone(principal.accountId) : null;
    const zones = requestedZones(query.zones, home);
    return {
      status: 200,
      body: {
        now_utc: isoInstant(now),
        tzdata_version: tzdataVersion(),
        zones: zones.map((z) => zoneInfoOut(zoneInfo(z, now))),
      },
    };
  });

  routes.operation<unknown, { q?: string; limit?: number }>('searchTimezones', ({ query }) => {
    const items = searchZones(query.q ?? '', services.clock.now(), query.limit ?? 10);
    return { status: 200, body: { items: items.map(zoneMatchOut) } };
  });
}
