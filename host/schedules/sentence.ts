/**
 * The words of a SchedulePreview: `repeat` (Once, Every day, Weekdays, Weekends, or the days
 * as "Mon, Wed and Fri") and the preview `sentence`, e.g.
 * "Rings +1 ••••••0123 on weekdays at 06:30 (Europe/Paris), first on Mon 3 March 2025."
 * English only for now. Pure.
 * @module
 */
import { WEEKDAYS, type EpochMs, type OccurrenceTime } from '../../engine/index.js';
import type { ScheduleWrite } from './records.js';
import type { PhoneRef } from '../generated/openapi.js';

const DAY_NAMES: Record<string, string> = {
  mon: 'Mon',
  tue: 'Tue',
  wed: 'Wed',
  thu: 'Thu',
  fri: 'Fri',
  sat: 'Sat',
  sun: 'Sun',
};
const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];

type Rule = Pick<
  ScheduleWrite,
  'kind' | 'mode' | 'daysOfWeek' | 'timezone' | 'endDate' | 'enabled' | 'status'
>;

/** SchedulePreview.repeat. */
export function describeRepeat(s: Pick<Rule, 'kind' | 'daysOfWeek'>): string {
  if (s.kind === 'once') return 'Once';
  const days = WEEKDAYS.filter((d) => s.daysOfWeek.includes(d));
  if (days.length === 7) return 'Every day';
  if (days.join() === 'mon,tue,wed,thu,fri') return 'Weekdays';
  if (days.join() === 'sat,sun') return 'Weekends';
  return list(days.map((d) => DAY_NAMES[d]!));
}

/** `Mon 3 March 2025` for a local date `2025-03-03`. */
export function longDate(date: string): string {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  const weekday = WEEKDAYS[(new Date(Date.UTC(y, m - 1, d)).getUTCDay() + 6) % 7]!;
  return `${DAY_NAMES[weekday]} ${d} ${MONTHS[m - 1]} ${y}`;
}

/** `HH:MM` as the account reads times: unchanged on the 24-hour clock, `6:30 PM` on the 12-hour one. */
export function clockTime(time: string, format: '24h' | '12h'): string {
  if (format === '24h') return time;
  const [hh, mm] = time.split(':') as [string, string];
  const h = Number(hh);
  return `${((h + 11) % 12) + 1}:${mm} ${h < 12 ? 'AM' : 'PM'}`;
}

/** SchedulePreview.sentence, its time on the account's clock (`timeFormat`, default 24-hour). */
export function previewSentence(input: {
  schedule: Rule;
  first: OccurrenceTime | null;
  phone: PhoneRef | null;
  now: EpochMs;
  timeFormat?: '24h' | '12h';
}): string {
  const { schedule: s, first, phone } = input;
  if (first === null) {
    if (!s.enabled) return 'Turned off: it will not ring until it is enabled again.';
    return s.kind === 'once'
      ? 'It will not ring: its call has already passed.'
      : 'It will not ring: no call is left before its end date.';
  }
  const who = phone ? phone.e164_masked : 'your number';
  const when = `${clockTime(first.local.time, input.timeFormat ?? '24h')} (${s.timezone})`;
  if (s.mode === 'in_minutes') {
    const minutes = Math.max(0, Math.round((first.at - input.now) / 60_000));
    return `Rings ${who} once, in ${minutes} ${minutes === 1 ? 'minute' : 'minutes'}: at ${when} on ${longDate(first.local.date)}.`;
  }
  if (s.kind === 'once') return `Rings ${who} once, on ${longDate(first.local.date)} at ${when}.`;
  const repeat = describeRepeat(s);
  const phrase =
    repeat === 'Every day'
      ? 'every day'
      : repeat === 'Weekdays'
        ? 'on weekdays'
        : repeat === 'Weekends'
          ? 'at weekends'
          : `on ${repeat}`;
  const until = s.endDate ? `, until ${longDate(s.endDate)}` : '';
  return `Rings ${who} ${phrase} at ${when}, first on ${longDate(first.local.date)}${until}.`;
}

function list(items: string[]): string {
  return items.length <= 1
    ? (items[0] ?? '')
    : `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;
}
