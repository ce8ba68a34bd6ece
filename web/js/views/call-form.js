// Create or edit a wake-up call: once at a wall time, once in N minutes, or weekly; the
// preview sentence (POST /schedules/preview, or /schedules/{id}/preview) updates live as the
// form changes, before anything is saved.
import { get, patch, post, uuid } from '../api.js';
import { announce, clearFieldErrors, field, fill, h, onSubmit, showAtFields } from '../dom.js';
import * as fmt from '../fmt.js';
import { problemSentence } from '../messages.js';
import { zonePicker } from '../zone-picker.js';

export async function render(root, ctx) {
  const id = ctx.params[0] || null;
  const zoneDefault = ctx.me.home_timezone || fmt.browserZone();
  const [schedule, numbers, contacts] = await Promise.all([
    id ? get(`/schedules/${id}`) : null,
    get('/phone-numbers?limit=200'),
    get('/contacts?limit=200').catch(() => ({ items: [] })),
  ]);
  const zone = schedule ? schedule.timezone : zoneDefault;
  const now = (await get(`/time?zones=${encodeURIComponent(zone)}`)).zones[0].now_local;
  const tomorrow = addDays(now.slice(0, 10), 1);
  const s = schedule || {
    kind: 'once',
    local_date: tomorrow,
    local_time: '07:00',
    days_of_week: ['mon', 'tue', 'wed', 'thu', 'fri'],
    label: '',
    message: '',
    sms_fallback: false,
    backup_alarm: ctx.me.default_backup_alarm,
    retry_policy: null,
  };

  root.append(h('h1', {}, id ? `Edit “${s.label}”` : 'New wake-up call'));
  const verified = numbers.items.filter((n) => n.verified && !n.blocked);
  if (!id && verified.length === 0) {
    root.append(
      h(
        'div',
        { class: 'card notice' },
        h('p', {}, 'A call needs a verified number first.'),
        h('a', { class: 'button', href: '#/numbers' }, 'Add your number'),
      ),
    );
    return;
  }

  const mode = (value, label) =>
    h(
      'label',
      { class: 'choice' },
      h('input', {
        type: 'radio',
        name: 'mode',
        value,
        checked: (s.kind === 'recurring' ? 'weekly' : 'at') === value,
      }),
      label,
    );
  const modes = h(
    'fieldset',
    {},
    h('legend', {}, 'When'),
    mode('at', 'On a date'),
    id ? null : mode('in', 'In a few minutes'),
    mode('weekly', 'Every week'),
  );
  const localDate = h('input', {
    type: 'date',
    name: 'local_date',
    value: s.local_date || tomorrow,
  });
  // A text field rather than the browser's time input, whose 12/24-hour clock follows the
  // system, not the account's setting: shown and read on the account's clock (fmt.parseTime).
  const timeInput = (value) =>
    h('input', {
      type: 'text',
      name: 'local_time',
      value: fmt.hhmm(value),
      required: true,
      autocomplete: 'off',
      inputmode: fmt.clock() === '12h' ? 'text' : 'numeric',
      placeholder: fmt.hhmm('07:00'),
      class: 'time',
    });
  const timeHint =
    fmt.clock() === '12h'
      ? 'For example 7:00 AM or 6:30 PM.'
      : 'On the 24-hour clock, for example 07:00 or 18:30.';
  const localTime = timeInput(s.local_time || '07:00');
  const inMinutes = h('input', {
    type: 'number',
    name: 'in_minutes',
    min: 1,
    max: 1440,
    value: 10,
    inputmode: 'numeric',
  });
  const days = h(
    'fieldset',
    { class: 'days' },
    h('legend', {}, 'Days'),
    fmt.DAYS.map((d) =>
      h(
        'label',
        { class: 'choice' },
        h('input', {
          type: 'checkbox',
          name: 'days_of_week',
          value: d,
          'data-group': '1',
          checked: (s.days_of_week || []).includes(d),
        }),
        fmt.dayName(d),
      ),
    ),
    h('p', { class: 'field-error', 'data-error-for': 'days_of_week' }),
  );
  const endDate = h('input', { type: 'date', name: 'end_date', value: s.end_date || '' });
  const zonePick = zonePicker(
    'Time zone',
    'timezone',
    zone,
    `The call rings at this wall time in this zone. Your home zone is ${ctx.me.home_timezone || 'not set'}.`,
  );
  const phone = h(
    'select',
    { name: 'phone_number_id' },
    (id ? numbers.items : verified).map((n) =>
      h(
        'option',
        { value: n.id, selected: s.phone_number ? s.phone_number.id === n.id : n.is_primary },
        `${n.label || 'Phone'} ${n.e164}${n.verified ? '' : ' (not verified)'}${n.blocked ? ' (blocked)' : ''}`,
      ),
    ),
  );
  const label = h('input', {
    type: 'text',
    name: 'label',
    value: s.label || '',
    maxlength: 60,
    placeholder: 'Wake-up call',
  });
  const message = h('textarea', { name: 'message', maxlength: 200, rows: 2 });
  message.value = s.message || '';
  const smsFallback = h('input', {
    type: 'checkbox',
    name: 'sms_fallback',
    checked: s.sms_fallback,
  });
  const backup = h('input', { type: 'checkbox', name: 'backup_alarm', checked: s.backup_alarm });
  const enabled = h('input', { type: 'checkbox', name: 'enabled', checked: s.enabled !== false });
  const rp = s.retry_policy ||
    ctx.me.default_retry_policy || {
      max_snoozes: 2,
      offsets_minutes: [5, 10],
      ring_timeout_seconds: 45,
      snooze_minutes: 9,
    };
  const tell = tellFields(contacts.items, s.tell_contacts || null);
  const custom = h('input', { type: 'checkbox', name: 'custom_retry' });
  const retry = retryFields(rp);

  const atBox = h(
    'div',
    { class: 'grid2' },
    field('Date', localDate, 'In the call’s time zone.'),
    field('Time', localTime, timeHint),
  );
  const inBox = h('div', {}, field('Minutes from now', inMinutes, '1 to 1440.'));
  const weeklyTime = timeInput(s.local_time || '07:00');
  // The dates skipped with "Skip next" (or by the API): untick one to ring on it after all.
  const skipped = (s.skip_dates || []).length
    ? h(
        'fieldset',
        { class: 'skip-dates' },
        h('legend', {}, 'Skipped dates'),
        h(
          'p',
          { class: 'hint' },
          'No call rings on a ticked date. Untick one to ring on it after all.',
        ),
        s.skip_dates.map((d) =>
          h(
            'label',
            { class: 'choice' },
            h('input', { type: 'checkbox', name: 'skip_dates', value: d, checked: true }),
            fmt.date(d),
          ),
        ),
      )
    : null;
  const weeklyBox = h(
    'div',
    {},
    h(
      'div',
      { class: 'grid2' },
      field('Time', weeklyTime, timeHint),
      field('Last date (optional)', endDate),
    ),
    days,
    skipped,
  );
  const preview = h(
    'div',
    { class: 'preview', role: 'status', 'aria-live': 'polite', id: 'preview' },
    'Preview…',
  );

  const form = h(
    'form',
    { class: 'card', novalidate: true },
    modes,
    atBox,
    inBox,
    weeklyBox,
    zonePick.el,
    field('Number to call', phone),
    field(
      'Label',
      label,
      'Shown in your list and spoken on the call. Letters, digits and basic punctuation.',
    ),
    field('Spoken note (optional)', message, 'Up to 200 characters, read out after the greeting.'),
    h('label', { class: 'choice' }, smsFallback, 'Text me if I don’t confirm'),
    h('label', { class: 'choice' }, backup, 'Also ring the app’s backup alarm'),
    tell.el,
    id
      ? h(
          'label',
          { class: 'choice' },
          enabled,
          'This call is on (untick to turn it off without deleting it)',
        )
      : null,
    h(
      'details',
      {},
      h('summary', {}, 'Retries and snooze'),
      h('label', { class: 'choice' }, custom, 'Use these settings instead of my default'),
      retry.el,
    ),
    preview,
    h(
      'div',
      { class: 'actions' },
      h('button', { type: 'submit' }, id ? 'Save changes' : 'Set the call'),
      h('a', { class: 'button secondary', href: '#/calls' }, 'Cancel'),
    ),
  );
  root.append(form);

  const currentMode = () => form.querySelector('input[name=mode]:checked').value;
  const sync = () => {
    const m = currentMode();
    atBox.hidden = m !== 'at';
    inBox.hidden = m !== 'in';
    weeklyBox.hidden = m !== 'weekly';
    for (const [box, on] of [
      [atBox, m === 'at'],
      [inBox, m === 'in'],
      [weeklyBox, m === 'weekly'],
    ])
      for (const el of box.querySelectorAll('input')) el.disabled = !on;
  };
  sync();

  function body() {
    const m = currentMode();
    const b = { kind: m === 'weekly' ? 'recurring' : 'once' };
    // A time that cannot be read goes as typed: the server's answer marks the field.
    const time = (input) => fmt.parseTime(input.value) || input.value.trim() || null;
    if (m === 'at')
      Object.assign(b, { local_date: localDate.value || null, local_time: time(localTime) });
    if (m === 'in') b.in_minutes = inMinutes.value === '' ? null : Number(inMinutes.value);
    if (m === 'weekly') {
      b.local_time = time(weeklyTime);
      b.days_of_week = [...days.querySelectorAll('input:checked')].map((x) => x.value);
      b.end_date = endDate.value || (id ? '' : null);
      if (skipped)
        b.skip_dates = [...skipped.querySelectorAll('input:checked')].map((x) => x.value);
    }
    b.timezone = zonePick.input.value.trim() || null;
    b.phone_number_id = phone.value || null;
    b.label = label.value.trim() || null;
    b.message = message.value.trim() || null;
    b.sms_fallback = smsFallback.checked;
    b.backup_alarm = backup.checked;
    if (id) b.enabled = enabled.checked;
    // Unticked: a new call uses the account's default; an edit leaves the policy as it is.
    if (custom.checked) b.retry_policy = retry.value();
    else if (!id) b.retry_policy = null;
    if (!id) b.created_in_timezone = fmt.browserZone();
    const told = tell.value();
    // An edit sends the rule as shown (none ticked removes it); a new call only when one is ticked.
    if (told || id) b.tell_contacts = told;
    return b;
  }

  let timer = null;
  let seq = 0;
  async function runPreview() {
    const mine = ++seq;
    try {
      const p = await post(id ? `/schedules/${id}/preview` : '/schedules/preview', body());
      if (mine !== seq) return;
      // The form is right as it stands: any error still shown at a field is out of date.
      clearFieldErrors(form);
      preview.className = 'preview';
      fill(
        preview,
        h('strong', { id: 'preview-sentence' }, p.sentence),
        p.first
          ? h(
              'div',
              { class: 'small' },
              'First call: ',
              fmt.local(p.first.local),
              ' · ',
              fmt.relative(p.first.in_seconds),
            )
          : null,
        p.first && p.first.in_home_timezone
          ? h(
              'div',
              { class: 'small muted' },
              'On your home clock: ',
              fmt.home(p.first.in_home_timezone),
            )
          : null,
        p.notice ? h('div', { class: 'small', role: 'note' }, p.notice) : null,
      );
    } catch (err) {
      if (mine !== seq) return;
      // Shown once: next to its field when it has one, else here.
      if (showAtFields(form, err)) {
        preview.className = 'preview';
        delete preview.dataset.code;
        fill(
          preview,
          h(
            'span',
            { class: 'muted' },
            'The preview comes back once the field marked in red is fixed.',
          ),
        );
        return;
      }
      preview.className = 'preview error';
      preview.dataset.code = err.code || '';
      fill(preview, h('strong', {}, problemSentence(err)));
    }
  }
  const schedulePreview = () => (clearTimeout(timer), (timer = setTimeout(runPreview, 300)));
  form.addEventListener('input', (ev) => {
    if (ev.target === localTime) weeklyTime.value = localTime.value;
    if (ev.target === weeklyTime) localTime.value = weeklyTime.value;
    sync();
    schedulePreview();
  });
  form.addEventListener('change', schedulePreview);
  runPreview();

  const key = uuid();
  onSubmit(form, async () => {
    if (id) await patch(`/schedules/${id}`, body());
    else await post('/schedules', body(), { idem: key });
    announce(id ? 'Changes saved.' : 'Wake-up call set.');
    await ctx.reloadMe();
    ctx.go('#/calls');
  });
}

/**
 * Contacts to tell when the call goes unanswered: one box per contact (only those
 * who agreed are texted), and whether an answered but unconfirmed call tells them too.
 * `value()` reads them as TellContactsIn, or null when none is ticked.
 */
function tellFields(contacts, rule) {
  const named = new Set(rule ? rule.contacts.map((c) => c.id) : []);
  const also = h('input', {
    type: 'checkbox',
    name: 'tell_unconfirmed',
    checked: rule ? rule.when === 'missed_or_unconfirmed' : false,
  });
  const NOTE = {
    pending: ' (not agreed yet)',
    expired: ' (invitation expired)',
    stopped: ' (stopped)',
  };
  const boxes = contacts.map((c) =>
    h('input', {
      type: 'checkbox',
      name: 'tell_contacts',
      value: c.id,
      'data-group': '1',
      checked: named.has(c.id),
    }),
  );
  const el = h(
    'fieldset',
    { class: 'tell' },
    h('legend', {}, 'Text someone if I don’t wake up'),
    contacts.length === 0
      ? h(
          'p',
          { class: 'small muted' },
          'No contacts yet. ',
          h('a', { href: '#/contacts' }, 'Add a contact'),
          ' to have them texted when you miss a call.',
        )
      : [
          contacts.map((c, i) =>
            h('label', { class: 'choice' }, boxes[i], `${c.name} ${c.e164}${NOTE[c.status] || ''}`),
          ),
          h('label', { class: 'choice' }, also, 'Also when I answer but don’t press 1'),
          h(
            'p',
            { class: 'small muted' },
            'Only contacts who agreed are texted, once per call, if the call rang and went unanswered.',
          ),
        ],
    h('p', { class: 'field-error', 'data-error-for': 'tell_contacts' }),
  );
  return {
    el,
    value() {
      const ids = boxes.filter((b) => b.checked).map((b) => b.value);
      return ids.length
        ? { contact_ids: ids, when: also.checked ? 'missed_or_unconfirmed' : 'missed' }
        : null;
    },
  };
}

/** Retry-policy fields; `value()` reads them as a RetryPolicy. */
export function retryFields(rp) {
  const offsets = h('input', {
    type: 'text',
    name: 'offsets_minutes',
    value: (rp.offsets_minutes || []).join(', '),
    inputmode: 'numeric',
  });
  const snooze = h('input', {
    type: 'number',
    name: 'snooze_minutes',
    min: 1,
    max: 30,
    value: rp.snooze_minutes,
  });
  const maxSnoozes = h('input', {
    type: 'number',
    name: 'max_snoozes',
    min: 0,
    max: 5,
    value: rp.max_snoozes,
  });
  const ring = h('input', {
    type: 'number',
    name: 'ring_timeout_seconds',
    min: 15,
    max: 120,
    value: rp.ring_timeout_seconds,
  });
  const el = h(
    'div',
    { class: 'grid2' },
    field(
      'Retry after (minutes)',
      offsets,
      'Up to 5 increasing values, 1 to 120, comma-separated: further calls when you don’t confirm.',
    ),
    field('Ring for (seconds)', ring, '15 to 120.'),
    field('Snooze length (minutes)', snooze, 'Key 2 snoozes: 1 to 30.'),
    field('Snoozes allowed', maxSnoozes, '0 to 5.'),
  );
  const num = (x) => (x.value === '' ? undefined : Number(x.value));
  return {
    el,
    value: () => ({
      offsets_minutes: offsets.value
        .split(/[\s,]+/)
        .filter(Boolean)
        .map(Number),
      snooze_minutes: num(snooze),
      max_snoozes: num(maxSnoozes),
      ring_timeout_seconds: num(ring),
    }),
  };
}

function addDays(d, n) {
  const t = new Date(`${d}T12:00:00Z`);
  t.setUTCDate(t.getUTCDate() + n);
  return t.toISOString().slice(0, 10);
}
