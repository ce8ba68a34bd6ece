/**
 * Webhook delivery fairness under attack (issue 39, item 1): one account points 10 endpoints at
 * a receiver that accepts the connection and never answers, and queues 60 test events on them
 * (6 each; those refused by the test-event limit are counted); then another account, with 10
 * endpoints on a healthy receiver (taken in turn: an endpoint takes 5 test events an hour),
 * sends a test event every 2 s for `--seconds`. Prints how long
 * each of the victim's deliveries took to leave (from its POST's answer to the receiver getting
 * it), and `RESULT {json}` with p50 and max. The real clock runs (WAKEUP_CLOCK=system), so the
 * attacker's failed attempts come back as retries, as in production.
 *
 * The server runs in this process (test/helpers/server.ts), on SQLite, or on PostgreSQL with
 * WAKEUP_TEST_DB=postgres under scripts/with-pg.sh. Measures, asserts nothing; not part of `npm test`.
 *
 * Usage: node --import tsx test/load/webhook-fairness.ts [--seconds 40] [--endpoints 10] [--events 60]
 * @module
 */
import { req } from '../helpers/http.js';
import { signIn, startTestServer } from '../helpers/server.js';
import { startReceiver } from '../helpers/webhook-receiver.js';

const argv = process.argv.slice(2);
const arg = (name: string, fallback: number): number => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 ? Number(argv[i + 1]) : fallback;
};
const seconds = arg('seconds', 40);
const endpoints = arg('endpoints', 10);
const events = arg('events', 60);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const server = await startTestServer({
  env: {
    WAKEUP_CLOCK: 'system',
    WAKEUP_WEBHOOK_ALLOW_PRIVATE: '1',
    WAKEUP_WEBHOOK_ALLOW_HTTP: '1',
  },
});
const silent = await startReceiver();
silent.answer('hang');
const healthy = await startReceiver();
try {
  const attacker = await signIn(server);
  const victim = await signIn(server);
  const create = async (token: string, url: string): Promise<string> => {
    const r = await req(server.api, 'POST', '/webhook-endpoints', { token, body: { url } });
    if (r.status !== 201) throw new Error(`create endpoint: ${r.status} ${r.text}`);
    return (r.body as { id: string }).id;
  };
  const silentIds: string[] = [];
  for (let i = 0; i < endpoints; i++)
    silentIds.push(await create(attacker.token, `${silent.url}/never/${i}`));
  const victimIds: string[] = [];
  for (let i = 0; i < 10; i++)
    victimIds.push(await create(victim.token, `${healthy.url}/victim/${i}`));

  const attackStart = Date.now();
  const statuses = await Promise.all(
    Array.from({ length: events }, (_, i) =>
      req(server.api, 'POST', `/webhook-endpoints/${silentIds[i % endpoints]}/test`, {
        token: attacker.token,
      }).then((r) => r.status),
    ),
  );
  const queuedMs = Date.now() - attackStart;
  const accepted = statuses.filter((s) => s === 202 || s === 200 || s === 201).length;

  const waits: number[] = [];
  const until = Date.now() + seconds * 1000;
  while (Date.now() < until) {
    const before = healthy.received.length;
    const r = await req(
      server.api,
      'POST',
      `/webhook-endpoints/${victimIds[waits.length % victimIds.length]}/test`,
      {
        token: victim.token,
      },
    );
    if (r.status >= 300) throw new Error(`victim test: ${r.status} ${r.text}`);
    const sent = Date.now();
    await healthy.waitFor((got) => got.length > before, 120_000, "the victim's delivery");
    waits.push(Date.now() - sent);
    await sleep(Math.max(0, 2000 - (Date.now() - sent)));
  }
  const sorted = [...waits].sort((a, b) => a - b);
  const p50 = sorted[Math.floor(sorted.length / 2)] ?? 0;
  const max = sorted[sorted.length - 1] ?? 0;
  console.log(
    `attack: ${endpoints} silent endpoints, ${accepted}/${events} test events accepted in ${queuedMs} ms`,
  );
  console.log(`victim deliveries (ms, in order): ${waits.join(' ')}`);
  console.log(`attempts reaching the silent receiver: ${silent.received.length}`);
  console.log(
    `RESULT ${JSON.stringify({ db: process.env.WAKEUP_TEST_DB === 'postgres' ? 'postgres' : 'sqlite', endpoints, events, accepted, victim_p50_ms: p50, victim_max_ms: max, samples: waits.length })}`,
  );
} finally {
  await silent.close();
  await healthy.close();
  await server.close();
}
