/**
 * An independent oracle for wall-time resolution, for the property tests. It imports
 * nothing from engine/: it asks `Intl.DateTimeFormat` for the local reading of instants and
 * derives the answer by brute force.
 *
 * Definition it implements: the call for wall time W rings at the earliest instant whose
 * local reading is at or after W. So: if one instant reads W, that one (normal); if two do,
 * the earlier (ambiguous_first); if none does (a gap), the first instant after the gap.
 *
 * Method: every offset the zone uses within ±16 h of W is found by sampling every 15
 * minutes (no period of constant offset is shorter than that); each offset o gives the
 * candidate W - o, kept when its local reading is exactly W. With no candidate, the first
 * instant reading ≥ W is found by a 15-minute, then minute, then second scan.
 */

const HOUR = 3_600_000;
const formats = new Map<string, Intl.DateTimeFormat>();

function fmt(zone: string): Intl.DateTimeFormat {
  let f = formats.get(zone);
  if (f === undefined) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    formats.set(zone, f);
  }
  return f;
}

/** The local reading of instant `t` in `zone`, as "wall milliseconds" (the reading taken as if UTC). */
export function oracleLocal(zone: string, t: number): number {
  const parts: Record<string, number> = {};
  for (const p of fmt(zone).formatToParts(t))
    if (p.type !== 'literal') parts[p.type] = Number(p.value);
  return Date.UTC(
    parts.year!,
    parts.month! - 1,
    parts.day,
    parts.hour! % 24,
    parts.minute,
    parts.second,
  );
}

/** The oracle's answer for wall time `wall` (wall milliseconds, minute-aligned). */
export function oracleResolve(
  zone: string,
  wall: number,
): { at: number; kind: 'normal' | 'ambiguous_first' | 'nonexistent_shifted' } {
  const from = wall - 16 * HOUR;
  const offsets = new Set<number>();
  const samples: Array<[number, number]> = [];
  for (let t = from; t <= wall + 16 * HOUR; t += 15 * 60_000) {
    const local = oracleLocal(zone, t);
    offsets.add(local - t);
    samples.push([t, local]);
  }
  const valid = [...offsets]
    .map((o) => wall - o)
    .filter((t) => oracleLocal(zone, t) === wall)
    .sort((a, b) => a - b);
  if (valid.length > 0)
    return { at: valid[0]!, kind: valid.length > 1 ? 'ambiguous_first' : 'normal' };
  // A gap: the first instant reading at or after `wall`.
  const k = samples.findIndex(([, local]) => local >= wall);
  if (k <= 0)
    throw new Error(`oracle: no reading ≥ wall near ${new Date(wall).toISOString()} in ${zone}`);
  let t = samples[k - 1]![0];
  while (oracleLocal(zone, t) < wall) t += 60_000;
  let s = t - 60_000;
  while (oracleLocal(zone, s) < wall) s += 1000;
  return { at: s, kind: 'nonexistent_shifted' };
}

/** Whether any instant has local date `day` (days since 1970-01-01) in `zone`. */
export function oracleDayExists(zone: string, day: number): boolean {
  const first = oracleResolve(zone, day * 86_400_000);
  return Math.floor(oracleLocal(zone, first.at) / 86_400_000) === day;
}

/** `YYYY-MM-DD` of a day number (via Date, independent of the engine's civil arithmetic). */
export function isoDate(day: number): string {
  return new Date(day * 86_400_000).toISOString().slice(0, 10);
}

/** Property-test scale: `WAKEUP_PROPERTY_SCALE` (default 1). */
export const SCALE = Number(process.env.WAKEUP_PROPERTY_SCALE ?? 1);
