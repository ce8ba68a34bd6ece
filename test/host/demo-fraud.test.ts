/**
 * SMS-pumping drill through HTTP: 1,000 POST /demo/start across one number prefix
 * (+1 201 555 ....) from rotating client addresses, sent 25 at a time, then 100 more to
 * another country's prefix. The texts actually sent (read back from the dev outbox) never
 * exceed the configured caps, and every refused start answers 429 or the silent 202, never
 * a 5xx. The test prints what was sent against the caps.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { TestServer } from '../helpers/server.js';
import { call } from '../helpers/phone.js';
import { startDemo, startDemoServer } from './demo-fixture.js';

const GLOBAL_CAP = 40;
const PREFIX_CAP = 25;
const STARTS = 1000;
/** Distinct numbers in the prefix: the rest of the starts repeat some of them. */
const NUMBERS = 700;
/** Rotating client addresses: each is used 3 or 4 times, so some starts meet the per-address limit. */
const ADDRESSES = 300;
const BATCH = 25;

describe('demo fraud drill', () => {
  let server: TestServer;
  before(async () => {
    server = await startDemoServer({
      WAKEUP_DEMO_DAILY_CAP: String(GLOBAL_CAP),
      WAKEUP_DEMO_PREFIX_DAILY_CAP: String(PREFIX_CAP),
    });
  });
  after(() => server.close());

  it(`${STARTS} starts across +1 201 555 from ${ADDRESSES} rotating addresses never text more than the caps`, async (t) => {
    const statuses = new Map<string, number>();
    const tally = (status: number, code: string | undefined) => {
      const k = code ? `${status} ${code}` : String(status);
      statuses.set(k, (statuses.get(k) ?? 0) + 1);
    };
    const run = async (starts: Array<{ e164: string; address: string }>) => {
      for (let i = 0; i < starts.length; i += BATCH) {
        const batch = starts.slice(i, i + BATCH);
        const answers = await Promise.all(
          batch.map((s) => startDemo(server, { consent: true, e164: s.e164 }, s.address)),
        );
        for (const r of answers) {
          assert.ok(
            r.status === 202 || r.status === 429,
            `unexpected ${r.status}: ${JSON.stringify(r.body)}`,
          );
          if (r.status === 429) {
            assert.equal(r.body.code, 'demo_rate_limited');
            assert.ok(Number(r.headers.get('retry-after')) >= 1, 'Retry-After on every 429');
          }
          tally(r.status, r.body?.code);
        }
      }
    };

    const us = Array.from({ length: STARTS }, (_, i) => ({
      e164: `+1201555${String(i % NUMBERS).padStart(4, '0')}`,
      address: `198.51.${(i % ADDRESSES) >> 8}.${(i % ADDRESSES) & 255}`,
    }));
    await run(us);
    const usTexts = await texts(server, '+1');
    assert.ok(usTexts <= PREFIX_CAP, `${usTexts} texts to +1 > prefix cap ${PREFIX_CAP}`);
    assert.equal(usTexts, PREFIX_CAP, 'with this much demand the prefix cap is reached exactly');

    // Another prefix has its own allowance, but the global cap bounds both together.
    const uk = Array.from({ length: 100 }, (_, i) => ({
      e164: `+4474001${String(i).padStart(5, '0')}`,
      address: `203.0.113.${i}`,
    }));
    await run(uk);
    const ukTexts = await texts(server, '+44');
    const total = usTexts + ukTexts;
    assert.ok(total <= GLOBAL_CAP, `${total} texts > global cap ${GLOBAL_CAP}`);
    assert.equal(total, GLOBAL_CAP, 'the global cap is reached exactly');
    assert.ok(![...statuses.keys()].some((k) => k.startsWith('5')), 'no 5xx');

    const summary =
      `demo fraud drill: ${STARTS + uk.length} starts, texts sent ${total} (global cap ${GLOBAL_CAP}); ` +
      `+1: ${usTexts} (prefix cap ${PREFIX_CAP}); +44: ${ukTexts}; answers ${JSON.stringify(Object.fromEntries(statuses))}`;
    t.diagnostic(summary);
    console.log(summary);
  });
});

/** Texts in the dev outbox to numbers starting with `prefix`. */
async function texts(server: TestServer, prefix: string): Promise<number> {
  const r = await call(server, 'GET', '/dev/outbox?channel=sms');
  assert.equal(r.status, 200);
  return (r.body.items as Array<{ to: string }>).filter((i) => i.to.startsWith(prefix)).length;
}
