/**
 * Civil (zone-less) calendar arithmetic on plain numbers: local dates as day numbers since
 * 1970-01-01 and times of day as minutes since midnight. No `Date`, no Intl: these run on the
 * dispatch path, and a local date must never be reached by adding 86,400 seconds to an
 * instant (cronie#218), only by counting calendar days.
 * @module
 */

/** Milliseconds in one civil day (24 h); used only for zone-less day numbers, never on instants. */
export const MS_PER_DAY = 86_400_000;

/** Days of the week as the API spells them, Monday first (ISO 8601 order). */
export const WEEKDAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;

/** A day of the week as the API spells it. */
export type Weekday = (typeof WEEKDAYS)[number];

/** Earliest and latest local dates the engine computes with (inclusive). */
export const MIN_YEAR = 1900;
/** @see MIN_YEAR */
export const MAX_YEAR = 2299;

/**
 * Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's `days_from_civil`).
 * `month` is 1..12. No validation.
 */
export function daysFromCivil(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const mp = (month + 9) % 12;
  const doy = Math.floor((153 * mp + 2) / 5) + day - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146097 + doe - 719468;
}

/** Inverse of {@link daysFromCivil}: `[year, month (1..12), day]`. */
export function civilFromDays(days: number): [number, number, number] {
  const z = days + 719468;
  const era = Math.floor(z / 146097);
  const doe = z - era * 146097;
  const yoe = Math.floor(
    (doe - Math.floor(doe / 1460) + Math.floor(doe / 36524) - Math.floor(doe / 146096)) / 365,
  );
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const day = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const month = mp < 10 ? mp + 3 : mp - 9;
  return [yoe + era * 400 + (month <= 2 ? 1 : 0), month, day];
}

/** ISO weekday index of a day number: 0 = Monday ... 6 = Sunday (1970-01-01 was a Thursday). */
export function weekdayIndex(days: number): number {
  return (((days + 3) % 7) + 7) % 7;
}

function pad2(n: number): string {
  return n < 10 ? `0${n}` : String(n);
}

/** `YYYY-MM-DD` of a day number. */
export function formatDate(days: number): string {
  const [y, m, d] = civilFromDays(days);
  return `${y}-${pad2(m)}-${pad2(d)}`;
}

/** `HH:MM` of minutes since midnight (0..1439). */
export function formatTime(minutes: number): string {
  return `${pad2(Math.floor(minutes / 60))}:${pad2(minutes % 60)}`;
}

const DATE_RE = /^(\d{4})-(\d{2})-(\d{2})$/;
const TIME_RE = /^([01]\d|2[0-3]):([0-5]\d)$/;

/**
 * Parses a local date `YYYY-MM-DD` into a day number, or null when it is not a real date of
 * the Gregorian calendar (2027-02-29, 2027-13-01) or lies outside {@link MIN_YEAR}..{@link MAX_YEAR}.
 */
export function parseDate(text: string): number | null {
  const m = DATE_RE.exec(text);
  if (m === null) return null;
  const y = Number(m[1]);
  const mo = Number(m[2]);
  const d = Number(m[3]);
  if (y < MIN_YEAR || y > MAX_YEAR || mo < 1 || mo > 12 || d < 1 || d > 31) return null;
  const days = daysFromCivil(y, mo, d);
  const [, mo2] = civilFromDays(days);
  return mo2 === mo ? days : null;
}

/** Parses a 24-hour `HH:MM` (00:00..23:59) into minutes since midnight, or null. */
export function parseTime(text: string): number | null {
  const m = TIME_RE.exec(text);
  return m === null ? null : Number(m[1]) * 60 + Number(m[2]);
}

/**
 * Formats a UTC offset in milliseconds as `+HH:MM` (`-05:00`, `+05:30`, `+00:00`). The few
 * offsets with seconds, all before 1973 (Africa/Monrovia, -00:44:30), are rounded to the
 * minute, as the API's `+HH:MM` format requires; instants are never rounded.
 */
export function formatOffset(offsetMs: number): string {
  const sign = offsetMs < 0 ? '-' : '+';
  const total = Math.round(Math.abs(offsetMs) / 60_000);
  return `${sign}${pad2(Math.floor(total / 60))}:${pad2(total % 60)}`;
}
