// Account: usage and plan (with checkout when billing is served), API keys (created with
// scopes, the key shown once, revoke), export, deletion by emailed code, sign out.
import { api, del, get, post } from '../api.js';
import { action, announce, field, fill, h, onSubmit, secretBox } from '../dom.js';
import { devCodeHint } from '../dev.js';
import * as fmt from '../fmt.js';
import { problemSentence } from '../messages.js';

export async function render(root, ctx) {
  const [usage, keys, plans] = await Promise.all([
    get('/me/usage'),
    get('/api-keys?limit=200'),
    get('/billing/plans').catch((err) => err),
  ]);
  root.append(h('h1', {}, 'Account'), h('p', {}, `Signed in as ${ctx.me.email}.`));
  root.append(planSection(usage, plans));
  root.append(keysSection(keys, ctx));
  root.append(dataSection(ctx));
}

function planSection(u, plans) {
  const plan = u.plan;
  const sec = h(
    'section',
    { 'aria-labelledby': 'plan-h' },
    h('h2', { id: 'plan-h' }, 'Plan and usage'),
  );
  const card = h(
    'div',
    { class: 'card' },
    h(
      'p',
      {},
      h('strong', {}, plan.name || 'No plan'),
      ' ',
      h(
        'span',
        { class: `badge ${plan.entitled ? 'ok' : 'bad'}` },
        plan.entitled ? 'Calls will ring' : 'Needs a plan: calls will not ring',
      ),
    ),
    h(
      'p',
      {},
      `${u.calls_used} of ${u.calls_included} calls used this period (${fmt.instant(u.period_start)} to ${fmt.instant(u.period_end)}).`,
      u.credits_remaining ? ` ${u.credits_remaining} call credits left.` : '',
    ),
    plan.status === 'trialing'
      ? h(
          'p',
          { class: 'small muted' },
          `Free trial: ${u.trial.calls_left} calls left, ends ${fmt.instant(u.trial.ends_at)}. Test calls count.`,
        )
      : null,
    u.near_limit
      ? h(
          'p',
          { class: 'card notice small', role: 'note' },
          'You are close to the calls your plan includes.',
        )
      : null,
  );
  sec.append(card);
  if (plans instanceof Error || !plans) {
    const msg =
      plans && plans.status === 404
        ? 'Paid plans are not offered by this server.'
        : `Plans could not be loaded. ${problemSentence(plans || {})}`;
    sec.append(h('p', { class: 'muted small', id: 'plans-unavailable' }, msg));
    return sec;
  }
  const buy = plans.items.filter((p) => p.purchasable);
  // Subscriptions renew each month or year; packs are paid once and become call credits that
  // never expire (bought with or without a subscription).
  const subscriptions = plan.source ? [] : buy.filter((p) => p.interval !== 'none');
  const packs = buy.filter((p) => p.interval === 'none');
  const price = (p) => `${(p.price_cents / 100).toFixed(2)} ${p.currency}`;
  if (subscriptions.length)
    sec.append(
      h('h3', {}, 'Plans'),
      h(
        'ul',
        { class: 'list', 'aria-label': 'Plans' },
        subscriptions.map((p) =>
          h(
            'li',
            { class: 'card' },
            h(
              'div',
              { class: 'spread' },
              h('strong', {}, p.name),
              h('span', {}, `${price(p)} a ${p.interval}`),
            ),
            h(
              'p',
              { class: 'small muted' },
              `${p.included_calls_per_period} wake-up calls a ${p.interval}. Renews until you cancel.`,
            ),
            action(`Subscribe to ${p.name}`, () => checkout(p)),
          ),
        ),
      ),
    );
  if (packs.length)
    sec.append(
      h('h3', {}, 'Call credits'),
      h(
        'ul',
        { class: 'list', 'aria-label': 'Call credits' },
        packs.map((p) =>
          h(
            'li',
            { class: 'card' },
            h(
              'div',
              { class: 'spread' },
              h('strong', {}, `${p.included_calls_per_period} call credits`),
              h('span', {}, `${price(p)}, paid once`),
            ),
            h(
              'p',
              { class: 'small muted' },
              `${p.included_calls_per_period} wake-up calls to use whenever you like, once your plan’s or trial’s calls run out. Credits never expire; nothing renews.`,
            ),
            action(`Buy ${p.included_calls_per_period} call credits`, () => checkout(p)),
          ),
        ),
      ),
    );
  if (plan.source === 'web')
    sec.append(
      action('Manage billing', async () => {
        const { url } = await post('/billing/portal', undefined, { idem: true });
        location.assign(url);
      }),
    );
  return sec;
}

async function checkout(p) {
  const { url } = await post('/billing/checkout', { plan: p.code }, { idem: true });
  location.assign(url);
}

function keysSection(keys, ctx) {
  const sec = h(
    'section',
    { 'aria-labelledby': 'keys-h' },
    h('h2', { id: 'keys-h' }, 'API keys'),
    h(
      'p',
      { class: 'small muted' },
      'For scripts and other programs: send a key as Authorization: Bearer <key>. See the ',
      h('a', { href: '/docs' }, 'API reference'),
      '.',
    ),
  );
  const list = h('div', {});
  const showKeys = (items) =>
    list.replaceChildren(
      h(
        'ul',
        { class: 'list', 'aria-label': 'Your API keys' },
        items.map((k) =>
          h(
            'li',
            { class: 'card spread' },
            h(
              'div',
              {},
              h('strong', {}, k.name),
              ' ',
              h('code', {}, `${k.prefix}…`),
              h(
                'div',
                { class: 'small muted' },
                `Scopes: ${k.scopes.join(', ')} · created ${fmt.instant(k.created_at)} · ${k.last_used_at ? `last used ${fmt.instant(k.last_used_at)}` : 'never used'}`,
              ),
            ),
            action(
              'Revoke',
              async () => {
                if (!confirm(`Revoke “${k.name}”? Programs using it stop working.`)) return;
                await del(`/api-keys/${k.id}`);
                announce('Key revoked.');
                ctx.reload();
              },
              { class: 'danger' },
            ),
          ),
        ),
      ),
    );
  showKeys(keys.items);
  sec.append(list);
  const name = h('input', { type: 'text', name: 'name', maxlength: 100, required: true });
  const scope = (v, label, on) =>
    h(
      'label',
      { class: 'choice' },
      h('input', { type: 'checkbox', name: 'scopes', value: v, 'data-group': '1', checked: on }),
      label,
    );
  const shown = h('div', { 'aria-live': 'polite' });
  const form = h(
    'form',
    { class: 'card', novalidate: true },
    h('h3', {}, 'New key'),
    field('Name', name, 'What will use it, e.g. “home automation”.'),
    h(
      'fieldset',
      {},
      h('legend', {}, 'Scopes'),
      scope('read', 'Read', true),
      scope('write', 'Write', true),
      scope('export', 'Export (needs read)', false),
      h('p', { class: 'field-error', 'data-error-for': 'scopes' }),
    ),
    h('div', { class: 'actions' }, h('button', { type: 'submit' }, 'Create key')),
    shown,
  );
  onSubmit(form, async () => {
    const scopes = [...form.querySelectorAll('input[name=scopes]:checked')].map((x) => x.value);
    const k = await post('/api-keys', { name: name.value.trim(), scopes });
    const ok = h(
      'button',
      { type: 'button', class: 'secondary', onclick: () => ctx.reload() },
      'I copied it',
    );
    shown.replaceChildren(
      h(
        'div',
        { class: 'card notice' },
        h('p', {}, h('strong', {}, 'Copy this key now: it is shown only once.')),
        secretBox(k.key, 'new-key'),
        ok,
      ),
    );
    // The list shows the new key at once, and the form is ready for another.
    name.value = '';
    showKeys((await get('/api-keys?limit=200')).items);
    ok.focus();
  });
  sec.append(form);
  return sec;
}

/** The page after deletion: every session has ended, so it leads back to sign-in. */
function deletedPage(r) {
  document.getElementById('nav').hidden = true;
  fill(
    document.getElementById('main'),
    h('h1', { tabindex: '-1' }, 'Your account was deleted'),
    h(
      'p',
      {},
      `It was deleted on ${fmt.instant(r.deleted_at)}. Every call is stopped, and your personal data is purged 30 days later.`,
    ),
    h('p', {}, h('a', { class: 'button', href: '/' }, 'Back to the start')),
  );
  document.querySelector('main h1').focus();
}

function dataSection(ctx) {
  const sec = h('section', { 'aria-labelledby': 'data-h' }, h('h2', { id: 'data-h' }, 'Your data'));
  sec.append(
    h(
      'div',
      { class: 'card' },
      h('p', {}, 'Download every record this service holds about you, as one JSON document.'),
      h(
        'a',
        { class: 'button secondary', href: '/api/v1/me/export', download: '' },
        'Download my data',
      ),
    ),
    h(
      'div',
      { class: 'actions' },
      action('Sign out', async () => {
        await post('/auth/logout');
        location.hash = '#/';
        location.reload();
      }),
    ),
  );
  const code = h('input', {
    type: 'text',
    name: 'code',
    inputmode: 'numeric',
    maxlength: 6,
    autocomplete: 'one-time-code',
  });
  const confirmWord = h('input', {
    type: 'text',
    name: 'confirm',
    autocomplete: 'off',
    autocapitalize: 'characters',
  });
  const delForm = h(
    'form',
    { class: 'card danger', novalidate: true, hidden: true, 'aria-label': 'Delete the account' },
    field('Code from the email', code),
    h('div', { class: 'dev-slot' }),
    field('Type DELETE to confirm', confirmWord),
    h(
      'div',
      { class: 'actions' },
      h('button', { type: 'submit', class: 'danger' }, 'Delete my account'),
    ),
  );
  onSubmit(delForm, async () => {
    // The word is known here: a wrong one is said at once, without a request (the server checks
    // it before the code, so the code is checked only with the right word).
    if (confirmWord.value.trim() !== 'DELETE')
      throw {
        local: true,
        field: 'confirm',
        detail: 'Type the word DELETE, in capital letters, to confirm.',
      };
    const r = await api('DELETE', '/me', { code: code.value.trim() || null, confirm: 'DELETE' });
    deletedPage(r);
  });
  const start = h(
    'form',
    { class: 'card danger', novalidate: true },
    h('h3', {}, 'Delete the account'),
    h(
      'p',
      {},
      'Every call stops at once; your personal data is anonymized now and purged after 30 days. We email you a code to confirm.',
    ),
    h(
      'div',
      { class: 'actions' },
      h('button', { type: 'submit', class: 'danger' }, 'Email me a deletion code'),
    ),
  );
  onSubmit(start, async () => {
    const sent = await post('/me/deletion-code', undefined, { idem: true });
    announce(`Code sent to ${sent.sent_to}.`);
    delForm.hidden = false;
    delForm.querySelector('.dev-slot').replaceChildren(devCodeHint(code, ctx.me.email, 'email'));
    code.focus();
  });
  sec.append(start, delForm);
  return sec;
}
