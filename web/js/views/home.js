// Home: calls turned off (key 9) with what to do about it, blocked numbers, the travel prompt,
// the next calls with their local and home times and any clock-change notice, and the
// onboarding stepper.
import { get, patch, post, uuid } from '../api.js';
import { action, announce, h, onSubmit } from '../dom.js';
import * as fmt from '../fmt.js';
import { blockedText, FINISHED, occurrenceState } from '../states.js';
import { onboarding } from './onboarding.js';

export async function render(root, ctx) {
  const { me } = ctx;
  root.append(h('h1', {}, `Hello, ${me.display_name}`));

  const [occ, numbers, travel] = await Promise.all([
    get('/occurrences?limit=50'),
    get('/phone-numbers?limit=200'),
    travelContext().catch(() => null),
  ]);
  const blocked = numbers.items.filter((n) => n.blocked);
  if (me.calls_revoked_at) root.append(revokedCard(ctx, blocked));
  else if (blocked.length) root.append(blockedCard(blocked));
  if (!me.home_timezone) root.append(homeZoneCard(ctx));
  if (travel)
    root.append(...travelCards(travel, ctx, new Map(occ.items.map((o) => [o.id, o.label]))));

  root.append(h('h2', {}, 'Next calls'));
  const why = {
    callsOff: Boolean(me.calls_revoked_at),
    blocked: new Set(blocked.map((n) => n.id)),
  };
  const next = occ.items.filter((o) => !FINISHED.has(o.status));
  if (next.length === 0) {
    root.append(
      h(
        'div',
        { class: 'card' },
        h('p', {}, 'No call in the next seven days.'),
        h('a', { class: 'button', href: '#/calls/new' }, 'Set a wake-up call'),
      ),
    );
  } else {
    root.append(
      h(
        'ul',
        { class: 'list', 'aria-label': 'Next calls' },
        next.map((o) => h('li', {}, occurrenceCard(o, why))),
      ),
    );
    root.append(h('p', {}, h('a', { class: 'button', href: '#/calls/new' }, 'Set another call')));
  }

  if (!me.onboarding.finished || me.onboarding.readiness.stale) {
    root.append(h('h2', {}, 'Getting ready'));
    root.append(onboarding(me, ctx));
  } else {
    root.append(readinessLine(me, blocked));
  }
}

/** A card for an upcoming occurrence; `why` says what keeps it from ringing (states.js). */
function occurrenceCard(o, why) {
  const [text, tone] = occurrenceState(o, why);
  return h(
    'article',
    { class: 'card', 'data-occurrence': o.id },
    h(
      'div',
      { class: 'spread' },
      h('h3', {}, h('a', { href: `#/occurrences/${o.id}` }, o.label)),
      h('span', { class: `badge ${tone}` }, text),
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
    o.phone_number
      ? h(
          'p',
          { class: 'small muted' },
          `Calls ${o.phone_number.label || ''} ${o.phone_number.e164_masked}`,
        )
      : null,
  );
}

/** One line on whether calls will ring: never "ready" while calls are off or a number is blocked. */
function readinessLine(me, blocked) {
  const r = me.onboarding.readiness;
  const bits = [
    me.calls_revoked_at ? 'calls are turned off' : null,
    blocked.length
      ? `${blocked.length === 1 ? 'number' : 'numbers'} blocked`
      : r.phone_verified
        ? 'number verified'
        : 'no verified number',
    r.test_call_done ? 'test call done' : 'no test call yet',
    r.last_success_at
      ? `last confirmed call ${fmt.instant(r.last_success_at)}`
      : 'no confirmed call yet',
  ];
  const ready = !me.calls_revoked_at && !blocked.length && r.phone_verified;
  return h(
    'p',
    { class: 'small muted', id: 'readiness' },
    `${ready ? 'Ready' : 'Not ready'}: ${bits.filter(Boolean).join(' · ')}.`,
  );
}

const numberName = (n) => `${n.label || 'Phone'} ${n.e164}`;

/** Calls turned off by key 9: what that means, and the steps to turn them back on. */
function revokedCard(ctx, blocked) {
  const consent = h('input', { type: 'checkbox', name: 'consent', required: true });
  const byKey9 = blocked.filter((n) => n.blocked_reason === 'key_9');
  const form = h(
    'form',
    { class: 'card danger', novalidate: true, id: 'calls-off' },
    h('h2', {}, 'Your wake-up calls are off'),
    h(
      'p',
      {},
      `Someone pressed 9 during a call on ${fmt.instant(ctx.me.calls_revoked_at)}. That turns off every wake-up call of this account: ` +
        'none of the calls below will ring until you turn calls back on.',
    ),
    h('h3', {}, 'To get your calls back'),
    h(
      'ol',
      {},
      h('li', {}, 'Tick the box below and press “Turn calls back on”.'),
      byKey9.map((n) =>
        h(
          'li',
          {},
          `Unblock ${numberName(n)}: the same key press blocked it. `,
          h('a', { href: '#/numbers' }, 'Verify it again with a code'),
          '.',
        ),
      ),
    ),
    h('label', { class: 'choice' }, consent, 'I agree to receive automated wake-up calls again.'),
    h('p', { class: 'field-error', 'data-error-for': 'consent' }),
    h('div', { class: 'actions' }, h('button', { type: 'submit' }, 'Turn calls back on')),
  );
  return onSubmit(form, async () => {
    await post('/me/resume-calls', { consent: consent.checked ? true : null }, { idem: true });
    announce('Calls are on again.');
    await ctx.reloadMe();
    ctx.reload();
  });
}

/** Numbers no call or text goes to, each with how to lift its block. */
function blockedCard(blocked) {
  return h(
    'div',
    { class: 'card danger', id: 'numbers-blocked' },
    h('h2', {}, blocked.length === 1 ? 'A number is blocked' : 'Some numbers are blocked'),
    h('p', {}, 'Calls to a blocked number do not ring.'),
    h(
      'ul',
      {},
      blocked.map((n) =>
        h('li', {}, h('strong', {}, numberName(n)), ': ', blockedText(n.blocked_reason)),
      ),
    ),
    h('a', { class: 'button secondary', href: '#/numbers' }, 'See how to unblock'),
  );
}

function homeZoneCard(ctx) {
  const zone = fmt.browserZone();
  return h(
    'div',
    { class: 'card notice' },
    h('p', {}, 'Your home time zone is not set. Calls are set in it unless you pick another zone.'),
    h(
      'div',
      { class: 'row' },
      action(`Use ${zone} (this browser's zone)`, async () => {
        await patch('/me', { home_timezone: zone });
        announce(`Home time zone set to ${zone}.`);
        await ctx.reloadMe();
        ctx.reload();
      }),
      h('a', { href: '#/settings' }, 'Choose another zone'),
    ),
  );
}

/**
 * The browser counts as a device (platform web, one installation id kept in localStorage): it
 * reports its zone, and the answer lists the calls whose clock differs from it.
 */
async function travelContext() {
  const zone = fmt.browserZone();
  let id = localStorage.getItem('wakeup.device_id');
  let inst = localStorage.getItem('wakeup.installation_id');
  if (!inst) localStorage.setItem('wakeup.installation_id', (inst = uuid()));
  const register = async () => {
    const d = await post(
      '/devices',
      {
        installation_id: inst,
        platform: 'web',
        timezone: zone,
        model: navigator.userAgent.slice(0, 100),
      },
      { idem: true },
    );
    localStorage.setItem('wakeup.device_id', (id = d.id));
  };
  if (!id) await register();
  try {
    return await post(`/devices/${id}/timezone`, { timezone: zone }, { idem: true });
  } catch (err) {
    if (err.status !== 404) throw err;
    await register();
    return post(`/devices/${id}/timezone`, { timezone: zone }, { idem: true });
  }
}

/** Where the calls the person chose to keep on their own clock are remembered (this browser). */
const KEPT_KEY = 'wakeup.travel_kept';

/** "occurrence id|device zone" of each mismatch kept as it is: asked again only in another zone. */
function keptSet() {
  try {
    const list = JSON.parse(localStorage.getItem(KEPT_KEY) || '[]');
    return new Set(Array.isArray(list) ? list : []);
  } catch {
    return new Set();
  }
}

const keptId = (m) => `${m.occurrence_id}|${m.device_zone}`;

/**
 * The travel prompt: one card per call whose clock differs from this browser's, each naming its
 * call and with its own buttons. "Keep it as it is" is remembered for that call and zone, so the
 * card stays gone across pages and reloads; calls that no longer mismatch are forgotten.
 */
function travelCards(tc, ctx, labels) {
  const kept = keptSet();
  const current = new Set(tc.mismatches.map(keptId));
  const stillKept = [...kept].filter((k) => current.has(k));
  if (stillKept.length !== kept.size) localStorage.setItem(KEPT_KEY, JSON.stringify(stillKept));
  const keep = (m, card) => {
    localStorage.setItem(KEPT_KEY, JSON.stringify([...new Set([...keptSet(), keptId(m)])]));
    const list = card.parentElement;
    card.remove();
    if (list && !list.querySelector('[data-mismatch]')) list.remove();
    announce('Kept as it is.');
  };
  const shown = tc.mismatches.filter((m) => !kept.has(keptId(m)));
  const out = [];
  if (shown.length) {
    const section = h(
      'section',
      { class: 'travel', 'aria-labelledby': 'travel-title' },
      h('h2', { id: 'travel-title' }, 'Are you travelling?'),
      h(
        'p',
        { class: 'small muted' },
        `This browser is in ${shown[0].device_zone} (UTC${shown[0].device_utc_offset}).`,
      ),
    );
    for (const m of shown) section.append(travelCard(m, ctx, labels.get(m.occurrence_id), keep));
    out.push(section);
  }
  for (const c of tc.clock_changes || [])
    out.push(h('p', { class: 'card notice small', role: 'note' }, 'Clock change: ', c.notice));
  return out;
}

function travelCard(m, ctx, label, keep) {
  const s = m.suggested;
  const name = label || 'Wake-up call';
  const here = `${fmt.hhmm(m.in_device_zone)} on ${fmt.date(m.in_device_zone_date)} here`;
  const card = h(
    'article',
    { class: 'card notice', 'data-mismatch': m.occurrence_id, 'aria-label': `Travel: ${name}` },
    h('h3', {}, name),
    h(
      'p',
      {},
      `Set for ${fmt.hhmm(m.scheduled_local)} on ${fmt.date(m.scheduled_local_date)} ${m.scheduled_zone}: it rings at ${here}.`,
    ),
  );
  const keepButton = h(
    'button',
    { type: 'button', class: 'secondary', onclick: () => keep(m, card) },
    'Keep it as it is',
  );
  if (s) {
    card.append(
      h(
        'p',
        {},
        `Move it to ${fmt.hhmm(s.local_time)} on ${fmt.date(s.local_date)} ${s.timezone} (UTC${s.utc_offset})?`,
      ),
      h(
        'div',
        { class: 'row' },
        action(
          'Move the call',
          async () => {
            await post(
              `/occurrences/${m.occurrence_id}/move`,
              { timezone: s.timezone, local_date: s.local_date },
              { idem: true },
            );
            announce('Call moved.');
            ctx.reload();
          },
          { class: '' },
        ),
        keepButton,
      ),
    );
  } else {
    card.append(
      h(
        'p',
        {},
        'It was set to ring in a number of minutes, so it rings at that moment wherever you are.',
      ),
      h('div', { class: 'row' }, keepButton),
    );
  }
  return card;
}
