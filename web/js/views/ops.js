// The operator's page (#/ops): tomorrow's spike (forecast against the provider's
// rate, with warnings), today's lateness against the objective, outcomes per hour, the
// service's health, a search by number or email listing recent calls, and the audit log.
// Operators only: the API answers 403 to anyone else, and the nav link shows only for them.
import { get, post } from '../api.js';
import { action, announce, field, h, onSubmit, stackTable } from '../dom.js';
import * as fmt from '../fmt.js';
import { forecastChart, latenessChart, outcomesChart } from '../ops/charts.js';

/** The signed-in account's operator role (`act`, `read` or null), asked once per account. */
let role = { account: null, role: null };

/** Adds the nav link for operators, removes it for anyone else (GET /ops/me answers 403 to them). */
export async function navLink(nav, me) {
  if (me && role.account !== me.id) {
    role = {
      account: me.id,
      role: await get('/ops/me').then(
        (r) => r.role,
        () => null,
      ),
    };
  }
  const link = nav.querySelector('a[href="#/ops"]');
  const show = Boolean(me && role.role);
  if (show && !link) nav.append(h('a', { href: '#/ops' }, 'Operations'));
  if (!show && link) link.remove();
}

/** The page's own styles and uPlot's, linked once. */
function styles() {
  for (const href of ['/ui/vendor/uplot.css', '/ui/js/ops/ops.css']) {
    if (!document.querySelector(`link[href="${href}"]`))
      document.head.append(h('link', { rel: 'stylesheet', href }));
  }
}

const pct = (v) => (v === null ? '–' : `${Math.round(v * 1000) / 10} %`);
const s = (ms) => `${(ms / 1000).toFixed(1)} s`;
const hhmm = (iso) => fmt.instant(iso);

function section(title, ...children) {
  return h(
    'section',
    { class: 'ops-section', 'aria-label': title },
    h('h2', {}, title),
    ...children,
  );
}

function figure(label, value, tone) {
  return h(
    'div',
    { class: `ops-figure${tone ? ` ${tone}` : ''}` },
    h('span', { class: 'ops-figure-value' }, value),
    h('span', { class: 'ops-figure-label' }, label),
  );
}

export async function render(root, ctx) {
  styles();
  const me = await get('/ops/me');
  const [forecast, lateness, outcomes, health, audit] = await Promise.all([
    get('/ops/forecast'),
    get('/ops/lateness'),
    get('/ops/outcomes'),
    get('/ops/health'),
    get('/ops/audit?limit=20'),
  ]);
  const cleanups = [];
  ctx.onLeave(() => cleanups.forEach((fn) => fn()));
  const chartBox = (name) => h('div', { class: 'ops-chart', 'data-chart': name });

  root.append(
    h('h1', {}, 'Operations'),
    h(
      'p',
      { class: 'muted' },
      `Signed in as ${me.email} (${me.role === 'act' ? 'operator' : 'read-only operator'}).`,
    ),
  );

  // Forecast: the next 24 hours.
  const fBox = chartBox('forecast');
  const busiest = [...forecast.minutes].sort((a, b) => b.calls - a.calls)[0];
  root.append(
    section(
      'Next 24 hours',
      h(
        'div',
        { class: 'ops-figures' },
        figure('calls due', String(forecast.total_calls)),
        figure('busiest minute', busiest ? `${busiest.calls} at ${hhmm(busiest.minute)}` : '–'),
        figure(
          'rate',
          forecast.calls_per_second === null ? 'no limit' : `${forecast.calls_per_second}/s`,
        ),
        figure(
          'last call late by',
          `${forecast.worst_late_seconds} s`,
          forecast.warnings ? 'bad' : 'ok',
        ),
      ),
      forecast.warnings
        ? h(
            'p',
            { class: 'card danger', role: 'alert', 'data-warnings': String(forecast.warnings) },
            `${forecast.warnings} minute${forecast.warnings === 1 ? '' : 's'} end more than ${forecast.warn_seconds} s late at this rate: raise the provider's rate (and WAKEUP_CALLS_PER_SECOND) or spread the calls.`,
          )
        : h(
            'p',
            { class: 'muted' },
            `No minute ends more than ${forecast.warn_seconds} s late at this rate.`,
          ),
      forecast.minutes.length
        ? fBox
        : h('p', { class: 'muted' }, 'No call due in the next 24 hours.'),
    ),
  );

  // Lateness: the last 24 hours.
  const lBox = chartBox('lateness');
  const met = lateness.objective_met;
  root.append(
    section(
      'Lateness, last 24 hours',
      h(
        'div',
        { class: 'ops-figures' },
        figure('calls placed', String(lateness.count)),
        figure(
          `within ${lateness.objective.seconds} s`,
          pct(lateness.on_time_share),
          met === null ? null : met ? 'ok' : 'bad',
        ),
        figure(
          'objective',
          `${lateness.objective.percent} % within ${lateness.objective.seconds} s`,
        ),
        figure('worst', s(lateness.max_ms)),
      ),
      lateness.minutes.length
        ? lBox
        : h('p', { class: 'muted' }, 'No call placed in the last 24 hours.'),
    ),
  );

  // Outcomes per hour.
  const oBox = chartBox('outcomes');
  const errors = {};
  for (const hr of outcomes.hours)
    for (const [code, n] of Object.entries(hr.provider_errors))
      errors[code] = (errors[code] || 0) + n;
  const placed = outcomes.hours.reduce((n, hr) => n + hr.placed, 0);
  const answered = outcomes.hours.reduce((n, hr) => n + hr.answered, 0);
  const short = outcomes.hours.reduce((n, hr) => n + hr.short, 0);
  root.append(
    section(
      'Outcomes per hour',
      h(
        'div',
        { class: 'ops-figures' },
        figure('answer rate', pct(placed ? answered / placed : null)),
        figure(
          `short calls (≤ ${outcomes.short_call_seconds} s)`,
          pct(answered ? short / answered : null),
        ),
        figure('provider errors', String(Object.values(errors).reduce((n, v) => n + v, 0))),
      ),
      outcomes.hours.length ? oBox : h('p', { class: 'muted' }, 'No call in the last 24 hours.'),
      Object.keys(errors).length
        ? stackTable(
            ['Provider error', 'Calls'],
            Object.entries(errors).map(([code, n]) => [code, String(n)]),
            { 'aria-label': 'Provider errors' },
          )
        : null,
    ),
  );

  // Health.
  const inFlight = health.engine.in_flight;
  root.append(
    section(
      'Health',
      h(
        'div',
        { class: 'ops-figures' },
        figure(
          'providers failing',
          health.failing_providers.length ? health.failing_providers.join(', ') : 'none',
          health.failing_providers.length ? 'bad' : 'ok',
        ),
        figure(
          'overdue calls',
          String(health.engine.overdue_calls),
          health.engine.overdue_calls ? 'warn' : 'ok',
        ),
        figure('in flight', String(inFlight.dispatching + inFlight.calling + inFlight.waiting)),
        figure(
          'journal rows unfolded',
          health.journal.unfolded === null ? 'n/a' : String(health.journal.unfolded),
        ),
      ),
      stackTable(
        ['Provider', 'Status'],
        Object.entries(health.providers).map(([port, p]) => [
          port,
          h('span', { class: `badge ${p.status === 'failing' ? 'bad' : 'ok'}` }, p.status),
        ]),
        { 'aria-label': 'Providers' },
      ),
      health.webhook_endpoints_failing.length
        ? stackTable(
            ['Failing webhook endpoint', 'Since', 'State', ''],
            health.webhook_endpoints_failing.map((e) => [
              e.url,
              e.failing_since ? hhmm(e.failing_since) : '–',
              e.enabled ? 'on' : `off (${e.disabled_reason})`,
              me.role === 'act' && !e.enabled
                ? action('Turn back on', async () => {
                    await post(`/ops/webhook-endpoints/${e.id}/enable`);
                    announce('Endpoint turned back on.');
                    ctx.reload();
                  })
                : null,
            ]),
            { 'aria-label': 'Failing webhook endpoints' },
          )
        : h('p', { class: 'muted' }, 'No webhook endpoint failing.'),
      health.hosts.length
        ? stackTable(
            ['Host', 'Calls leased', 'Until'],
            health.hosts.map((x) => [x.owner, String(x.leased_calls), hhmm(x.lease_until)]),
            { 'aria-label': 'Hosts' },
          )
        : null,
    ),
  );

  // Search.
  const results = h('div', { class: 'ops-results', 'aria-live': 'polite' });
  const input = h('input', {
    name: 'q',
    type: 'search',
    autocomplete: 'off',
    placeholder: '+12015550123 or name@example.com',
  });
  const form = h(
    'form',
    { class: 'ops-search' },
    field('Number or email', input),
    h('button', { type: 'submit' }, 'Search'),
  );
  onSubmit(form, async () => {
    const r = await get(`/ops/calls?q=${encodeURIComponent(input.value.trim())}`);
    results.replaceChildren(...searchResults(r, me.role, ctx));
  });
  root.append(section('Find calls', form, results));

  // Audit log.
  root.append(
    section(
      'Audit log',
      audit.items.length
        ? stackTable(
            ['When', 'Who', 'What', 'On'],
            audit.items.map((e) => [hhmm(e.at), e.email, e.action.replaceAll('_', ' '), e.target]),
            { 'aria-label': 'Audit log' },
          )
        : h('p', { class: 'muted' }, 'No operator action yet.'),
    ),
  );

  // Charts measure their box: draw them once the page is on screen.
  requestAnimationFrame(() => {
    if (ctx.stale()) return;
    if (forecast.minutes.length) cleanups.push(forecastChart(fBox, forecast));
    if (lateness.minutes.length) cleanups.push(latenessChart(lBox, lateness));
    if (outcomes.hours.length) cleanups.push(outcomesChart(oBox, outcomes));
  });
}

function searchResults(r, myRole, ctx) {
  const out = [];
  if (!r.accounts.length) return [h('p', { class: 'muted' }, `No account holds ${r.query}.`)];
  out.push(h('p', {}, `Accounts: ${r.accounts.map((a) => a.email).join(', ')}`));
  if (myRole === 'act' && r.query.startsWith('+')) {
    out.push(
      h(
        'div',
        { class: 'ops-actions' },
        action('Block this number', async () => {
          await post(`/ops/numbers/${encodeURIComponent(r.query)}/block`, { reason: 'manual' });
          announce(`${r.query} blocked.`);
          ctx.reload();
        }),
        action('Unblock', async () => {
          const u = await post(`/ops/numbers/${encodeURIComponent(r.query)}/unblock`, {});
          announce(u.lifted ? `${r.query} unblocked.` : `${r.query} was not blocked.`);
          ctx.reload();
        }),
      ),
    );
  }
  out.push(
    r.calls.length
      ? stackTable(
          ['Due', 'To', 'Kind', 'Status', 'Late', 'Error'],
          r.calls.map((c) => [
            hhmm(c.due_at),
            c.to,
            c.kind,
            c.status,
            c.late_ms === null ? '–' : s(c.late_ms),
            c.error_code,
          ]),
          { 'aria-label': 'Calls found' },
        )
      : h('p', { class: 'muted' }, 'No call yet.'),
  );
  return out;
}
