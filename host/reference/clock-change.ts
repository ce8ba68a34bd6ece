/**
 * The clock-change sentence (English) that explains a wall time moved by a clock change: what
 * the API shows as `notice` beside an occurrence, a suggestion or a preview. The engine
 * resolves the wall time and names the transition; the words are the host's.
 * @module
 */
import type { OccurrenceTime, WallTimeResolution } from '../../engine/index.js';
import { formatDate, formatOffset, formatTime } from '../../engine/internals.js';

const MS_PER_DAY = 86_400_000;

/**
 * The sentence for an occurrence the engine computed (`nextOccurrenceAfter`, ...), or null
 * when its wall time was normal or it has none (a call in N minutes).
 */
export function occurrenceNotice(t: OccurrenceTime): string | null {
  return t.requested === null
    ? null
    : clockChangeNotice({
        at: t.at,
        local: t.local,
        requested: t.requested,
        transition: t.transition,
      });
}

/**
 * The clock-change notice for a resolved wall time, or null when the wall time was normal.
 * One sentence naming the requested and the ringing wall times and the offset change.
 *
 * Gap: `Clocks in America/New_York go forward on 2027-03-14 from 02:00 to 03:00 (UTC offset
 * -05:00 to -04:00), so 02:30 does not exist that day; the call rings at 03:00 instead.`
 *
 * Overlap: `Clocks in America/New_York go back on 2027-11-07 from 02:00 to 01:00 (UTC offset
 * -04:00 to -05:00), so 01:30 happens twice; the call rings at the first 01:30 (UTC offset
 * -04:00), not the second (-05:00).`
 *
 * When the change crosses midnight or the call lands on another date, dates are named with
 * the times (Pacific/Apia: from 2011-12-30 00:00 to 2011-12-31 00:00).
 */
export function clockChangeNotice(r: WallTimeResolution): string | null {
  const t = r.transition;
  if (r.local.wallTimeKind === 'normal' || t === null) return null;
  const zone = r.local.timezone;
  const before = wallOfLocalMs(t.at + t.offsetBefore);
  const after = wallOfLocalMs(t.at + t.offsetAfter);
  const change =
    before.date === after.date
      ? `on ${before.date} from ${before.time} to ${after.time}`
      : `from ${before.date} ${before.time} to ${after.date} ${after.time}`;
  const offsets = `(UTC offset ${formatOffset(t.offsetBefore)} to ${formatOffset(t.offsetAfter)})`;
  const req = r.requested;
  if (r.local.wallTimeKind === 'nonexistent_shifted') {
    const sameDay = r.local.date === req.date;
    return sameDay
      ? `Clocks in ${zone} go forward ${change} ${offsets}, so ${req.time} does not exist that day; the call rings at ${r.local.time} instead.`
      : `Clocks in ${zone} go forward ${change} ${offsets}, so ${req.time} on ${req.date} does not exist; the call rings at ${r.local.time} on ${r.local.date} instead.`;
  }
  return `Clocks in ${zone} go back ${change} ${offsets}, so ${req.time} happens twice; the call rings at the first ${req.time} (UTC offset ${formatOffset(t.offsetBefore)}), not the second (${formatOffset(t.offsetAfter)}).`;
}

function wallOfLocalMs(local: number): { date: string; time: string } {
  const day = Math.floor(local / MS_PER_DAY);
  return {
    date: formatDate(day),
    time: formatTime(Math.floor((local - day * MS_PER_DAY) / 60_000)),
  };
}
