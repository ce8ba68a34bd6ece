/**
 * Entry of the fake Twilio-compatible provider as its own process (test/load/fake-provider.ts
 * spawns it): the fake of test/helpers/fake-twilio.ts on a loopback port, its phones playing
 * `--answer` (confirm by default) with `--ring-seconds`, on a clock whose timers run
 * `--speed` times faster than real time (a 5 s ring takes 5000/speed ms; `now()` stays the
 * real time, so the dates in the call list match the server's clock).
 *
 * A second, unauthenticated loopback port answers the harness:
 * - `GET /accepted`: `{accepted, createRequests}` (cheap, for polling);
 * - `GET /counts`: `{accepted, createRequests, listRequests, keys, duplicates, statuses}`;
 * - `GET /keys`: `{ [idempotencyKey]: [callSid, ...] }`, every accepted call by the attempt
 *   key it carries (the `k` of its answer URL, the key the adapter also sends as
 *   `Idempotency-Key`): a key with two sids is a doubled call;
 * - `GET /pressed`: `{ [idempotencyKey]: { digit, heard } }`, the calls whose phone pressed a
 *   key, and whether the service answered that Gather action (it was told).
 *
 * Prints one line `FAKE {"url", "control", "accountSid", "authToken"}` once listening; on
 * SIGTERM prints `FAKE_FINAL {counts}` and exits 0.
 *
 * Usage: node --import tsx test/load/fake-provider-main.ts [--speed 20] [--answer confirm] [--ring-seconds 1]
 *   [--answer-timeout off] (wait for every webhook's answer: see FakeTwilioOptions.answerTimeout)
 * @module
 */
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { PhoneBehaviour } from '../../host/adapters/telephony/simulator.js';
import { startFakeTwilio, type FakeCall } from '../helpers/fake-twilio.js';
import { createFastClock } from './fast-clock.js';

const opt = new Map<string, string>();
const argv = process.argv.slice(2);
for (let i = 0; i < argv.length; i += 2) opt.set(argv[i]!.replace(/^--/, ''), argv[i + 1] ?? '');

const speed = Number(opt.get('speed') ?? 20);
const answer = (opt.get('answer') ?? 'confirm') as PhoneBehaviour;
const ringSeconds = Number(opt.get('ring-seconds') ?? 1);

const clock = createFastClock(speed);
const fake = await startFakeTwilio({
  clock,
  defaultPhone: { answers: [answer], ring_seconds: ringSeconds },
  answerTimeout: opt.get('answer-timeout') !== 'off',
});

const keyBySid = new Map<string, string>();
/** The attempt key a call carries: the `k` of its answer URL. */
function keyOf(call: FakeCall): string {
  let key = keyBySid.get(call.sid);
  if (key === undefined) {
    key = new URL(call.params.get('Url') ?? '', 'http://x').searchParams.get('k') ?? '(none)';
    keyBySid.set(call.sid, key);
  }
  return key;
}

function byKey(): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const c of fake.calls.values()) {
    const k = keyOf(c);
    const list = out.get(k);
    if (list) list.push(c.sid);
    else out.set(k, [c.sid]);
  }
  return out;
}

function counts() {
  const keys = byKey();
  let duplicates = 0;
  for (const sids of keys.values()) if (sids.length > 1) duplicates += sids.length - 1;
  const statuses: Record<string, number> = {};
  for (const c of fake.calls.values()) statuses[c.status] = (statuses[c.status] ?? 0) + 1;
  return {
    accepted: fake.calls.size,
    createRequests: fake.createCallRequests,
    listRequests: fake.listCallRequests,
    getRequests: fake.getCallRequests,
    webhookRetries: fake.webhookRetries,
    webhookFailures: fake.webhookFailures,
    webhooksInFlight: fake.webhooksInFlight,
    // This process's own CPU (user + system, µs), so the harness can sum every process of a run.
    cpuMicros: (() => {
      const u = process.cpuUsage();
      return u.user + u.system;
    })(),
    keys: keys.size,
    duplicates,
    statuses,
  };
}

const send = (res: ServerResponse, status: number, body: unknown) => {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
};
const control = createServer((req, res) => {
  if (req.method === 'GET' && req.url === '/accepted')
    return send(res, 200, { accepted: fake.calls.size, createRequests: fake.createCallRequests });
  if (req.method === 'GET' && req.url === '/counts') return send(res, 200, counts());
  if (req.method === 'GET' && req.url === '/keys')
    return send(res, 200, Object.fromEntries(byKey()));
  if (req.method === 'GET' && req.url === '/pressed') {
    const pressed = [...fake.calls.values()].filter((c) => c.pressed !== null);
    return send(
      res,
      200,
      Object.fromEntries(pressed.map((c) => [keyOf(c), { digit: c.pressed, heard: c.heard }])),
    );
  }
  send(res, 404, { error: 'not found' });
});
await new Promise<void>((resolve) => control.listen(0, '127.0.0.1', resolve));

console.log(
  `FAKE ${JSON.stringify({
    url: fake.url,
    control: `http://127.0.0.1:${(control.address() as AddressInfo).port}`,
    accountSid: fake.accountSid,
    authToken: fake.authToken,
  })}`,
);

process.on('SIGTERM', () => {
  console.log(`FAKE_FINAL ${JSON.stringify(counts())}`);
  control.close();
  void fake.close().finally(() => process.exit(0));
});
