import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { tzdataVersion, zoneDisplayName, zoneInfo } from '../../host/reference/zone-info.js';

const at = (s: string) => Date.parse(s);

describe('zoneInfo(zone, now)', () => {
  it('describes New York in winter with the spring-forward change ahead', () => {
    assert.deepEqual(zoneInfo('America/New_York', at('2027-01-15T12:00:00Z')), {
      timezone: 'America/New_York',
      displayName: 'Eastern Time (New York, United States)',
      abbreviation: 'EST',
      utcOffset: '-05:00',
      nowLocal: '2027-01-15T07:00:00',
      isDst: false,
      nextTransition: {
        at: at('2027-03-14T07:00:00Z'),
        localBefore: '2027-03-14T02:00',
        localAfter: '2027-03-14T03:00',
        offsetAfter: '-04:00',
      },
    });
  });
  it('describes Berlin in summer (DST) with the fall-back change ahead', () => {
    const info = zoneInfo('Europe/Berlin', at('2027-07-01T10:00:00Z'));
    assert.deepEqual(
      [info.abbreviation, info.utcOffset, info.nowLocal, info.isDst],
      ['CEST', '+02:00', '2027-07-01T12:00:00', true],
    );
    assert.deepEqual(info.nextTransition, {
      at: at('2027-10-31T01:00:00Z'),
      localBefore: '2027-10-31T03:00',
      localAfter: '2027-10-31T02:00',
      offsetAfter: '+01:00',
    });
  });
  it('has no next transition where the clock never changes', () => {
    const info = zoneInfo('Asia/Kolkata', at('2027-01-15T12:00:00Z'));
    assert.deepEqual(
      [info.displayName, info.abbreviation, info.utcOffset, info.isDst, info.nextTransition],
      ['India Standard Time (Kolkata, India)', 'IST', '+05:30', false, null],
    );
    const utc = zoneInfo('UTC', at('2027-01-15T12:00:00Z'));
    assert.deepEqual(
      [utc.displayName, utc.abbreviation, utc.utcOffset, utc.nowLocal, utc.nextTransition],
      ['Coordinated Universal Time', 'UTC', '+00:00', '2027-01-15T12:00:00', null],
    );
  });
  it('sees the southern summer and the 30-minute Lord Howe change', () => {
    const info = zoneInfo('Australia/Lord_Howe', at('2027-01-15T00:00:00Z'));
    assert.deepEqual([info.abbreviation, info.utcOffset, info.isDst], ['LHDT', '+11:00', true]);
    assert.deepEqual(info.nextTransition, {
      at: at('2027-04-03T15:00:00Z'),
      localBefore: '2027-04-04T02:00',
      localAfter: '2027-04-04T01:30',
      offsetAfter: '+10:30',
    });
  });
  it('counts Irish summer time as DST', () => {
    assert.equal(zoneInfo('Europe/Dublin', at('2027-07-01T00:00:00Z')).isDst, true);
    assert.equal(zoneInfo('Europe/Dublin', at('2027-01-01T00:00:00Z')).isDst, false);
  });
});

describe('tzdataVersion()', () => {
  it('is the release the runtime really uses', () => {
    assert.equal(tzdataVersion(), process.versions.tz);
    assert.match(tzdataVersion(), /^\d{4}[a-z]$/);
  });
});

describe('zoneDisplayName(zone, at)', () => {
  it('names the place, and the common name where CLDR has one', () => {
    const t = Date.parse('2027-01-15T12:00:00Z');
    assert.equal(
      zoneDisplayName('America/Argentina/Buenos_Aires', t),
      'Argentina Standard Time (Buenos Aires, Argentina)',
    );
    assert.equal(zoneDisplayName('Asia/Qostanay', t), 'Kazakhstan Time (Qostanay, Kazakhstan)');
    assert.ok(
      zoneDisplayName('Antarctica/DumontDUrville', t).endsWith("(Dumont d'Urville, Antarctica)"),
    );
  });
});
