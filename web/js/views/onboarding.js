// The onboarding stepper: the spec's steps (sign-in and app permissions are not listed), each
// done, skipped or still to do; skippable steps show their warning before skipping; readiness
// is listed plainly.
import { get, post } from '../api.js';
import { action, announce, h } from '../dom.js';
import * as fmt from '../fmt.js';

export function onboarding(me, ctx) {
  const ob = me.onboarding;
  const r = ob.readiness;
  const t = ob.texts;
  const wrap = h('section', { class: 'card', 'aria-label': 'Onboarding' });
  if (r.stale && t.stale_notice)
    wrap.append(h('p', { class: 'card notice', role: 'note' }, t.stale_notice));
  const list = h('ol', { class: 'steps' });
  // Numbered in the order shown: the API's numbers skip step 6 (app permissions, app-only).
  list.append(stepItem({ title: 'Sign in', done: true, skipped: false }, 1, null));
  ob.steps.forEach((step, i) =>
    list.append(
      stepItem(step, i + 2, ob.next === step.slug ? body(step) : null, step.slug === ob.next),
    ),
  );
  wrap.append(list);
  wrap.append(
    h('h3', {}, 'Readiness'),
    h(
      'ul',
      { class: 'small' },
      h(
        'li',
        {},
        r.phone_verified
          ? 'A verified number: yes'
          : r.phone_expired
            ? 'Your number’s verification expired: verify it again'
            : 'A verified number: not yet',
      ),
      h('li', {}, `Home time zone: ${me.home_timezone || 'not set'}`),
      h('li', {}, `Saved our number as a contact: ${r.contact_saved ? 'yes' : 'not yet'}`),
      h('li', {}, `Calls ring through Do Not Disturb: ${r.dnd_acknowledged ? 'yes' : 'not yet'}`),
      h(
        'li',
        {},
        r.test_call_done
          ? `Test call: done${r.last_test_at ? ` (${fmt.instant(r.last_test_at)}, ${r.last_test_status || 'no result yet'})` : ''}`
          : 'Test call: not yet',
      ),
      h(
        'li',
        {},
        r.last_success_at
          ? `Last confirmed call: ${fmt.instant(r.last_success_at)}`
          : 'Last confirmed call: none yet',
      ),
    ),
  );
  return wrap;

  function stepItem(step, number, content, current = false) {
    const state = step.done
      ? h('span', { class: 'badge ok' }, 'Done')
      : step.skipped
        ? h('span', { class: 'badge warn' }, 'Skipped')
        : current
          ? h('span', { class: 'badge' }, 'Next')
          : null;
    return h(
      'li',
      {
        class: step.done ? 'done' : current ? 'current' : '',
        'aria-current': current ? 'step' : false,
        'data-step': step.slug || 'sign-in',
      },
      h('span', { class: 'num', 'aria-hidden': 'true' }, String(number)),
      h(
        'div',
        { class: 'body' },
        h('div', { class: 'spread' }, h('strong', {}, step.title), state),
        content,
      ),
    );
  }

  function body(step) {
    const parts = [];
    const flag = (name, label) =>
      action(label, async () => {
        await post('/me/onboarding', { step: name, done: true }, { idem: true });
        await ctx.reloadMe();
        ctx.reload();
      });
    switch (step.slug) {
      case 'phone':
        parts.push(
          h(
            'p',
            {},
            'Add the number the calls should ring, and confirm it with the code we text you.',
          ),
          h('a', { class: 'button', href: '#/numbers' }, 'Add your number'),
        );
        break;
      case 'timezone':
        parts.push(
          h('p', {}, 'Calls are set on your home clock unless you choose another zone.'),
          h('a', { class: 'button', href: '#/settings' }, 'Set your home zone'),
        );
        break;
      case 'contact':
        parts.push(
          h('p', {}, t.contact.body),
          h(
            'div',
            { class: 'row' },
            h(
              'a',
              {
                class: 'button secondary',
                href: '/api/v1/contact-card.vcf',
                download: 'wake-up-call.vcf',
              },
              'Download the contact card',
            ),
            flag('contact_saved', 'I saved it'),
          ),
        );
        break;
      case 'ring':
        parts.push(
          h('p', {}, h('strong', {}, t.ring.why_title), ' ', t.ring.why),
          h(
            'details',
            {},
            h('summary', {}, 'On iPhone'),
            h(
              'ol',
              {},
              t.ring.steps_ios.map((s) => h('li', {}, s)),
            ),
          ),
          h(
            'details',
            {},
            h('summary', {}, 'On Android'),
            h(
              'ol',
              {},
              t.ring.steps_android.map((s) => h('li', {}, s)),
            ),
          ),
          flag('dnd_acknowledged', t.ring.button || 'Done'),
        );
        break;
      case 'test-call':
        parts.push(
          h('p', {}, t.test_call.intro),
          action('Call me now', async () => {
            const nums = await get('/phone-numbers');
            const n =
              nums.items.find((x) => x.is_primary && x.verified) ||
              nums.items.find((x) => x.verified);
            if (!n) throw { local: true, detail: 'Verify a number first, on the Numbers page.' };
            const a = await post(`/phone-numbers/${n.id}/test-call`, undefined, { idem: true });
            announce('Test call placed.');
            ctx.go(`#/attempts/${a.id}`);
          }),
        );
        break;
      case 'first-call':
        parts.push(h('a', { class: 'button', href: '#/calls/new' }, 'Set your first wake-up call'));
        break;
    }
    if (step.skippable) {
      const skip = h(
        'details',
        { class: 'small' },
        h('summary', {}, 'Skip this step'),
        h('p', {}, step.skip_warning || 'You can come back to it later.'),
      );
      skip.append(
        action('Skip it anyway', async () => {
          await post('/me/onboarding/skip', { step: step.slug }, { idem: true });
          await ctx.reloadMe();
          ctx.reload();
        }),
      );
      parts.push(skip);
    }
    return h('div', {}, parts);
  }
}
