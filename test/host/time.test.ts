import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { req } from '../helpers/http.js';
import { signIn, startTestServer } from '../helpers/server.js';

type Server = Awaited<ReturnType<typeof startTestServer>>;

/** A fixed service time (the virtual clock starts there: POST /dev/clock jumps at most five years). */
const NOW = '2036-01-15T12:00:00Z';

describe('time routes: GET /time and GET /timezones', () => {
  let server: Server;
  before(async () => {
    server = await startTestServer({ env: { WAKEUP_CLOCK_START: NOW } });
  });
  after(() => server.close());

  describe('GET /time', () => {
    it('is public: without credentials it reports UTC at the service time, with the tzdata the runtime uses', async () => {
      const r = await req(server.api, 'GET', '/time');
      assert.equal(r.status, 200, r.text);
      assert.equal(r.body.now_utc, NOW);
      assert.equal(r.body.tzdata_version, process.versions.tz);
      assert.deepEqual(r.body.zones, [
        {
          timezone: 'UTC',
          display_name: 'Coordinated Universal Time',
          abbreviation: 'UTC',
          utc_offset: '+00:00',
          now_local: '2036-01-15T12:00:00',
          is_dst: false,
          next_transition: null,
        },
      ]);
    });

    it("adds the signed-in caller's home zone", async () => {
      const { token } = await signIn(server);
      const patch = await req(server.api, 'PATCH', '/me', {
        token,
        body: { home_timezone: 'Asia/Calcutta' },
      });
      assert.equal(patch.status, 200, patch.text);
      const r = await req(server.api, 'GET', '/time', { token });
      assert.equal(r.status, 200, r.text);
      assert.deepEqual(
        r.body.zones.map((z: { timezone: string }) => z.timezone),
        ['UTC', 'Asia/Kolkata'],
      );
      assert.deepEqual(r.body.zones[1], {
        timezone: 'Asia/Kolkata',
        display_name: 'India Standard Time (Kolkata, India)',
        abbreviation: 'IST',
        utc_offset: '+05:30',
        now_local: '2036-01-15T17:30:00',
        is_dst: false,
        next_transition: null,
      });
    });

    it('reports the zones asked for, canonical and once each, with the next clock change', async () => {
      const r = await req(
        server.api,
        'GET',
        `/time?zones=${encodeURIComponent('America/New_York, Europe/Kiev,America/New_York,UTC')}`,
      );
      assert.equal(r.status, 200, r.text);
      assert.deepEqual(
        r.body.zones.map((z: { timezone: string }) => z.timezone),
        ['America/New_York', 'Europe/Kyiv', 'UTC'],
      );
      assert.deepEqual(r.body.zones[0], {
        timezone: 'America/New_York',
        display_name: 'Eastern Time (New York, United States)',
        abbreviation: 'EST',
        utc_offset: '-05:00',
        now_local: '2036-01-15T07:00:00',
        is_dst: false,
        next_transition: {
          at: '2036-03-09T07:00:00Z',
          local_before: '2036-03-09T02:00',
          local_after: '2036-03-09T03:00',
          offset_after: '-04:00',
        },
      });
    });

    it('refuses abbreviations and legacy aliases with invalid_timezone and fixed offsets with timezone_not_allowed', async () => {
      for (const [zones, code] of [
        ['US/Eastern', 'invalid_timezone'],
        ['Europe/Paris,EST', 'invalid_timezone'],
        ['Europe/Paris,,UTC', 'invalid_timezone'],
        ['Etc/GMT+5', 'timezone_not_allowed'],
        ['+05:00', 'timezone_not_allowed'],
      ] as const) {
        const r = await req(server.api, 'GET', `/time?zones=${encodeURIComponent(zones)}`);
        assert.equal(r.status, 400, zones);
        assert.equal(r.body.code, code, zones);
        assert.equal(r.body.field, 'zones', zones);
        assert.match(r.headers.get('content-type') ?? '', /application\/problem\+json/);
      }
    });

    it('takes at most 50 zones', async () => {
      const fifty = Array(50).fill('Europe/Paris').join(',');
      assert.equal((await req(server.api, 'GET', `/time?zones=${fifty}`)).status, 200);
      const r = await req(server.api, 'GET', `/time?zones=${fifty},UTC`);
      assert.equal(r.status, 400);
      assert.equal(r.body.code, 'validation_error');
      assert.equal(r.body.errors[0].field, 'zones');
    });
  });

  describe('GET /timezones', () => {
    it('is public and ranks a city first, with the offset in force now', async () => {
      const r = await req(server.api, 'GET', `/timezones?q=${encodeURIComponent('new york')}`);
      assert.equal(r.status, 200, r.text);
      assert.deepEqual(r.body.items[0], {
        timezone: 'America/New_York',
        label: 'New York, United States',
        kind: 'city',
        country_code: 'US',
        abbreviation: 'EST',
        utc_offset: '-05:00',
      });
    });

    it('finds countries, airports and IANA names', async () => {
      const first = async (q: string) =>
        (await req(server.api, 'GET', `/timezones?q=${encodeURIComponent(q)}&limit=1`)).body
          .items[0];
      assert.deepEqual(
        [(await first('Germany')).timezone, (await first('Germany')).kind],
        ['Europe/Berlin', 'country'],
      );
      assert.deepEqual(
        [(await first('LHR')).timezone, (await first('LHR')).kind],
        ['Europe/London', 'airport'],
      );
      assert.deepEqual(
        [(await first('Asia/Calcutta')).timezone, (await first('Asia/Calcutta')).kind],
        ['Asia/Kolkata', 'zone'],
      );
      const utc = await first('UTC');
      assert.deepEqual([utc.timezone, utc.country_code], ['UTC', '']);
    });

    it('takes limit 1..50 (default 10) and lists popular zones for an empty q', async () => {
      const none = await req(server.api, 'GET', '/timezones');
      assert.equal(none.status, 200);
      assert.equal(none.body.items.length, 10);
      assert.equal(none.body.items[0].timezone, 'UTC');
      assert.equal((await req(server.api, 'GET', '/timezones?q=a&limit=50')).body.items.length, 50);
      for (const limit of ['0', '51', 'ten']) {
        const r = await req(server.api, 'GET', `/timezones?q=a&limit=${limit}`);
        assert.equal(r.status, 400, limit);
        assert.equal(r.body.code, 'validation_error', limit);
        assert.equal(r.body.errors[0].field, 'limit', limit);
      }
    });
  });
});
