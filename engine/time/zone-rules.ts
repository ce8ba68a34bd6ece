/**
 * Zone rules: the UTC offset in force in a zone at any instant, the transitions (clock
 * changes) between instants, and each period's abbreviation and DST flag, all read from
 * the runtime's ICU time-zone data through `Intl.DateTimeFormat`, and cached.
 *
 * Why not Temporal: the polyfill asks Intl for every query and allocates heavily; the
 * dispatch path resolves wall times by the hundred thousand. Here each zone's timeline is
 * cut into chunks of 25 days. A chunk is built once: its offset is sampled every 6 hours
 * and each change is narrowed to the exact second by bisection. After that, an offset is a
 * map lookup and a scan of (usually zero) transitions.
 *
 * Worked example, America/New_York, chunk starting 2027-02-27T00:00Z:
 * | sample (UTC)          | offset |
 * |-----------------------|--------|
 * | 2027-03-14T06:00Z     | -05:00 |
 * | 2027-03-14T12:00Z     | -04:00 |  → bisection between them finds 07:00:00Z
 * so the chunk holds `transitions = [2027-03-14T07:00Z]`, `offsets = [-5h, -4h]`.
 *
 * Assumption (checked by the property tests against a minute-by-minute oracle): a zone never
 * changes its offset twice within 6 hours. No zone in tzdata does.
 * @module
 */
import type { EpochMs } from './epoch.js';
import { ZONE_TAB } from './data/zone-tab.js';

/**
 * Where zone offsets come from: the runtime's ICU data by default. A replacement (a newer
 * tzdata shipped with the app, or a test's changed rules) names its version; every wall time
 * the engine resolves afterwards uses it, and pending occurrences resolved under another
 * version are re-resolved (see `Runtime.rulesChanged`).
 */
export interface ZoneRulesSource {
  /** The tz database release, e.g. `2025c`. */
  version: string;
  /** Offset in force in `zone` at `at` (second precision), in milliseconds east of UTC. */
  offsetAt(zone: string, at: EpochMs): number;
}

let source: ZoneRulesSource | null = null;

/**
 * Replaces the zone-rules source (null: back to the runtime's ICU data) and drops every
 * cached timeline. Process-wide, like the ICU data it stands for.
 */
export function useZoneRulesSource(next: ZoneRulesSource | null): void {
  source = next;
  RULES.clear();
}

/** The version of the zone rules in use: the injected source's, else the runtime's tzdata. */
export function zoneRulesVersion(): string {
  if (source) return source.version;
  const versions = (globalThis as { process?: { versions?: Record<string, string | undefined> } })
    .process?.versions;
  return versions?.tz ?? 'unknown';
}

const STEP = 6 * 3_600_000;
const SAMPLES = 100;
const CHUNK = STEP * SAMPLES;
const HALF_YEAR = 183 * 86_400_000;

/** One clock change: from `offsetBefore` to `offsetAfter` at instant `at`. */
export interface Transition {
  /** First instant with the new offset (epoch ms). */
  at: EpochMs;
  /** Offset in force just before, in milliseconds east of UTC. */
  offsetBefore: number;
  /** Offset in force from `at`, in milliseconds east of UTC. */
  offsetAfter: number;
}

interface Chunk {
  /** Transitions in (start, start + CHUNK], ascending. */
  transitions: EpochMs[];
  /** offsets[0] at start; offsets[i + 1] from transitions[i]. */
  offsets: number[];
  /** Lazily computed per period: abbreviation and DST flag. */
  labels: Array<{ abbreviation: string; isDst: boolean } | undefined>;
}

const NO_TRANSITIONS: readonly Transition[] = Object.freeze([]);
const PARTS_RE = /^(\d+)\/(\d+)\/(\d+),? (\d+):(\d+):(\d+)$/;
const GMT_STYLE_RE = /^(?:GMT|UTC)[+\-\u2212]/;

const COUNTRY_OF = new Map<string, string>(ZONE_TAB.map((r) => [r[1], r[0]]));

/**
 * The rules of one zone. Obtain instances through {@link getZoneRules}, which caches them;
 * every method is pure with respect to its arguments (the caches only save work).
 */
export class ZoneRules {
  /** The zone name (as accepted by the runtime). */
  readonly zone: string;
  private readonly fmt: Intl.DateTimeFormat;
  private readonly chunks = new Map<number, Chunk>();
  private shortLocales: Array<[string, boolean]> | undefined;
  private readonly shortFmts: Array<{ fmt: Intl.DateTimeFormat; native: boolean }> = [];
  private longFmt: Intl.DateTimeFormat | undefined;

  /** @throws RangeError when the runtime does not know the zone. */
  constructor(zone: string) {
    this.zone = zone;
    this.fmt = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
  }

  /** Offset (ms east of UTC) straight from Intl, at second precision. */
  private rawOffset(t: EpochMs): number {
    const sec = Math.floor(t / 1000) * 1000;
    if (source) return source.offsetAt(this.zone, sec);
    return this.intlOffset(sec);
  }

  /** Offset (ms east of UTC) from the runtime's ICU data, at second precision. */
  intlOffset(t: EpochMs): number {
    const sec = Math.floor(t / 1000) * 1000;
    const m = PARTS_RE.exec(this.fmt.format(sec));
    if (m === null) throw new Error(`ZoneRules: unexpected Intl output for ${this.zone}`);
    const local = Date.UTC(
      Number(m[3]),
      Number(m[1]) - 1,
      Number(m[2]),
      Number(m[4]),
      Number(m[5]),
      Number(m[6]),
    );
    return local - sec;
  }

  private chunk(index: number): Chunk {
    let c = this.chunks.get(index);
    if (c !== undefined) return c;
    const start = index * CHUNK;
    const transitions: EpochMs[] = [];
    let prev = this.rawOffset(start);
    const offsets = [prev];
    for (let i = 1; i <= SAMPLES; i++) {
      const s = start + i * STEP;
      const o = this.rawOffset(s);
      if (o !== prev) {
        // Bisect (s - STEP, s] down to the second: lo keeps the old offset, hi has the new.
        let lo = s - STEP;
        let hi = s;
        while (hi - lo > 1000) {
          const mid = lo + Math.floor((hi - lo) / 2000) * 1000;
          if (this.rawOffset(mid) === prev) lo = mid;
          else hi = mid;
        }
        transitions.push(hi);
        offsets.push(o);
        prev = o;
      }
    }
    c = { transitions, offsets, labels: [] };
    this.chunks.set(index, c);
    return c;
  }

  /** Offset in force at `t`, in milliseconds east of UTC (New York in winter: -18,000,000). */
  offsetAt(t: EpochMs): number {
    const c = this.chunk(Math.floor(t / CHUNK));
    const tr = c.transitions;
    let i = 0;
    while (i < tr.length && tr[i]! <= t) i++;
    return c.offsets[i]!;
  }

  /**
   * Transitions with `from < at <= to`, ascending. Returns a shared empty array when there
   * are none (the common case); callers must not mutate the result.
   */
  transitionsBetween(from: EpochMs, to: EpochMs): readonly Transition[] {
    let out: Transition[] | undefined;
    const first = Math.floor(from / CHUNK);
    const last = Math.floor(to / CHUNK);
    for (let k = first; k <= last; k++) {
      const c = this.chunk(k);
      for (let i = 0; i < c.transitions.length; i++) {
        const at = c.transitions[i]!;
        if (at > from && at <= to) {
          (out ??= []).push({ at, offsetBefore: c.offsets[i]!, offsetAfter: c.offsets[i + 1]! });
        }
      }
    }
    return out ?? NO_TRANSITIONS;
  }

  /**
   * The first transition strictly after `t` and at most `horizonMs` later, or null. Scans in
   * 7-day steps and then narrows inside the chunk tables, so a zone without changes costs
   * about one Intl call per week of horizon the first time.
   */
  nextTransition(t: EpochMs, horizonMs: number): Transition | null {
    const WEEK = 7 * 86_400_000;
    const end = t + horizonMs;
    let prevT = t;
    let prevO = this.offsetAt(t);
    for (let s = t + WEEK; ; s += WEEK) {
      const probe = Math.min(s, end);
      const o = this.offsetAt(probe);
      if (o !== prevO) {
        const found = this.transitionsBetween(prevT, probe);
        if (found.length > 0) return found[0]!;
      }
      if (probe >= end) return null;
      prevT = probe;
      prevO = o;
    }
  }

  /** Abbreviation (EST, CEST, IST, or tzdata-style `+03` where English has none) and DST flag at `t`. */
  labelAt(t: EpochMs): { abbreviation: string; isDst: boolean } {
    const c = this.chunk(Math.floor(t / CHUNK));
    const tr = c.transitions;
    let i = 0;
    while (i < tr.length && tr[i]! <= t) i++;
    let label = c.labels[i];
    if (label === undefined) {
      label = {
        abbreviation: this.abbreviationAt(t, c.offsets[i]),
        isDst: this.isDstAt(t, c.offsets[i]!),
      };
      c.labels[i] = label;
    }
    return label;
  }

  /**
   * The abbreviation at `t` straight from Intl, without the chunk tables (the search index
   * uses it for two fixed instants per zone). English abbreviations are locale-dependent in
   * CLDR (CET only in en-GB, IST only in en-IN, LHDT only in en-AU), so this tries the
   * zone's own English locale, then en-US and en-GB, then the country's main language where
   * that gives plain letters (JST, BRT); else the tz database's numeric style (`+03`).
   */
  abbreviationAt(t: EpochMs, offset: number = this.rawOffset(t)): string {
    return this.abbreviationFrom(t, offset, true);
  }

  /**
   * The English-only part of {@link abbreviationAt}: null where English has no letters for
   * the zone. Cheaper (no other locale's data is loaded); the search index uses it.
   */
  englishAbbreviationAt(t: EpochMs): string | null {
    const name = this.abbreviationFrom(t, 0, false);
    return /^[A-Za-z]/.test(name) ? name : null;
  }

  private abbreviationFrom(t: EpochMs, offset: number, withNative: boolean): string {
    // Formatters are built one at a time, only when the previous locale had no name:
    // building one costs ~100 µs, and a new locale's data more.
    for (let i = 0; ; i++) {
      const f = this.shortFormat(i);
      if (f === null || (f.native && !withNative)) return numericAbbreviation(offset);
      const name = f.fmt.formatToParts(t).find((p) => p.type === 'timeZoneName')?.value;
      if (name === undefined) continue;
      if (f.native ? /^[A-Z]{2,5}$/.test(name) : !GMT_STYLE_RE.test(name)) return name;
    }
  }

  private shortFormat(i: number): { fmt: Intl.DateTimeFormat; native: boolean } | null {
    if (this.shortLocales === undefined) {
      const country = COUNTRY_OF.get(this.zone);
      const locales: Array<[string, boolean]> = [];
      if (country !== undefined) locales.push([`en-${country}`, false]);
      locales.push(['en-US', false], ['en-GB', false]);
      if (country !== undefined) {
        const native = new Intl.Locale(`und-${country}`).maximize().baseName;
        if (!native.startsWith('en-')) locales.push([native, true]);
      }
      this.shortLocales = locales;
    }
    const spec = this.shortLocales[i];
    if (spec === undefined) return null;
    let f = this.shortFmts[i];
    if (f === undefined) {
      f = {
        fmt: new Intl.DateTimeFormat(spec[0], { timeZone: this.zone, timeZoneName: 'short' }),
        native: spec[1],
      };
      this.shortFmts[i] = f;
    }
    return f;
  }

  private isDstAt(t: EpochMs, offset: number): boolean {
    this.longFmt ??= new Intl.DateTimeFormat('en-US', {
      timeZone: this.zone,
      timeZoneName: 'long',
    });
    const name = this.longFmt.formatToParts(t).find((p) => p.type === 'timeZoneName')?.value ?? '';
    // ICU picks the daylight name exactly when its rules put DST in force. Ireland's summer
    // name is "Irish Standard Time" although it is ICU's daylight period.
    if (/Daylight|Summer|Irish Standard Time/.test(name)) return true;
    if (/Standard Time|Mean Time/.test(name)) return false;
    // No metazone names: DST when the offset exceeds the one half a year away on either side.
    return offset > Math.min(this.offsetAt(t - HALF_YEAR), this.offsetAt(t + HALF_YEAR));
  }
}

/** `+03`, `+0530`, `-0330`: the tz database's style for zones without a letter abbreviation. */
function numericAbbreviation(offset: number): string {
  const sign = offset < 0 ? '-' : '+';
  const mins = Math.round(Math.abs(offset) / 60_000);
  const h = Math.floor(mins / 60);
  const m = mins % 60;
  return `${sign}${h < 10 ? '0' : ''}${h}${m === 0 ? '' : (m < 10 ? '0' : '') + m}`;
}

const RULES = new Map<string, ZoneRules>();

/**
 * The cached {@link ZoneRules} of a zone.
 * @param zone - a zone name the runtime knows; pass names through `checkTimeZone` first.
 * @throws RangeError when the runtime does not know the zone.
 */
export function getZoneRules(zone: string): ZoneRules {
  let r = RULES.get(zone);
  if (r === undefined) {
    r = new ZoneRules(zone);
    RULES.set(zone, r);
  }
  return r;
}

/** The ISO 3166 country code `zone.tab` gives for a zone, or null (UTC). */
export function countryOfZone(zone: string): string | null {
  return COUNTRY_OF.get(zone) ?? null;
}
