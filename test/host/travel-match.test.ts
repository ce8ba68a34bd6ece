/** Travel matching (host/devices/travel-match.ts): calls whose clock differs from the device's, and the suggested move. */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  findTravelMismatches,
  suggestMove,
  type TravelOccurrence,
} from '../../host/devices/travel-match.js';

const at = (s: string) => Date.parse(s);
const occ = (
  id: string,
  when: string,
  timezone: string,
  localTime: string | null,
): TravelOccurrence => ({
  occurrenceId: id,
  scheduleId: `s-${id}`,
  at: at(when),
  timezone,
  localTime,
});

describe('findTravelMismatches(deviceZone, occurrences, now)', () => {
  it('lists calls in the next 36 hours whose clock differs, with the same wall time on the device clock', () => {
    // Tuesday 07:00 in New York; the person is in Tokyo on Monday 22:00 New York time.
    const now = at('2027-06-08T02:00:00Z'); // Mon 22:00 New York, Tue 11:00 Tokyo
    const list = findTravelMismatches(
      'Asia/Tokyo',
      [occ('a', '2027-06-08T11:00:00Z', 'America/New_York', '07:00')],
      now,
    );
    assert.deepEqual(list, [
      {
        occurrenceId: 'a',
        scheduleId: 's-a',
        scheduledAt: at('2027-06-08T11:00:00Z'),
        scheduledLocal: '07:00',
        scheduledLocalDate: '2027-06-08',
        scheduledZone: 'America/New_York',
        scheduledUtcOffset: '-04:00',
        inDeviceZone: '20:00',
        inDeviceZoneDate: '2027-06-08',
        deviceZone: 'Asia/Tokyo',
        deviceUtcOffset: '+09:00',
        // Tuesday 07:00 in Tokyo has passed (it is 11:00 there): Wednesday 07:00.
        suggested: {
          localDate: '2027-06-09',
          localTime: '07:00',
          timezone: 'Asia/Tokyo',
          scheduledAt: at('2027-06-08T22:00:00Z'),
          utcOffset: '+09:00',
          wallTimeKind: 'normal',
        },
      },
    ]);
  });
  it("keeps the occurrence's own date when that wall time is still ahead on the device clock", () => {
    const now = at('2027-06-07T12:00:00Z'); // Mon 08:00 New York, Mon 21:00 Tokyo
    const [m] = findTravelMismatches(
      'Asia/Tokyo',
      [occ('a', '2027-06-08T11:00:00Z', 'America/New_York', '07:00')],
      now,
    );
    assert.equal(m!.suggested!.localDate, '2027-06-08');
    assert.equal(m!.suggested!.scheduledAt, at('2027-06-07T22:00:00Z'));
  });
  it('ignores calls outside the window and zones on the same clock', () => {
    const now = at('2027-06-07T00:00:00Z');
    const list = findTravelMismatches(
      'Europe/Berlin',
      [
        occ('same', '2027-06-07T05:00:00Z', 'Europe/Paris', '07:00'),
        occ('past', '2027-06-06T23:59:00Z', 'America/New_York', '07:00'),
        occ('late', '2027-06-08T12:00:01Z', 'America/New_York', '07:00'),
        occ('edge', '2027-06-08T12:00:00Z', 'America/New_York', '08:00'),
      ],
      now,
    );
    assert.deepEqual(
      list.map((m) => m.occurrenceId),
      ['edge'],
    );
  });
  it('accepts the device zone under an old spelling and answers the current one', () => {
    const [m] = findTravelMismatches(
      'Asia/Calcutta',
      [occ('a', '2027-06-08T11:00:00Z', 'America/New_York', '07:00')],
      at('2027-06-07T12:00:00Z'),
    );
    assert.equal(m!.deviceZone, 'Asia/Kolkata');
    assert.equal(m!.deviceUtcOffset, '+05:30');
    assert.throws(() => findTravelMismatches('EST', [], 0), RangeError);
  });
  it('offers no suggestion for a call made "in N minutes"', () => {
    const [m] = findTravelMismatches(
      'Asia/Tokyo',
      [occ('a', '2027-06-08T11:00:00Z', 'America/New_York', null)],
      at('2027-06-08T10:00:00Z'),
    );
    assert.equal(m!.suggested, null);
  });
  it('suggests by the wall-time policy when the wall time falls in a gap on the device clock', () => {
    const s = suggestMove(
      occ('a', '2027-03-14T06:30:00Z', 'Europe/London', '02:30'),
      'America/New_York',
      at('2027-03-13T00:00:00Z'),
    );
    assert.deepEqual(s, {
      localDate: '2027-03-14',
      localTime: '02:30',
      timezone: 'America/New_York',
      scheduledAt: at('2027-03-14T07:00:00Z'),
      utcOffset: '-04:00',
      wallTimeKind: 'nonexistent_shifted',
    });
  });
});
