/* global process, console, fetch */
// `npm run dev:morning`: seeds a realistic morning into a running dev-mode server
// (POST /dev/seed-morning, host/ops/seed-morning.ts) and moves its virtual clock through it,
// so that the operator's page (#/ops) has calls placed, late, missed and failed to show and
// tomorrow's spike ahead.
//
//   npm run dev:morning -- [--url http://127.0.0.1:8080] [--accounts 2000] [--advance-hours 6]
//
// Start the server with the virtual clock before the morning, a rate, and yourself as operator:
//   WAKEUP_CLOCK=virtual WAKEUP_CLOCK_START=2027-03-15T04:00:00Z WAKEUP_CALLS_PER_SECOND=5 \
//   WAKEUP_OPERATOR_EMAILS=you@example.com npm start
const args = process.argv.slice(2);
const flag = (name, fallback) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 && args[i + 1] !== undefined ? args[i + 1] : fallback;
};
const url = flag('url', 'http://127.0.0.1:8080');
const body = {
  accounts: Number(flag('accounts', '2000')),
  advance_hours: Number(flag('advance-hours', '6')),
};
const res = await fetch(`${url}/dev/seed-morning`, {
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify(body),
});
const out = await res.json();
if (!res.ok) {
  console.error(`POST /dev/seed-morning answered ${res.status}:`, out);
  process.exit(1);
}
console.log(
  `${out.accounts} sleepers with a daily call in ${out.zones.join(', ')}; the clock is now ${out.now}.`,
);
console.log(`Open ${url}/#/ops signed in as an operator (WAKEUP_OPERATOR_EMAILS).`);
