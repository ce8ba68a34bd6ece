import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { resolveWallTime } from '../../engine/index.js';
import { getZoneRules, listAcceptedZones } from '../../engine/internals.js';
import { SCALE, isoDate, oracleLocal, oracleResolve } from './time-oracle.js';

const ZONES = listAcceptedZones();
const DAY = 86_400_000;
const FIRST_DAY = Date.UTC(1970, 0, 1) / DAY;
const LAST_DAY = Date.UTC(2037, 11, 31) / DAY;

function hhmm(minute: number): string {
  return `${String(Math.floor(minute / 60)).padStart(2, '0')}:${String(minute % 60).padStart(2, '0')}`;
}

/** Checks one (zone, day, minute) against the oracle. */
function check(zone: string, day: number, minute: number): void {
  const wall = day * DAY + minute * 60_000;
  const expected = oracleResolve(zone, wall);
  const r = resolveWallTime(zone, isoDate(day), hhmm(minute));
  const where = `${zone} ${isoDate(day)} ${hhmm(minute)}`;
  assert.equal(
    r.at,
    expected.at,
    `${where}: instant ${new Date(r.at).toISOString()} != oracle ${new Date(expected.at).toISOString()}`,
  );
  assert.equal(r.local.wallTimeKind, expected.kind, `${where}: kind`);
  // The reported local reading is the oracle's reading of the instant.
  const local = oracleLocal(zone, r.at);
  assert.equal(
    `${r.local.date} ${r.local.time}`,
    `${isoDate(Math.floor(local / DAY))} ${hhmm(Math.floor((((local % DAY) + DAY) % DAY) / 60_000))}`,
    `${where}: local`,
  );
  if (expected.kind !== 'nonexistent_shifted')
    assert.equal(local, wall, `${where}: the instant shows the requested wall time`);
}

describe('resolveWallTime(zone, date, time) against an Intl oracle', () => {
  it('matches the oracle for any zone, date 1970-2037 and time', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...ZONES),
        fc.integer({ min: FIRST_DAY, max: LAST_DAY }),
        fc.integer({ min: 0, max: 1439 }),
        (zone, day, minute) => {
          check(zone, day, minute);
        },
      ),
      { numRuns: 400 * SCALE },
    );
  });

  it('rings once at the first valid minute in a gap and at the earlier instant in an overlap (near real clock changes)', () => {
    let nearChanges = 0;
    fc.assert(
      fc.property(
        fc.constantFrom(...ZONES),
        fc.integer({ min: FIRST_DAY, max: LAST_DAY }),
        fc.nat(),
        fc.integer({ min: -90, max: 90 }),
        (zone, day, pick, delta) => {
          // Find a clock change of this zone within 200 days of `day` and probe wall times around it.
          const transitions = getZoneRules(zone).transitionsBetween(day * DAY, (day + 200) * DAY);
          if (transitions.length === 0) return;
          const t = transitions[pick % transitions.length]!;
          const pivot = t.at + Math.min(t.offsetBefore, t.offsetAfter); // the lower wall edge of the change
          const span = Math.abs(t.offsetAfter - t.offsetBefore) / 60_000;
          const wallMinute = Math.floor(pivot / 60_000) + Math.round((delta / 90) * (span + 30));
          const wall = wallMinute * 60_000;
          const wallDay = Math.floor(wall / DAY);
          if (wallDay < FIRST_DAY - 1 || wallDay > LAST_DAY + 1) return;
          nearChanges++;
          check(zone, wallDay, Math.floor((wall - wallDay * DAY) / 60_000));
        },
      ),
      { numRuns: 600 * SCALE },
    );
    assert.ok(nearChanges > 60 * SCALE, `only ${nearChanges} probes landed near a clock change`);
  });

  it('handles the gaps and overlaps of every zone whose clock changed between 1970 and 2037 (one year per zone)', () => {
    // Deterministic sweep. For each zone, the years with a change are found independently
    // (quarterly samples of the oracle's offset, enough to see DST in either hemisphere and
    // any lasting change); one of them (varying by zone) is taken, and
    // each of its changes is probed at the minute before the gap or overlap, its first
    // minute, its middle, its last minute and the minute after.
    let probed = 0;
    let zonesWithChanges = 0;
    ZONES.forEach((zone, i) => {
      const years: number[] = [];
      let prev = NaN;
      for (let y = 1970; y <= 2037; y++) {
        let changed = false;
        for (let m = 0; m < 12; m += 3) {
          const t = Date.UTC(y, m, 15);
          const o = oracleLocal(zone, t) - t;
          if (!Number.isNaN(prev) && o !== prev) changed = true;
          prev = o;
        }
        if (changed) years.push(y);
      }
      if (years.length === 0) return;
      zonesWithChanges++;
      const year = years[(i * 7) % years.length]!;
      const transitions = getZoneRules(zone).transitionsBetween(
        Date.UTC(year - 1, 9, 15),
        Date.UTC(year, 9, 15),
      );
      assert.ok(
        transitions.length > 0,
        `${zone}: the oracle saw a change in ${year}, the engine none`,
      );
      for (const t of transitions.slice(0, 2 * SCALE)) {
        const low = Math.floor((t.at + Math.min(t.offsetBefore, t.offsetAfter)) / 60_000);
        const high = Math.ceil((t.at + Math.max(t.offsetBefore, t.offsetAfter)) / 60_000);
        for (const m of [low - 1, low, Math.floor((low + high) / 2), high - 1, high]) {
          const day = Math.floor((m * 60_000) / DAY);
          check(zone, day, m - day * 1440);
          probed++;
        }
      }
    });
    assert.ok(zonesWithChanges > 250, `only ${zonesWithChanges} zones changed their clocks`);
    assert.ok(probed > 5 * zonesWithChanges, `probed ${probed}`);
  });
});
