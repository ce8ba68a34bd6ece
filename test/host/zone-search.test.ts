import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { listAcceptedZones } from '../../engine/internals.js';
import { POPULAR_ZONES, searchZones } from '../../host/reference/zone-search.js';

const now = Date.parse('2027-01-15T12:00:00Z');
const first = (q: string) => searchZones(q, now, 1)[0];

describe('searchZones(query, now, limit)', () => {
  it('finds a city first, with its offset and abbreviation now', () => {
    assert.deepEqual(first('new york'), {
      timezone: 'America/New_York',
      label: 'New York, United States',
      kind: 'city',
      countryCode: 'US',
      abbreviation: 'EST',
      utcOffset: '-05:00',
    });
    assert.equal(first('New_York')!.timezone, 'America/New_York');
    assert.equal(first('sao paulo')!.timezone, 'America/Sao_Paulo');
    assert.equal(first('São Paulo')!.timezone, 'America/Sao_Paulo');
    assert.equal(first('buenos')!.timezone, 'America/Argentina/Buenos_Aires');
  });
  it('finds old city spellings under the current zone', () => {
    assert.equal(first('Calcutta')!.timezone, 'Asia/Kolkata');
    assert.equal(first('kiev')!.timezone, 'Europe/Kyiv');
    assert.equal(first('saigon')!.timezone, 'Asia/Ho_Chi_Minh');
  });
  it('finds the zones of a country', () => {
    const r = searchZones('germany', now, 10);
    assert.deepEqual(
      r.map((m) => [m.timezone, m.kind]),
      [
        ['Europe/Berlin', 'country'],
        ['Europe/Busingen', 'country'],
      ],
    );
    assert.ok(searchZones('united states', now, 50).length > 20);
    assert.equal(first('japan')!.timezone, 'Asia/Tokyo');
  });
  it('finds an airport by its exact IATA code', () => {
    assert.deepEqual(first('JFK'), {
      timezone: 'America/New_York',
      label: 'JFK airport (New York, United States)',
      kind: 'airport',
      countryCode: 'US',
      abbreviation: 'EST',
      utcOffset: '-05:00',
    });
    assert.equal(first('lhr')!.timezone, 'Europe/London');
    assert.equal(first('nrt')!.timezone, 'Asia/Tokyo');
    assert.equal(
      first('kbp')!.timezone,
      'Europe/Kyiv',
      'airport data with a legacy zone name is mapped to the current one',
    );
  });
  it('finds IANA names, common names and abbreviations', () => {
    assert.equal(first('america/new_y')!.timezone, 'America/New_York');
    assert.equal(first('Europe/Kiev')!.timezone, 'Europe/Kyiv');
    assert.equal(first('utc')!.timezone, 'UTC');
    assert.equal(first('utc')!.countryCode, null);
    assert.ok(
      searchZones('pst', now, 10).some(
        (m) => m.timezone === 'America/Los_Angeles' && m.kind === 'zone',
      ),
    );
    assert.ok(searchZones('central european', now, 50).some((m) => m.timezone === 'Europe/Paris'));
  });
  it('ranks exact before prefix before substring, one result per zone', () => {
    const r = searchZones('paris', now, 50);
    assert.equal(r[0]!.timezone, 'Europe/Paris');
    assert.equal(new Set(r.map((m) => m.timezone)).size, r.length);
    assert.deepEqual(searchZones('zzzzqqq', now, 10), []);
  });
  it('lists the popular zones for an empty query, within the limit', () => {
    const r = searchZones('', now, 50);
    assert.equal(r.length, 50);
    assert.deepEqual(
      r.slice(0, 3).map((m) => m.timezone),
      ['UTC', 'Asia/Kolkata', 'Asia/Shanghai'],
    );
    assert.equal(r[0]!.kind, 'zone');
    assert.equal(r[1]!.label, 'Kolkata, India');
    assert.equal(searchZones('', now).length, 10);
    assert.equal(new Set(POPULAR_ZONES).size, 50);
    for (const z of POPULAR_ZONES) assert.ok(listAcceptedZones().includes(z), z);
  });
  it('only returns accepted zones, and takes limit 1..50', () => {
    const accepted = new Set(listAcceptedZones());
    for (const q of ['a', 'e', 'an', 'sa', 'st', 'ber', 'jfk', 'mst'])
      for (const m of searchZones(q, now, 50)) assert.ok(accepted.has(m.timezone), m.timezone);
    assert.throws(() => searchZones('x', now, 0), RangeError);
    assert.throws(() => searchZones('x', now, 51), RangeError);
  });
});
