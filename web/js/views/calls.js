// Wake-up calls (schedules): each with its next call, or how its last call ended once it is
// finished; pause until a date, skip the next call, resume, test call, edit, delete.
import { del, get, patch, post } from '../api.js';
import { action, announce, field, h, onSubmit } from '../dom.js';
import * as fmt from '../fmt.js';
import { occurrenceState, scheduleState } from '../states.js';

export async function render(root, ctx) {
  const [list, numbers] = await Promise.all([
    get('/schedules?limit=200'),
    get('/phone-numbers?limit=200'),
  ]);
  const last = await lastCalls(list.items.filter((s) => s.status === 'completed'));
  const why = {
    callsOff: Boolean(ctx.me.calls_revoked_at),
    blocked: new Set(numbers.items.filter((n) => n.blocked).map((n) => n.id)),
  };
  root.append(
    h(
      'div',
      { class: 'spread' },
      h('h1', {}, 'Wake-up calls'),
      h('a', { class: 'button', href: '#/calls/new' }, 'New call'),
    ),
  );
  // Soonest to ring first; those with no call due after them.
  const ringsAt = (s) =>
    s.next_occurrence ? Date.parse(s.next_occurrence.scheduled_at) : Infinity;
  const live = list.items
    .filter((s) => s.status === 'active')
    .sort((a, b) => ringsAt(a) - ringsAt(b));
  const old = list.items.filter((s) => s.status !== 'active');
  if (list.items.length === 0) root.append(h('p', {}, 'No wake-up call yet.'));
  root.append(
    h(
      'ul',
      { class: 'list', 'aria-label': 'Active calls' },
      live.map((s) => h('li', {}, scheduleCard(s, ctx, why))),
    ),
  );
  if (old.length) {
    root.append(h('h2', {}, 'Finished and turned off'));
    root.append(
      h(
        'ul',
        { class: 'list' },
        old.map((s) => h('li', {}, scheduleCard(s, ctx, why, last.get(s.id)))),
      ),
    );
  }
}

/**
 * The newest finished call of each finished wake-up call (schedule id → occurrence), read from
 * the calls since the oldest of them was created, so its card can say how it ended.
 */
async function lastCalls(finished) {
  const out = new Map();
  if (!finished.length) return out;
  const from = finished.map((s) => s.created_at).sort()[0];
  const wanted = new Set(finished.map((s) => s.id));
  let cursor = null;
  for (let page = 0; page < 5; page++) {
    const q = `/occurrences?limit=200&from=${encodeURIComponent(from)}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
    const got = await get(q);
    // Soonest first: a later item of a schedule replaces an earlier one.
    for (const o of got.items)
      if (wanted.has(o.schedule_id) && o.status !== 'pending') out.set(o.schedule_id, o);
    if (!(cursor = got.next_cursor)) break;
  }
  return out;
}

function scheduleCard(s, ctx, why, lastCall) {
  const n = s.next_occurrence;
  const status = scheduleState(s, lastCall);
  const card = h(
    'article',
    { class: 'card', 'data-schedule': s.id },
    h(
      'div',
      { class: 'spread' },
      h('h2', {}, h('a', { href: `#/calls/${s.id}` }, s.label)),
      h(
        'span',
        { class: 'row' },
        s.paused_until
          ? h('span', { class: 'badge warn' }, `Paused until ${fmt.date(s.paused_until)}`)
          : null,
        status
          ? h('span', { class: `badge ${status[1]}`, 'data-state': s.status }, status[0])
          : null,
      ),
    ),
    h(
      'p',
      {},
      fmt.repeat(s),
      ' · ',
      s.timezone,
      s.phone_number ? ` · ${s.phone_number.label || ''} ${s.phone_number.e164_masked}` : '',
    ),
  );
  if (n) {
    const [text, tone] = occurrenceState(n, why);
    card.append(
      h(
        'div',
        { class: 'next', 'aria-label': 'Next call' },
        h(
          'p',
          { class: 'tight' },
          h('strong', {}, 'Next: '),
          h('a', { href: `#/occurrences/${n.id}` }, fmt.local(n.local)),
          ' ',
          h('span', { class: 'muted small' }, fmt.relative(n.in_seconds)),
          ' ',
          h('span', { class: `badge ${tone}` }, text),
        ),
        n.in_home_timezone
          ? h(
              'p',
              { class: 'small muted tight' },
              'On your home clock: ',
              fmt.home(n.in_home_timezone),
            )
          : null,
        n.notice ? h('p', { class: 'card notice small', role: 'note' }, n.notice) : null,
      ),
    );
  } else if (s.status === 'active')
    card.append(h('p', { class: 'muted small' }, 'No call is due.'));
  if (lastCall)
    card.append(
      h(
        'p',
        { class: 'small' },
        h('strong', {}, 'Last call: '),
        h('a', { href: `#/occurrences/${lastCall.id}` }, fmt.local(lastCall.local)),
      ),
    );
  if (s.skip_dates && s.skip_dates.length) card.append(skippedLine(s, ctx));

  const acts = h('div', { class: 'actions' });
  const done = (msg) => async () => (announce(msg), ctx.reload());
  acts.append(h('a', { class: 'button secondary', href: `#/calls/${s.id}` }, 'Edit'));
  if (s.kind === 'recurring' && s.status === 'active') {
    if (s.paused_until)
      acts.append(
        action('Resume', async () => {
          await post(`/schedules/${s.id}/resume`, undefined, { idem: true });
          await done('Resumed.')();
        }),
      );
    acts.append(
      action('Skip next', async () => {
        await post(`/schedules/${s.id}/skip-next`, undefined, { idem: true });
        await done('The next call is skipped.')();
      }),
    );
  }
  acts.append(
    action('Test call', async () => {
      const a = await post(`/schedules/${s.id}/test-call`, undefined, { idem: true });
      ctx.go(`#/attempts/${a.id}`);
    }),
  );
  acts.append(
    action(
      'Delete',
      async () => {
        if (!confirm(`Delete “${s.label}”?`)) return;
        await del(`/schedules/${s.id}`);
        await done('Call deleted.')();
      },
      { class: 'danger' },
    ),
  );
  card.append(acts);
  if (s.kind === 'recurring' && s.status === 'active') card.append(pauseForm(s, ctx));
  return card;
}

/** The skipped dates, each with Undo: the call rings on that date again. */
function skippedLine(s, ctx) {
  return h(
    'div',
    { class: 'small skipped', role: 'group', 'aria-label': 'Skipped dates' },
    h('strong', {}, 'Skipped: '),
    s.skip_dates.map((d) =>
      h(
        'span',
        { class: 'skipped-date', 'data-date': d },
        fmt.date(d),
        ' ',
        action(
          'Undo',
          async () => {
            await patch(`/schedules/${s.id}`, { skip_dates: s.skip_dates.filter((x) => x !== d) });
            announce(`It rings on ${fmt.date(d)} again.`);
            ctx.reload();
          },
          { class: 'link', 'aria-label': `Undo skipping ${fmt.date(d)}` },
        ),
      ),
    ),
  );
}

function pauseForm(s, ctx) {
  const until = h('input', {
    type: 'date',
    name: 'until',
    required: true,
    value: s.paused_until || '',
  });
  const form = h(
    'form',
    { novalidate: true, class: 'pause' },
    field(
      'Pause until (inclusive)',
      until,
      `No call rings up to and including this date in ${s.timezone}.`,
    ),
    h('button', { type: 'submit', class: 'secondary' }, 'Pause'),
  );
  onSubmit(form, async () => {
    if (!until.value)
      throw { local: true, detail: 'Choose the last date with no call.', field: 'until' };
    await post(`/schedules/${s.id}/pause`, { until: until.value }, { idem: true });
    announce(`Paused until ${fmt.date(until.value)}.`);
    ctx.reload();
  });
  return h('details', {}, h('summary', {}, 'Pause for a while'), form);
}
