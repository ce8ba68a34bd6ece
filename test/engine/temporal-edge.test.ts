/**
 * Temporal at the engine's edge (docs/decisions/0017): PlainDate, PlainTime, Instant and
 * ZonedDateTime in, the engine's strings and epoch ms inside, ZonedDateTime out, resolved by
 * the engine's wall-time policy. Runs with the global Temporal where the runtime has one
 * (Node 26: CI's second suite) and with @js-temporal/polyfill passed in everywhere.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Temporal as Polyfill } from '@js-temporal/polyfill';
import {
  epochMsFrom,
  localDateFrom,
  localTimeFrom,
  nextOccurrenceAfter,
  occurrenceTimeToTemporal,
  resolveWallTimeTemporal,
  zonedDateTimeAt,
} from '../../engine/index.js';
import type {
  PlainDateLike,
  PlainTimeLike,
  TemporalNamespace,
  WeeklyRecurrence,
} from '../../engine/index.js';

const global = (globalThis as { Temporal?: typeof Polyfill }).Temporal;
const flavours: [string, typeof Polyfill | undefined][] = [
  ['the polyfill, passed in', Polyfill],
  ['the global Temporal (Node 26)', global],
];

for (const [name, T] of flavours) {
  describe(`Temporal at the edge: ${name}`, () => {
    const skip = T ? false : 'this runtime has no global Temporal';
    const options =
      T === global ? undefined : { temporal: Polyfill as unknown as TemporalNamespace };
    const date = (s: string) => T!.PlainDate.from(s) as unknown as PlainDateLike;
    const time = (s: string) => T!.PlainTime.from(s) as unknown as PlainTimeLike;

    it(
      'localDateFrom / localTimeFrom turn PlainDate and PlainTime into the engine strings; strings pass through',
      { skip },
      () => {
        assert.equal(localDateFrom(date('2027-03-14')), '2027-03-14');
        assert.equal(localDateFrom('2027-03-14'), '2027-03-14');
        assert.equal(localTimeFrom(time('07:05')), '07:05');
        assert.equal(localTimeFrom('07:05'), '07:05');
      },
    );

    it(
      'refuses a time with seconds, a date in another calendar, and values of another kind',
      { skip },
      () => {
        assert.throws(() => localTimeFrom(time('07:00:30')), /whole minute/);
        assert.throws(
          () => localDateFrom(T!.PlainDate.from('2027-03-14').withCalendar('japanese')),
          /ISO calendar/,
        );
        assert.throws(() => localDateFrom(time('07:00') as never), /PlainDate/);
        assert.throws(() => localTimeFrom({ hour: 7, minute: 0 } as never), /PlainTime/);
        assert.throws(() => epochMsFrom('2027' as never), /epoch milliseconds/);
      },
    );

    it('epochMsFrom reads an Instant and a ZonedDateTime; numbers pass through', { skip }, () => {
      const at = Date.parse('2027-03-01T12:00:00Z');
      assert.equal(epochMsFrom(T!.Instant.from('2027-03-01T12:00:00Z') as never), at);
      assert.equal(
        epochMsFrom(T!.ZonedDateTime.from('2027-03-01T07:00:00-05:00[America/New_York]') as never),
        at,
      );
      assert.equal(epochMsFrom(at), at);
    });

    it(
      "resolves by the engine's policy: a gap rings at the clock change, not an hour late as 'compatible' does",
      { skip },
      () => {
        const gap = resolveWallTimeTemporal(
          'America/New_York',
          date('2027-03-14'),
          time('02:30'),
          options,
        );
        assert.equal(gap.zoned.toString(), '2027-03-14T03:00:00-04:00[America/New_York]');
        assert.equal(gap.kind, 'nonexistent_shifted');
        const compatible = T!.PlainDateTime.from('2027-03-14T02:30').toZonedDateTime(
          'America/New_York',
          { disambiguation: 'compatible' },
        );
        assert.equal(compatible.toString(), '2027-03-14T03:30:00-04:00[America/New_York]');
        const overlap = resolveWallTimeTemporal('America/New_York', '2027-11-07', '01:30', options);
        assert.equal(overlap.zoned.toString(), '2027-11-07T01:30:00-04:00[America/New_York]');
        assert.equal(overlap.kind, 'ambiguous_first');
        assert.equal(overlap.resolution.at, overlap.zoned.epochMilliseconds);
      },
    );

    it(
      'a weekly series from PlainDate/PlainTime, its next call as a ZonedDateTime',
      { skip },
      () => {
        const rule: WeeklyRecurrence = {
          kind: 'weekly',
          timezone: 'America/New_York',
          localTime: localTimeFrom(time('07:00')),
          daysOfWeek: ['mon', 'wed', 'fri'],
          startDate: localDateFrom(date('2027-03-01')),
          endDate: null,
          pausedUntil: null,
          skipDates: [],
        };
        const next = occurrenceTimeToTemporal(
          nextOccurrenceAfter(rule, Date.parse('2027-03-13T00:00:00Z'))!,
          options,
        );
        assert.equal(next.at.toString(), '2027-03-15T07:00:00-04:00[America/New_York]');
        assert.equal(localDateFrom(next.date), '2027-03-15');
        assert.equal(next.kind, 'normal');
        assert.equal(
          zonedDateTimeAt(next.at.epochMilliseconds, 'Europe/Paris', options).toString(),
          '2027-03-15T12:00:00+01:00[Europe/Paris]',
        );
      },
    );
  });
}

describe('Temporal at the edge without a Temporal', () => {
  it(
    'says where to get one when the runtime has no global and none is passed',
    { skip: global ? 'this runtime has a global Temporal' : false },
    () => {
      assert.throws(() => zonedDateTimeAt(0, 'UTC'), /Node 26 has it as a global/);
      // Reading Temporal values needs no namespace: strings and numbers still work.
      assert.equal(localDateFrom('2027-01-01'), '2027-01-01');
    },
  );
});
