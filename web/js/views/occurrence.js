// One call's progress and history: an occurrence (#/occurrences/<id>) with its attempts, or a
// standalone test call (#/attempts/<id>). Polled every 2 seconds while it is live.
import { get, post } from '../api.js';
import { action, announce, fill, h, stackTable } from '../dom.js';
import * as fmt from '../fmt.js';
import { FINISHED, occurrenceState, reasonSentence } from '../states.js';
import { devClock, virtualClockNote } from '../dev.js';

const POLL_MS = 2000;

export async function render(root, ctx) {
  const isAttempt = ctx.hash.startsWith('#/attempts/');
  const id = ctx.params[0];
  const load = () => get(isAttempt ? `/calls/${id}` : `/occurrences/${id}`);
  const body = h('div', { 'aria-live': 'polite' });
  const [first, dev] = await Promise.all([load(), devClock()]);
  let data = first;
  root.append(
    h('h1', {}, isAttempt ? (data.kind === 'test' ? 'Test call' : 'Call') : data.label),
    body,
  );
  const live = () =>
    isAttempt ? data.live : !FINISHED.has(data.status) || data.attempts.some((a) => a.live);
  // On the virtual clock a call in progress waits for the clock: say so while one rings.
  const ringing = () => (isAttempt ? data.live : data.attempts.some((a) => a.live));
  const draw = () =>
    fill(
      body,
      ringing() ? virtualClockNote(dev, 'this call') : null,
      isAttempt ? attemptView(data) : occurrenceView(data, ctx),
    );
  draw();
  let timer = null;
  const tick = async () => {
    timer = null;
    if (ctx.stale()) return;
    try {
      data = await load();
      draw();
    } catch {
      /* keep the last view; try again */
    }
    if (live() && !ctx.stale()) timer = setTimeout(tick, POLL_MS);
  };
  if (live()) timer = setTimeout(tick, POLL_MS);
  ctx.onLeave(() => timer && clearTimeout(timer));
}

function occurrenceView(o, ctx) {
  const [text, tone] = occurrenceState(o);
  const parts = [
    h(
      'p',
      {},
      h('span', { class: `badge ${tone}`, id: 'occurrence-status', 'data-status': o.status }, text),
      o.outcome_reason
        ? h('span', { class: 'muted small' }, ` ${reasonSentence(o.outcome_reason)}`)
        : null,
    ),
    h(
      'p',
      { class: 'big' },
      fmt.hhmm(o.local.time),
      ' ',
      h('span', { class: 'small muted' }, fmt.relative(o.in_seconds)),
    ),
    h('p', {}, fmt.local(o.local)),
    o.in_home_timezone
      ? h('p', { class: 'small muted' }, 'On your home clock: ', fmt.home(o.in_home_timezone))
      : null,
    o.notice ? h('p', { class: 'card notice small', role: 'note' }, o.notice) : null,
    h(
      'p',
      { class: 'small muted' },
      o.phone_number ? `To ${o.phone_number.label || ''} ${o.phone_number.e164_masked}. ` : '',
      `Attempts: ${o.attempt_count}. Snoozes: ${o.snooze_count}.`,
      o.reached_voicemail ? ' Voicemail answered at least once.' : '',
      o.confirmed_at ? ` Confirmed ${fmt.instant(o.confirmed_at)}.` : '',
    ),
  ];
  if (!FINISHED.has(o.status))
    parts.push(
      h(
        'div',
        { class: 'actions' },
        action(
          'Cancel this call',
          async () => {
            await post(`/occurrences/${o.id}/cancel`, undefined, { idem: true });
            announce('Call cancelled.');
            ctx.reload();
          },
          { class: 'danger' },
        ),
        h(
          'a',
          { class: 'button secondary', href: `#/calls/${o.schedule_id}` },
          'Edit the wake-up call',
        ),
      ),
    );
  parts.push(
    h('h2', {}, 'Attempts'),
    o.attempts.length ? attemptsTable(o.attempts) : h('p', { class: 'muted' }, 'No attempt yet.'),
  );
  if (o.told_contacts && o.told_contacts.length)
    parts.push(h('h2', {}, 'Contacts told'), toldList(o.told_contacts));
  return parts;
}

const TOLD = {
  sent: ['Texted', 'ok'],
  pending: ['Being texted', 'warn'],
  failed: ['Text failed', 'bad'],
  skipped: ['Not texted', 'off'],
};
const TOLD_WHY = {
  not_agreed: 'they no longer agree to be told',
  number_blocked: 'their number asked for no texts',
  daily_cap: 'the day’s limit of texts to contacts was reached',
};

/** The contacts texted that this call went unanswered, each with what became of the text. */
function toldList(told) {
  return h(
    'ul',
    { class: 'list', 'aria-label': 'Contacts told' },
    told.map((t) => {
      const [word, tone] = TOLD[t.status] || [t.status, ''];
      return h(
        'li',
        { class: 'card', 'data-told': t.contact.id },
        h(
          'div',
          { class: 'spread' },
          h('strong', {}, t.contact.name),
          h('span', { class: `badge ${tone}` }, word),
        ),
        t.sent_at
          ? h('p', { class: 'small muted tight' }, `Texted ${fmt.instant(t.sent_at)}.`)
          : null,
        t.reason
          ? h('p', { class: 'small muted tight' }, `Why: ${TOLD_WHY[t.reason] || t.reason}.`)
          : null,
      );
    }),
  );
}

function attemptView(a) {
  return [
    h(
      'p',
      {},
      h(
        'span',
        {
          class: `badge ${a.live ? 'warn' : a.status === 'confirmed' ? 'ok' : ''}`,
          id: 'attempt-status',
          'data-status': a.status,
        },
        fmt.attStatus(a.status),
      ),
    ),
    h('p', {}, `To ${a.to_masked}. Started ${fmt.instant(a.created_at)}.`),
    a.live ? h('p', { class: 'muted small' }, 'Updating every 2 seconds…') : null,
    attemptsTable([a]),
  ];
}

export function attemptsTable(list) {
  return stackTable(
    ['Attempt', 'Kind', 'Result', 'Rang at', 'Answered by', 'Keys', 'Length', 'Error'],
    list.map((a) => [
      String(a.n),
      a.kind,
      fmt.attStatus(a.status),
      fmt.instant(a.ringing_at || a.requested_at || a.due_at),
      a.answered_by === 'machine' ? 'voicemail' : a.answered_by,
      a.digits,
      a.duration_seconds === null ? null : `${a.duration_seconds} s`,
      a.error_code,
    ]),
    { 'aria-label': 'Attempts', class: 'stack numbered' },
  );
}
