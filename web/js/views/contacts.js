// Contacts to tell: people texted when you sleep through a wake-up call. Add one
// (it gets an invitation with a code), see who agreed, enter the code a contact read out to
// you, send the invitation again, remove. A contact is named on a call in the call form.
import { del, get, post } from '../api.js';
import { action, announce, field, h, onSubmit } from '../dom.js';
import { devCodeHint } from '../dev.js';
import * as fmt from '../fmt.js';
import { problemSentence } from '../messages.js';

const STATUS = {
  pending: ['warn', 'Invited', 'Waiting for them to reply YES, or for the code they received.'],
  expired: [
    'warn',
    'Invitation expired',
    'They did not agree within 7 days. Send the invitation again.',
  ],
  agreed: ['ok', 'Agreed', 'They get a text when a call naming them goes unanswered.'],
  stopped: ['bad', 'Stopped', 'They texted STOP: nothing is sent to them any more.'],
};

/** Sentences for the problems a contact form meets whose catalogue words speak of your own numbers. */
function contactProblem(err) {
  if (err.code === 'message_disallowed_content' && err.field === 'display_name')
    return {
      local: true,
      detail: 'Your contacts are texted your name. Set a simple greeting name in Settings first.',
    };
  if (err.code === 'message_disallowed_content' && err.field === 'name')
    return {
      local: true,
      field: 'name',
      detail: 'Use only letters, digits, spaces and simple punctuation in the name.',
    };
  if (err.code === 'number_blocked')
    return {
      local: true,
      field: 'e164',
      detail: 'This number asked for no texts (it texted STOP).',
    };
  if (err.code === 'contact_limit_reached')
    return { local: true, detail: 'You have the most contacts allowed. Remove one first.' };
  return err;
}

const friendly = (fn) => async (ev) => {
  try {
    await fn(ev);
  } catch (err) {
    throw err && err.code ? contactProblem(err) : err;
  }
};

export async function render(root, ctx) {
  const [list, numbers] = await Promise.all([
    get('/contacts?limit=200'),
    get('/phone-numbers?limit=200').catch(() => ({ items: [] })),
  ]);
  root.append(
    h('h1', {}, 'Contacts'),
    h(
      'p',
      {},
      'People who get a text when you sleep through a wake-up call. Each is asked first and told nothing until they agree; ',
      'choose who is told on each call.',
    ),
  );
  if (list.items.length === 0) root.append(h('p', { class: 'muted' }, 'No contacts yet.'));
  root.append(
    h(
      'ul',
      { class: 'list', 'aria-label': 'Your contacts' },
      list.items.map((c) => h('li', {}, contactCard(c, ctx))),
    ),
  );
  root.append(addForm(ctx, numbers.items));
}

function contactCard(c, ctx) {
  const [tone, label, meaning] = STATUS[c.status] || ['warn', c.status, ''];
  const card = h(
    'article',
    { class: 'card', 'data-contact': c.e164, 'data-status': c.status },
    h(
      'div',
      { class: 'spread' },
      h('h2', {}, c.name, ' ', h('span', { class: 'muted' }, c.e164)),
      h(
        'span',
        { class: 'row' },
        h('span', { class: `badge ${tone}` }, label),
        c.blocked ? h('span', { class: 'badge bad' }, 'Blocked') : null,
      ),
    ),
    h(
      'p',
      { class: 'small muted' },
      meaning,
      c.agreed_at
        ? ` Agreed ${fmt.instant(c.agreed_at)} ${c.agreed_by === 'code' ? 'with the code' : 'by replying YES'}.`
        : '',
      c.status === 'pending' && c.invitation_expires_at
        ? ` The invitation is valid until ${fmt.instant(c.invitation_expires_at)}.`
        : '',
    ),
  );
  if (c.status === 'pending') card.append(agreeForm(c, ctx));
  const actions = h('div', { class: 'actions' });
  if (c.status !== 'agreed' && !c.blocked)
    actions.append(
      action(
        'Send the invitation again',
        friendly(async () => {
          const r = await post(`/contacts/${c.id}/invite`, undefined, { idem: true });
          announce(
            r.invitation && r.invitation.sent
              ? `Invitation sent to ${c.name}.`
              : 'The invitation could not be sent. Try again later.',
          );
          ctx.reload();
        }),
      ),
    );
  actions.append(
    action(
      'Remove',
      async () => {
        if (!confirm(`Remove ${c.name}? They will not be told of any call any more.`)) return;
        await del(`/contacts/${c.id}`);
        announce(`${c.name} removed.`);
        ctx.reload();
      },
      { class: 'danger' },
    ),
  );
  card.append(actions);
  return card;
}

function agreeForm(c, ctx) {
  const code = h('input', {
    type: 'text',
    name: 'code',
    inputmode: 'numeric',
    autocomplete: 'off',
    maxlength: 6,
    required: true,
  });
  const form = h(
    'form',
    { class: 'verify', novalidate: true, 'aria-label': `Code from ${c.name}` },
    field(
      'Code they read out to you',
      code,
      'Or they can reply YES and the code to the invitation.',
    ),
    devCodeHint(code, c.e164, 'sms'),
    h('div', { class: 'actions' }, h('button', { type: 'submit' }, 'Confirm agreement')),
  );
  return onSubmit(form, async () => {
    await post(`/contacts/${c.id}/agree`, { code: code.value.trim() }, { idem: true });
    announce(`${c.name} agreed to be told.`);
    ctx.reload();
  });
}

/** The form to add a contact; `own` are the account's numbers, warned about when typed here. */
function addForm(ctx, own) {
  const name = h('input', {
    type: 'text',
    name: 'name',
    maxlength: 60,
    required: true,
    autocomplete: 'off',
  });
  const e164 = h('input', {
    type: 'tel',
    name: 'e164',
    placeholder: '+14155550123',
    required: true,
  });
  const normal = () => e164.value.replace(/[\s()-]/g, '');
  // A contact is someone else to wake you: your own wake-up number would tell only you.
  const ownWarning = h('p', {
    class: 'card notice small',
    role: 'note',
    id: 'own-number',
    hidden: true,
  });
  const checkOwn = () => {
    const mine = own.find((n) => n.e164 === normal());
    ownWarning.hidden = !mine;
    if (mine)
      ownWarning.textContent =
        `${mine.e164} is your own number (${mine.label || 'Phone'}): the wake-up calls ring it, so a text to it would tell ` +
        'only you. A contact is someone else who can wake you.';
  };
  e164.addEventListener('input', checkOwn);
  const form = h(
    'form',
    { class: 'card', novalidate: true, 'aria-labelledby': 'add-contact-title' },
    h('h2', { id: 'add-contact-title' }, 'Add a contact'),
    field('Their name', name, 'Only you see it.'),
    field(
      'Their mobile number, with country code',
      e164,
      'They get one text asking them to agree, with a code.',
    ),
    ownWarning,
    h('div', { class: 'actions' }, h('button', { type: 'submit' }, 'Add and invite')),
  );
  return onSubmit(
    form,
    friendly(async () => {
      const created = await post(
        '/contacts',
        { name: name.value.trim(), e164: normal() },
        { idem: true },
      );
      const inv = created.invitation;
      announce(
        inv === null
          ? `${created.name} is already one of your contacts.`
          : inv.sent
            ? `Invitation sent to ${created.name}.`
            : `Contact added, but the invitation could not be sent. ${problemSentence(inv.error || {})}`,
      );
      ctx.reload();
    }),
  );
}
