// Home: calls turned off (key 9) with the resume consent, the travel prompt, the next calls
// with their local and home times and any clock-change notice, and the onboarding stepper.
import { get, patch, post, uuid } from '../api.js';
import { action, announce, h, onSubmit } from '../dom.js';
import * as fmt from '../fmt.js';
import { onboarding } from './onboarding.js';

export async function render(root, ctx) {
  const { me } = ctx;
  root.append(h('h1', {}, `Hello, ${me.display_name}`));

  if (me.calls_revoked_at) root.append(revokedCard(ctx));
  if (!me.home_timezone) root.append(homeZoneCard(ctx));

  const [occ, travel] = await Promise.all([get('/occurrences?limit=50'), travelContext().catch(() => null)]);
  if (travel) root.append(...travelCards(travel, ctx));

  root.append(h('h2', {}, 'Next calls'));
  const next = occ.items.filter((o) => !fmt.FINISHED.has(o.status));
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
        next.map((o) => h('li', {}, occurrenceCard(o))),
      ),
    );
    root.append(h('p', {}, h('a', { class: 'button', href: '#/calls/new' }, 'Set another call')));
  }

  if (!me.onboarding.finished || me.onboarding.readiness.stale) {
    root.append(h('h2', {}, 'Getting ready'));
    root.append(onboarding(me, ctx));
  } else {
    root.append(readinessLine(me.onboarding.readiness));
  }
}

/** A card for an upcoming occurrence (also used by the calls list). */
export function occurrenceCard(o) {
  const [text, tone] = fmt.occStatus(o.status);
  return h(
    'article',
    { class: 'card', 'data-occurrence': o.id },
    h(
      'div',
      { class: 'spread' },
      h('h3', {}, h('a', { href: `#/occurrences/${o.id}` }, o.label)),
      h('span', { class: `badge ${tone}` }, text),
    ),
    h('p', { class: 'big' }, fmt.hhmm(o.local.time), ' ', h('span', { class: 'small muted' }, fmt.relative(o.in_seconds))),
    h('p', {}, fmt.local(o.local)),
    o.in_home_timezone ? h('p', { class: 'small muted' }, 'On your home clock: ', fmt.home(o.in_home_timezone)) : null,
    o.notice ? h('p', { class: 'card notice small', role: 'note' }, o.notice) : null,
    o.phone_number ? h('p', { class: 'small muted' }, `Calls ${o.phone_number.label || ''} ${o.phone_number.e164_masked}`) : null,
  );
}

function readinessLine(r) {
  const bits = [
    r.phone_verified ? 'number verified' : 'no verified number',
    r.test_call_done ? 'test call done' : 'no test call yet',
    r.last_success_at ? `last confirmed call ${fmt.instant(r.last_success_at)}` : 'no confirmed call yet',
  ];
  return h('p', { class: 'small muted' }, `Ready: ${bits.join(' · ')}.`);
}

function revokedCard(ctx) {
  const consent = h('input', { type: 'checkbox', name: 'consent', required: true });
  const form = h(
    'form',
    { class: 'card danger', novalidate: true },
    h('h2', {}, 'Your calls are turned off'),
    h(
      'p',
      {},
      `Someone pressed 9 on a call on ${fmt.instant(ctx.me.calls_revoked_at)}, which turns off every wake-up call of this account. No call rings until you turn them back on. ` +
        'A number blocked by that key press stays blocked until you verify it again with a code (see Numbers).',
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
      { installation_id: inst, platform: 'web', timezone: zone, model: navigator.userAgent.slice(0, 100) },
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

function travelCards(tc, ctx) {
  const out = [];
  for (const m of tc.mismatches) {
    const s = m.suggested;
    const card = h(
      'section',
      { class: 'card notice', 'aria-label': 'Travel' },
      h('h2', {}, 'Are you travelling?'),
      h(
        'p',
        {},
        `This browser is in ${m.device_zone} (UTC${m.device_utc_offset}). Your call at ${fmt.hhmm(m.scheduled_local)} on ${m.scheduled_local_date} ${m.scheduled_zone} ` +
          `rings at ${fmt.hhmm(m.in_device_zone)} on ${m.in_device_zone_date} here.`,
      ),
    );
    if (s) {
      card.append(
        h('p', {}, `Move it to ${fmt.hhmm(s.local_time)} on ${s.local_date} ${s.timezone} (UTC${s.utc_offset})?`),
        h(
          'div',
          { class: 'row' },
          action(
            'Move the call',
            async () => {
              await post(`/occurrences/${m.occurrence_id}/move`, { timezone: s.timezone, local_date: s.local_date }, { idem: true });
              announce('Call moved.');
              ctx.reload();
            },
            { class: '' },
          ),
          h('button', { type: 'button', class: 'secondary', onclick: () => card.remove() }, 'Keep it as it is'),
        ),
      );
    }
    out.push(card);
  }
  for (const c of tc.clock_changes || []) out.push(h('p', { class: 'card notice small', role: 'note' }, 'Clock change: ', c.notice));
  return out;
}
