import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import ct from 'countries-and-timezones';
import { checkTimeZone } from '../../engine/index.js';
import { listAcceptedZones, CLDR_SPELLINGS } from '../../engine/internals.js';
import { ZONE_TAB } from '../../engine/time/data/zone-tab.js';

describe('checkTimeZone', () => {
  it('accepts city zones and UTC as they are', () => {
    for (const z of [
      'America/New_York',
      'Europe/Berlin',
      'Asia/Kolkata',
      'Europe/Kyiv',
      'Europe/Amsterdam',
      'America/Argentina/Buenos_Aires',
      'UTC',
    ]) {
      assert.deepEqual(checkTimeZone(z), { ok: true, timezone: z });
    }
  });
  it('answers Etc/UTC, other casing and the CLDR spellings under the canonical name', () => {
    assert.deepEqual(checkTimeZone('Etc/UTC'), { ok: true, timezone: 'UTC' });
    assert.deepEqual(checkTimeZone('utc'), { ok: true, timezone: 'UTC' });
    assert.deepEqual(checkTimeZone('america/new_york'), { ok: true, timezone: 'America/New_York' });
    assert.deepEqual(checkTimeZone('Asia/Calcutta'), { ok: true, timezone: 'Asia/Kolkata' });
    assert.deepEqual(checkTimeZone('Europe/Kiev'), { ok: true, timezone: 'Europe/Kyiv' });
    assert.deepEqual(checkTimeZone('America/Godthab'), { ok: true, timezone: 'America/Nuuk' });
  });
  it('refuses abbreviations and legacy aliases with invalid_timezone', () => {
    for (const z of [
      'EST',
      'CET',
      'PST8PDT',
      'GMT',
      'US/Eastern',
      'Japan',
      'GB',
      'Canada/Pacific',
      'America/Montreal',
      'Asia/Istanbul',
      'Factory',
      'Mars/Olympus',
      '',
      ' America/New_York',
      'x'.repeat(100),
    ]) {
      assert.deepEqual(checkTimeZone(z), { ok: false, code: 'invalid_timezone' }, z);
    }
  });
  it('refuses fixed offsets with timezone_not_allowed', () => {
    for (const z of [
      'Etc/GMT+5',
      'Etc/GMT-14',
      'Etc/GMT',
      'Etc/UCT',
      'Etc/Zulu',
      '+05:00',
      '-0500',
      '+5',
      'UTC+5',
      'GMT-03:30',
      'UTC+05:30',
      '\u221202:00',
    ]) {
      assert.deepEqual(checkTimeZone(z), { ok: false, code: 'timezone_not_allowed' }, z);
    }
  });
  it('covers every zone the runtime lists: each is a zone.tab name or a CLDR spelling', () => {
    const tab = new Set(ZONE_TAB.map((r) => r[1]));
    for (const z of Intl.supportedValuesOf('timeZone')) {
      if (z === 'UTC') continue;
      assert.ok(
        tab.has(z) || z in CLDR_SPELLINGS,
        `runtime zone ${z} is neither in zone.tab nor a CLDR spelling`,
      );
    }
    for (const [old, current] of Object.entries(CLDR_SPELLINGS)) {
      assert.ok(tab.has(current), `${old} maps to ${current}, which is not in zone.tab`);
    }
  });
  it('refuses every legacy alias of the tz backward file that is not a CLDR spelling', () => {
    // countries-and-timezones carries tzdata's backward links as `aliasOf`.
    const tab = new Set(ZONE_TAB.map((r) => r[1]));
    let refused = 0;
    for (const z of Object.values(ct.getAllTimezones({ deprecated: true }))) {
      if (z.aliasOf === null || tab.has(z.name) || z.name in CLDR_SPELLINGS || z.name === 'UTC')
        continue;
      const r = checkTimeZone(z.name);
      assert.equal(r.ok, false, z.name);
      refused++;
    }
    assert.ok(refused > 100);
  });
  it('lists every accepted zone once, each accepted unchanged', () => {
    const zones = listAcceptedZones();
    assert.ok(zones.length >= 418);
    assert.equal(new Set(zones).size, zones.length);
    for (const z of zones) assert.deepEqual(checkTimeZone(z), { ok: true, timezone: z });
  });
});
