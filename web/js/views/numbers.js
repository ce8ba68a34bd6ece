// Phone numbers: add (a code is texted, or a call for a landline), verify by code, resend,
// make primary, label, test call, delete; a blocked number says why and how to lift it.
import { del, get, patch, post } from '../api.js';
import { action, announce, field, h, onSubmit } from '../dom.js';
import { devCodeHint } from '../dev.js';
import * as fmt from '../fmt.js';
import { problemSentence } from '../messages.js';
import { blockedText, numberState } from '../states.js';

/** Numbers sent a code from this page since it was opened: their code field is shown. */
const codeSent = new Map();

export async function render(root, ctx) {
  const [list, countries] = await Promise.all([
    get('/phone-numbers?limit=200'),
    get('/countries').catch(() => ({ items: [] })),
  ]);
  root.append(h('h1', {}, 'Phone numbers'));
  if (list.items.length === 0)
    root.append(h('p', {}, 'Add the number your wake-up calls should ring.'));
  root.append(
    h(
      'ul',
      { class: 'list', 'aria-label': 'Your numbers' },
      list.items.map((n) => h('li', {}, numberCard(n, ctx))),
    ),
  );
  root.append(addForm(ctx, countries.items));
}

function numberCard(n, ctx) {
  const [state, tone] = numberState(n);
  const badges = [
    n.is_primary ? h('span', { class: 'badge info' }, 'Primary') : null,
    h(
      'span',
      {
        class: `badge ${tone}`,
        'data-state': n.blocked ? 'blocked' : n.verified ? 'verified' : 'unverified',
      },
      state,
    ),
  ];
  const card = h(
    'article',
    { class: 'card', 'data-number': n.e164 },
    h(
      'div',
      { class: 'spread' },
      h('h2', {}, n.label || 'Phone', ' ', h('span', { class: 'muted' }, n.e164)),
      h('span', { class: 'row' }, badges),
    ),
    h(
      'p',
      { class: 'small muted' },
      `${n.type.replace(/_/g, ' ')} · ${n.country_code}`,
      n.verification_expires_at && n.verified
        ? ` · verified until ${fmt.instant(n.verification_expires_at)}`
        : '',
      n.last_confirmed_at ? ` · last confirmed call ${fmt.instant(n.last_confirmed_at)}` : '',
    ),
  );
  if (n.blocked)
    card.append(
      h('p', { class: 'card danger small', role: 'note' }, blockedText(n.blocked_reason)),
    );
  // A key-9 block is lifted by verifying again; other blocks are not lifted by a code.
  if ((!n.verified && !n.blocked) || n.blocked_reason === 'key_9') card.append(verifyForm(n, ctx));

  const label = h('input', { type: 'text', name: 'label', value: n.label || '', maxlength: 60 });
  const labelForm = onSubmit(
    h(
      'form',
      { class: 'row', novalidate: true },
      field('Label', label),
      h('button', { type: 'submit', class: 'secondary' }, 'Save label'),
    ),
    async () => {
      await patch(`/phone-numbers/${n.id}`, { label: label.value.trim() });
      announce('Label saved.');
      ctx.reload();
    },
  );
  const actions = h('div', { class: 'actions' });
  if (!n.is_primary)
    actions.append(
      action('Make primary', async () => {
        await patch(`/phone-numbers/${n.id}`, { is_primary: true });
        announce(`${n.e164} is now your primary number.`);
        ctx.reload();
      }),
    );
  if (n.verified && !n.blocked)
    actions.append(
      action('Test call', async () => {
        const a = await post(`/phone-numbers/${n.id}/test-call`, undefined, { idem: true });
        ctx.go(`#/attempts/${a.id}`);
      }),
    );
  actions.append(
    action(
      'Delete',
      async () => {
        if (!confirm(`Delete ${n.e164}? Calls set to ring it stop ringing it.`)) return;
        await del(`/phone-numbers/${n.id}`);
        announce('Number deleted.');
        ctx.reload();
      },
      { class: 'danger' },
    ),
  );
  card.append(h('details', {}, h('summary', {}, 'Change label'), labelForm), actions);
  return card;
}

/**
 * Verifying a number by code. A new number was sent its code when it was added; a blocked or
 * expired one is sent none until asked, so its code field appears only once a code is sent.
 */
function verifyForm(n, ctx) {
  const channel = codeSent.get(n.id) ?? (!n.blocked && !n.verified_at ? 'added' : null);
  const howSent = (c) =>
    c === 'added'
      ? n.type === 'fixed_line'
        ? 'A landline gets the code by a phone call, sent when you added it.'
        : 'Sent by text message when you added it.'
      : c === 'call'
        ? 'Sent just now by a phone call.'
        : 'Sent just now by text message.';
  const code = h('input', {
    type: 'text',
    name: 'code',
    inputmode: 'numeric',
    autocomplete: 'one-time-code',
    maxlength: 6,
    required: true,
  });
  const codeField = field('Code we sent to this number', code, channel ? howSent(channel) : ' ');
  const devHint = devCodeHint(code, n.e164, 'sms');
  codeField.append(devHint);
  const verify = h('button', { type: 'submit' }, 'Verify');
  const form = h(
    'form',
    { class: 'verify', novalidate: true, 'aria-label': `Verify ${n.e164}` },
    codeField,
    h('div', { class: 'actions' }, verify),
  );
  codeField.hidden = verify.hidden = !channel;
  onSubmit(form, async () => {
    await post(`/phone-numbers/${n.id}/verify/check`, { code: code.value.trim() }, { idem: true });
    announce(`${n.e164} is verified.`);
    await ctx.reloadMe();
    ctx.reload();
  });
  const sendButton = h(
    'button',
    { type: 'submit', class: channel ? 'link' : '' },
    channel ? 'Send a new code' : 'Send a code',
  );
  const resend = h('form', { class: 'inline-action' }, sendButton);
  form.querySelector('.actions').append(resend);
  onSubmit(resend, async () => {
    const v = await post(`/phone-numbers/${n.id}/verify/start`, {}, { idem: true });
    if (!v.sent)
      throw v.error
        ? { ...v.error, field: undefined }
        : { local: true, detail: 'The code could not be sent. Try again in a moment.' };
    codeSent.set(n.id, v.channel || 'sms');
    codeField.hidden = verify.hidden = false;
    codeField.querySelector('.hint').textContent = howSent(v.channel || 'sms');
    devHint.refresh();
    sendButton.className = 'link';
    sendButton.textContent = 'Send a new code';
    code.focus();
    announce('A new code is on its way.');
  });
  return form;
}

/** The country this browser's language names (en-GB: GB), if the service calls there. */
function browserCountry(countries) {
  const region = (navigator.language || '').split('-')[1];
  return (
    countries.find((c) => c.country_code === (region || '').toUpperCase()) ||
    countries.find((c) => c.country_code === 'US')
  );
}

/**
 * The number in international form from what was typed: as it is with + (or 00), else a
 * national number in the chosen country (its leading trunk 0 dropped, except in Italy, where
 * it belongs to the number; a leading 1 dropped in the +1 countries). The server checks it.
 */
export function toE164(typed, country) {
  const raw = typed.replace(/[\s().-]/g, '');
  if (raw.startsWith('+')) return raw;
  if (raw.startsWith('00')) return `+${raw.slice(2)}`;
  if (!country || !raw) return raw;
  let national = raw;
  if (country.calling_code === '+1' && national.length === 11 && national.startsWith('1'))
    national = national.slice(1);
  else if (country.country_code !== 'IT' && national.startsWith('0')) national = national.slice(1);
  return `${country.calling_code}${national}`;
}

function addForm(ctx, countries) {
  const e164 = h('input', {
    type: 'tel',
    name: 'e164',
    autocomplete: 'tel',
    placeholder: '020 7946 0018 or +14155550123',
    required: true,
  });
  const label = h('input', { type: 'text', name: 'label', maxlength: 60, placeholder: 'Mobile' });
  const picked = browserCountry(countries);
  const country = countries.length
    ? h(
        'select',
        { name: 'country' },
        countries.map((c) =>
          h(
            'option',
            { value: c.country_code, selected: c === picked },
            `${c.name} (${c.calling_code})`,
          ),
        ),
      )
    : null;
  const chosen = () => (country ? countries.find((c) => c.country_code === country.value) : null);
  const reading = h('p', { class: 'hint', id: 'number-reading', 'aria-live': 'polite' });
  const showReading = () => {
    const typed = e164.value.trim();
    const full = toE164(typed, chosen());
    reading.textContent =
      typed && full !== typed.replace(/[\s().-]/g, '') ? `We will call ${full}.` : '';
  };
  e164.addEventListener('input', showReading);
  if (country) country.addEventListener('change', showReading);
  const form = h(
    'form',
    { class: 'card', novalidate: true, 'aria-labelledby': 'add-number-title' },
    h('h2', { id: 'add-number-title' }, 'Add a number'),
    country
      ? field('Country', country, 'Where the number is from; only these countries can be called.')
      : null,
    field(
      'Phone number',
      e164,
      'As you would dial it in that country, or in international form with + and the country code.',
    ),
    reading,
    field('Label (optional)', label),
    h('div', { class: 'actions' }, h('button', { type: 'submit' }, 'Add and send code')),
  );
  return onSubmit(form, async () => {
    const created = await post(
      '/phone-numbers',
      { e164: toE164(e164.value.trim(), chosen()), label: label.value.trim() || null },
      { idem: true },
    );
    const v = created.verification;
    announce(
      v.sent
        ? `Code sent to ${created.e164} by ${v.channel === 'call' ? 'phone call' : 'text'}.`
        : `Number added, but the code could not be sent. ${v.error ? problemSentence(v.error) : ''}`,
    );
    await ctx.reloadMe();
    ctx.reload();
  });
}
