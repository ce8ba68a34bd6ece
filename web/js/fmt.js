// Formatting of the API's times and states for people.

let timeFormat = '24h';
/** Follows the account's time_format (24h or 12h). */
export function setTimeFormat(f) {
  timeFormat = f === '12h' ? '12h' : '24h';
}

/** "07:00" or "7:00 AM" from HH:MM. */
export function hhmm(t) {
  if (!t || timeFormat === '24h') return t || '';
  const [hh, mm] = t.split(':').map(Number);
  return `${((hh + 11) % 12) + 1}:${String(mm).padStart(2, '0')} ${hh < 12 ? 'AM' : 'PM'}`;
}

/** The account's clock: '24h' or '12h'. */
export const clock = () => timeFormat;

/**
 * HH:MM from a time as typed: "7:05", "07:05", "0705", "7", "7:05 pm", "7pm", "19.05"; null
 * when it is not a time. Without am/pm it is read on the 24-hour clock.
 */
export function parseTime(text) {
  const m = /^\s*(\d{1,2})(?:[:.h]?(\d{2}))?\s*([ap])?\.?\s*(?:m\.?)?\s*$/i.exec(text || '');
  if (!m) return null;
  let hh = Number(m[1]);
  const mm = m[2] === undefined ? 0 : Number(m[2]);
  if (m[3]) {
    if (hh < 1 || hh > 12) return null;
    hh = (hh % 12) + (m[3].toLowerCase() === 'p' ? 12 : 0);
  }
  if (hh > 23 || mm > 59) return null;
  return `${String(hh).padStart(2, '0')}:${String(mm).padStart(2, '0')}`;
}

const DAY_NAMES = {
  mon: 'Mon',
  tue: 'Tue',
  wed: 'Wed',
  thu: 'Thu',
  fri: 'Fri',
  sat: 'Sat',
  sun: 'Sun',
};
export const DAYS = Object.keys(DAY_NAMES);
export const dayName = (d) => DAY_NAMES[d] || d;

/** "Tue 2027-03-09" from YYYY-MM-DD. */
export function date(d) {
  if (!d) return '';
  const wd = new Date(`${d}T12:00:00Z`).toLocaleDateString('en-US', {
    weekday: 'short',
    timeZone: 'UTC',
  });
  return `${wd} ${d}`;
}

/** A LocalTime: "Tue 2027-03-09 07:00 Europe/Paris (CET, +01:00)". */
export function local(l) {
  if (!l) return '';
  const abbr = l.abbreviation && l.abbreviation !== l.utc_offset ? `${l.abbreviation}, ` : '';
  return `${date(l.date)} ${hhmm(l.time)} ${l.timezone} (${abbr}UTC${l.utc_offset})`;
}

/** A HomeTime: "Tue 2027-03-09 01:00 America/New_York (UTC-05:00)". */
export function home(t) {
  return t ? `${date(t.date)} ${hhmm(t.time)} ${t.timezone} (UTC${t.utc_offset})` : '';
}

/** "in 3 h 5 min", "2 min ago". */
export function relative(seconds) {
  if (seconds === null || seconds === undefined) return '';
  const past = seconds < 0;
  let s = Math.abs(Math.round(seconds));
  const d = Math.floor(s / 86400);
  s -= d * 86400;
  const hr = Math.floor(s / 3600);
  const min = Math.floor((s % 3600) / 60);
  const parts = d
    ? [`${d} d`, hr ? `${hr} h` : '']
    : hr
      ? [`${hr} h`, min ? `${min} min` : '']
      : [min ? `${min} min` : `${s} s`];
  const text = parts.filter(Boolean).join(' ');
  return past ? `${text} ago` : `in ${text}`;
}

/**
 * An instant shown in the browser's zone, in the one format of every page: "Tue 2027-03-09
 * 07:00" (the time as the 12/24-hour setting says).
 */
export function instant(iso) {
  if (!iso) return '';
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-US', {
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    })
      .formatToParts(new Date(iso))
      .map((p) => [p.type, p.value]),
  );
  return `${date(`${parts.year}-${parts.month}-${parts.day}`)} ${hhmm(`${parts.hour}:${parts.minute}`)}`;
}

/** How a schedule repeats. */
export function repeat(s) {
  if (s.kind === 'recurring') {
    const days = s.days_of_week || [];
    const text =
      days.length === 7
        ? 'Every day'
        : days.join() === 'mon,tue,wed,thu,fri'
          ? 'Weekdays'
          : days.join() === 'sat,sun'
            ? 'Weekends'
            : days.map(dayName).join(', ');
    return `${text} at ${hhmm(s.local_time)}`;
  }
  return `Once, ${date(s.local_date)} at ${hhmm(s.local_time)}`;
}

const ATT = {
  requested: 'Calling',
  ringing: 'Ringing',
  answered: 'Answered',
  confirmed: 'Confirmed (pressed 1)',
  snoozed: 'Snoozed (pressed 2)',
  stopped: 'Stopped (pressed 9)',
  no_input: 'Answered, no key pressed',
  voicemail: 'Voicemail',
  no_answer: 'No answer',
  busy: 'Busy',
  failed: 'Failed',
  cancelled: 'Hung up by the service',
};
export const attStatus = (s) => ATT[s] || s;

/** The browser's IANA zone. */
export const browserZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
