// Settings: home zone (with zone search), names, voice, time format, the default retry policy
// and backup alarm, email preferences. PATCH /me.
import { patch } from '../api.js';
import { announce, field, h, onSubmit } from '../dom.js';
import { setTimeFormat } from '../fmt.js';
import { zonePicker } from '../zone-picker.js';
import { retryFields } from './call-form.js';

export async function render(root, ctx) {
  const me = ctx.me;
  root.append(h('h1', {}, 'Settings'));
  const zone = zonePicker(
    'Home time zone',
    'home_timezone',
    me.home_timezone,
    'New calls use it unless you choose another; times of calls in other zones are also shown on this clock.',
  );
  const displayName = h('input', {
    type: 'text',
    name: 'display_name',
    value: me.display_name,
    maxlength: 100,
    autocomplete: 'name',
  });
  const greeting = h('input', {
    type: 'text',
    name: 'greeting_name',
    value: me.greeting_name || '',
    maxlength: 40,
  });
  const radio = (name, value, label, current) =>
    h(
      'label',
      { class: 'choice' },
      h('input', { type: 'radio', name, value, checked: current === value }),
      label,
    );
  const backup = h('input', {
    type: 'checkbox',
    name: 'default_backup_alarm',
    checked: me.default_backup_alarm,
  });
  const builtin = h('input', {
    type: 'checkbox',
    name: 'builtin_retry',
    checked: me.default_retry_policy === null,
  });
  const retry = retryFields(
    me.default_retry_policy || {
      max_snoozes: 2,
      offsets_minutes: [5, 10],
      ring_timeout_seconds: 45,
      snooze_minutes: 9,
    },
  );
  const marketing = h('input', {
    type: 'checkbox',
    name: 'marketing_opt_in',
    checked: me.marketing_opt_in,
  });
  const digest = h('input', { type: 'checkbox', name: 'digest_opt_in', checked: me.digest_opt_in });
  const form = h(
    'form',
    { class: 'card', novalidate: true },
    zone.el,
    field('Your name', displayName),
    field(
      'Name the call greets you with (optional)',
      greeting,
      'Spoken at the start of each call. Leave empty for no name.',
    ),
    h(
      'fieldset',
      {},
      h('legend', {}, 'Voice'),
      radio('voice', 'female', 'Female', me.voice),
      radio('voice', 'male', 'Male', me.voice),
    ),
    h(
      'fieldset',
      {},
      h('legend', {}, 'Time format'),
      radio('time_format', '24h', '24-hour (07:00)', me.time_format),
      radio('time_format', '12h', '12-hour (7:00 AM)', me.time_format),
    ),
    h('label', { class: 'choice' }, backup, 'Ring the app’s backup alarm for new calls'),
    h(
      'fieldset',
      { 'aria-describedby': 'retry-hint' },
      h('legend', {}, 'Default retries and snooze'),
      h(
        'p',
        { class: 'hint', id: 'retry-hint' },
        'Used by calls that have no policy of their own.',
      ),
      h(
        'label',
        { class: 'choice' },
        builtin,
        'Use the built-in default (retries after 5 and 10 minutes, 45 s of ringing, 2 snoozes of 9 minutes)',
      ),
      retry.el,
    ),
    h(
      'fieldset',
      {},
      h('legend', {}, 'Email'),
      h('label', { class: 'choice' }, digest, 'Weekly digest of my calls'),
      h('label', { class: 'choice' }, marketing, 'News about the service'),
    ),
    h('div', { class: 'actions' }, h('button', { type: 'submit' }, 'Save settings')),
  );
  const sync = () => (retry.el.hidden = builtin.checked);
  builtin.addEventListener('change', sync);
  sync();
  root.append(form);
  onSubmit(form, async () => {
    const pick = (name) => form.querySelector(`input[name=${name}]:checked`).value;
    const updated = await patch('/me', {
      home_timezone: zone.input.value.trim() || null,
      display_name: displayName.value.trim(),
      greeting_name: greeting.value.trim() || null,
      voice: pick('voice'),
      time_format: pick('time_format'),
      default_backup_alarm: backup.checked,
      default_retry_policy: builtin.checked ? null : retry.value(),
      marketing_opt_in: marketing.checked,
      digest_opt_in: digest.checked,
    });
    setTimeFormat(updated.time_format);
    announce('Settings saved.');
    await ctx.reloadMe();
    ctx.reload();
  });
}
