// Webhooks: the account's endpoints (add with the secret shown once, change, turn off and on,
// rotate the secret, send a test event, delete) and each endpoint's delivery log (status,
// attempts, response code, latency, error) with "send again" for one event.
import { del, get, patch, post } from '../api.js';
import { action, announce, field, h, onSubmit, secretBox } from '../dom.js';
import * as fmt from '../fmt.js';

/** Event types, in the API's order, with what a person reads. */
const EVENTS = [
  ['occurrence.confirmed', 'Call confirmed (1 pressed)'],
  ['occurrence.missed', 'Call missed (nobody answered)'],
  ['occurrence.unconfirmed', 'Call answered but not confirmed'],
  ['occurrence.failed', 'Call failed (provider error)'],
  ['occurrence.cancelled', 'Call cancelled'],
  ['calls.revoked', 'Calls turned off (9 pressed)'],
  ['phone_number.blocked', 'Number blocked'],
  ['phone_number.unblocked', 'Number unblocked'],
  ['schedule.completed', 'Schedule completed'],
  ['contact.told', 'Contact told'],
];
const EVENT_WORDS = Object.fromEntries([...EVENTS, ['webhook.test', 'Test event']]);
const STATUS = {
  pending: ['Pending', 'warn'],
  delivered: ['Delivered', 'ok'],
  failed: ['Failed', 'bad'],
};

export async function render(root, ctx) {
  if (ctx.params[0]) return endpointPage(root, ctx, ctx.params[0]);
  const list = await get('/webhook-endpoints?limit=200');
  root.append(
    h('h1', {}, 'Webhooks'),
    h(
      'p',
      {},
      'Your own systems (home automation, a log, a pager) receive a signed request when a call is confirmed or missed, when 9 is pressed, and more. ',
      'Each request can be verified with its endpoint’s secret (Standard Webhooks; see the ',
      h('a', { href: '/docs' }, 'API reference'),
      ').',
    ),
  );
  const endpoints = h('div', {});
  const show = (items) =>
    endpoints.replaceChildren(
      items.length === 0
        ? h('p', { class: 'muted' }, 'No endpoint yet.')
        : h(
            'ul',
            { class: 'list', 'aria-label': 'Your webhook endpoints' },
            items.map((e) => h('li', {}, endpointCard(e))),
          ),
    );
  show(list.items);
  root.append(endpoints);
  root.append(addForm(ctx, async () => show((await get('/webhook-endpoints?limit=200')).items)));
}

/** TLS error codes of Node's https client, as sentences. */
const TLS_WORDS = [
  [/ALTNAME|HOSTNAME|HOST_MISMATCH/, 'The site’s certificate is for another address.'],
  [/EXPIRED/, 'The site’s certificate has expired.'],
  [/NOT_YET_VALID/, 'The site’s certificate is not valid yet.'],
  [
    /SELF_SIGNED|UNABLE_TO|UNTRUSTED|DEPTH_ZERO/,
    'The site’s certificate is not signed by an authority this server trusts.',
  ],
];

/**
 * Why a delivery failed, as a sentence, from the API's few words ("connection refused",
 * "answered 500", "TLS: ERR_TLS_CERT_ALTNAME_INVALID"); the words stay after it, small, for
 * whoever fixes the receiver.
 */
function deliveryError(error) {
  const tls = /^TLS: (.+)$/.exec(error);
  let sentence = null;
  if (tls)
    sentence = (TLS_WORDS.find(([re]) => re.test(tls[1])) || [
      null,
      'The secure connection to your endpoint failed.',
    ])[1];
  else if (error === 'connection refused')
    sentence = 'Nothing accepted the connection at this address: is your receiver running?';
  else if (error === 'connection reset')
    sentence = 'Your endpoint closed the connection before answering.';
  else if (error === 'connection timed out')
    sentence = 'Your endpoint could not be reached in time.';
  else if (error === 'timed out') sentence = 'Your endpoint did not answer in time.';
  else if (/^answered \d+$/.test(error))
    sentence = `Your endpoint answered ${error.slice(9)}; only a 2xx answer counts as received.`;
  else if (/^redirect/.test(error))
    sentence =
      'Your endpoint answered with a redirect, which is not followed: use the final address.';
  else if (/^target not allowed/.test(error))
    sentence = 'This server does not send to that address.';
  else if (/^(ENOTFOUND|EAI_AGAIN)$/.test(error))
    sentence = 'The endpoint’s host name could not be found.';
  return sentence ? [sentence, ' ', h('span', { class: 'muted' }, `(${error})`)] : error;
}

function stateBadge(e) {
  if (e.enabled && e.failing_since) return h('span', { class: 'badge bad' }, 'Failing');
  if (e.enabled) return h('span', { class: 'badge ok' }, 'On');
  if (e.disabled_reason === 'failing')
    return h('span', { class: 'badge bad' }, 'Turned off: failing');
  return h('span', { class: 'badge warn' }, 'Off');
}

function eventsText(types) {
  return types.length === EVENTS.length
    ? 'Every event'
    : types.map((t) => EVENT_WORDS[t] || t).join(', ');
}

function endpointCard(e) {
  return h(
    'article',
    { class: 'card', 'data-endpoint': e.id },
    h(
      'div',
      { class: 'spread' },
      h('h2', { class: 'key-url' }, h('a', { href: `#/webhooks/${e.id}` }, e.url)),
      stateBadge(e),
    ),
    e.description ? h('p', { class: 'tight' }, e.description) : null,
    h('p', { class: 'small muted' }, eventsText(e.event_types)),
    e.failing_since
      ? h('p', { class: 'small' }, `Failing since ${fmt.instant(e.failing_since)}.`)
      : null,
  );
}

/** Event checkboxes (all checked when `checked` is omitted). */
function eventBoxes(checked) {
  const on = new Set(checked || EVENTS.map(([t]) => t));
  return h(
    'fieldset',
    {},
    h('legend', {}, 'Events to send'),
    EVENTS.map(([t, label]) =>
      h(
        'label',
        { class: 'choice' },
        h('input', { type: 'checkbox', name: 'event_types', value: t, checked: on.has(t) }),
        label,
      ),
    ),
    h('p', { class: 'field-error', 'data-error-for': 'event_types' }),
  );
}

const checkedTypes = (form) =>
  [...form.querySelectorAll('input[name=event_types]:checked')].map((x) => x.value);

/** The secret, shown once after creating or rotating. */
function secretNotice(secret, onDone) {
  const ok = h('button', { type: 'button', class: 'secondary', onclick: onDone }, 'I copied it');
  const box = h(
    'div',
    { class: 'card notice' },
    h('p', {}, h('strong', {}, 'Copy this signing secret now: it is shown only once.')),
    secretBox(secret, 'webhook-secret'),
    h(
      'p',
      { class: 'small muted' },
      'Your receiver verifies each request’s webhook-signature header with it.',
    ),
    ok,
  );
  queueMicrotask(() => ok.focus());
  return box;
}

/** The form to add an endpoint; `refreshList` shows the new one in the list above. */
function addForm(ctx, refreshList) {
  const url = h('input', {
    type: 'url',
    name: 'url',
    maxlength: 2000,
    required: true,
    placeholder: 'https://example.com/hooks/wakeup',
  });
  const description = h('input', { type: 'text', name: 'description', maxlength: 200 });
  const shown = h('div', { 'aria-live': 'polite' });
  const form = h(
    'form',
    { class: 'card', novalidate: true, id: 'add-webhook' },
    h('h2', {}, 'Add an endpoint'),
    field(
      'URL',
      url,
      'An https address that accepts POST requests (a LAN address only if this server allows it).',
    ),
    field('Description (optional)', description),
    eventBoxes(),
    h('div', { class: 'actions' }, h('button', { type: 'submit' }, 'Add endpoint')),
    shown,
  );
  onSubmit(form, async () => {
    const types = checkedTypes(form);
    if (!types.length)
      throw { local: true, detail: 'Choose at least one event.', field: 'event_types' };
    const e = await post('/webhook-endpoints', {
      url: url.value.trim(),
      description: description.value.trim(),
      event_types: types,
    });
    announce('Endpoint added.');
    // The list shows it at once; the form is cleared for the next one; the secret stays below.
    url.value = '';
    description.value = '';
    for (const box of form.querySelectorAll('input[name=event_types]')) box.checked = true;
    shown.replaceChildren(secretNotice(e.secret, () => ctx.go(`#/webhooks/${e.id}`)));
    await refreshList();
  });
  return form;
}

async function endpointPage(root, ctx, id) {
  const [e, log] = await Promise.all([
    get(`/webhook-endpoints/${id}`),
    get(`/webhook-endpoints/${id}/deliveries?limit=50`),
  ]);
  root.append(
    h('p', { class: 'small' }, h('a', { href: '#/webhooks' }, '← All webhooks')),
    h('h1', {}, 'Webhook endpoint'),
    h('p', { class: 'key' }, e.url),
  );
  const status = h(
    'div',
    { class: 'card', id: 'endpoint-state', 'data-enabled': String(e.enabled) },
    h('p', { class: 'row' }, stateBadge(e), ' ', e.description || ''),
    h('p', { class: 'small muted' }, eventsText(e.event_types)),
    h(
      'p',
      { class: 'small muted' },
      `Secret ${e.secret_hint}…`,
      e.previous_secret_expires_at
        ? ` · the previous secret also signs until ${fmt.instant(e.previous_secret_expires_at)}`
        : '',
    ),
    e.disabled_reason === 'failing'
      ? h(
          'p',
          { class: 'card danger small', role: 'note' },
          'Every delivery failed for three days, so nothing is sent to it any more. Once it answers again, turn it on; failed deliveries can be sent again from the log.',
        )
      : e.failing_since
        ? h(
            'p',
            { class: 'small' },
            `Deliveries have been failing since ${fmt.instant(e.failing_since)}.`,
          )
        : null,
  );
  const shown = h('div', { 'aria-live': 'polite' });
  const actions = h(
    'div',
    { class: 'actions' },
    e.enabled
      ? action('Send a test event', async () => {
          await post(`/webhook-endpoints/${id}/test`);
          announce('Test event queued.');
          ctx.reload();
        })
      : null,
    action(e.enabled ? 'Turn off' : 'Turn on', async () => {
      await patch(`/webhook-endpoints/${id}`, { enabled: !e.enabled });
      announce(e.enabled ? 'Endpoint turned off.' : 'Endpoint turned on.');
      ctx.reload();
    }),
    action('Rotate secret', async () => {
      if (!confirm('Make a new signing secret? The current one keeps signing too for 24 hours.'))
        return;
      const r = await post(`/webhook-endpoints/${id}/rotate-secret`);
      shown.replaceChildren(secretNotice(r.secret, () => ctx.reload()));
    }),
    action(
      'Delete',
      async () => {
        if (
          !confirm(
            `Delete the endpoint ${e.url}? Nothing more is sent to it and its log is deleted.`,
          )
        )
          return;
        await del(`/webhook-endpoints/${id}`);
        announce('Endpoint deleted.');
        ctx.go('#/webhooks');
      },
      { class: 'danger' },
    ),
  );
  root.append(status, actions, shown, logSection(e, log, ctx), editForm(e, ctx));
  // While a delivery is pending, the log refreshes itself.
  if (log.items.some((d) => d.status === 'pending')) {
    const timer = setTimeout(() => !ctx.stale() && ctx.reload(), 3000);
    ctx.onLeave(() => clearTimeout(timer));
  }
}

function editForm(e, ctx) {
  const url = h('input', {
    type: 'url',
    name: 'url',
    maxlength: 2000,
    value: e.url,
    required: true,
  });
  const description = h('input', {
    type: 'text',
    name: 'description',
    maxlength: 200,
    value: e.description,
  });
  const form = h(
    'form',
    { class: 'card', novalidate: true },
    h('h2', {}, 'Change'),
    field('URL', url),
    field('Description', description),
    eventBoxes(e.event_types),
    h(
      'div',
      { class: 'actions' },
      h('button', { type: 'submit', class: 'secondary' }, 'Save changes'),
    ),
  );
  onSubmit(form, async () => {
    const types = checkedTypes(form);
    if (!types.length)
      throw { local: true, detail: 'Choose at least one event.', field: 'event_types' };
    await patch(`/webhook-endpoints/${e.id}`, {
      url: url.value.trim(),
      description: description.value.trim(),
      event_types: types,
    });
    announce('Endpoint saved.');
    ctx.reload();
  });
  return form;
}

function logSection(e, log, ctx) {
  const sec = h(
    'section',
    { 'aria-labelledby': 'log-h', id: 'log-section' },
    h(
      'div',
      { class: 'spread' },
      h('h2', { id: 'log-h' }, 'Delivery log'),
      action('Refresh', async () => ctx.reload()),
    ),
    h(
      'p',
      { class: 'small muted' },
      'The last 30 days, newest first. A failed attempt is tried again for three days.',
    ),
  );
  if (!log.items.length) {
    sec.append(h('p', { class: 'muted', id: 'log-empty' }, 'Nothing sent yet.'));
    return sec;
  }
  sec.append(
    h(
      'div',
      { class: 'table-wrap' },
      h(
        'table',
        { id: 'delivery-log' },
        h(
          'thead',
          {},
          h(
            'tr',
            {},
            ['Event', 'Status', 'Answer', 'When', ''].map((t) => h('th', { scope: 'col' }, t)),
          ),
        ),
        h(
          'tbody',
          {},
          log.items.map((d) => {
            const [word, cls] = STATUS[d.status];
            const when =
              d.status === 'pending' && d.next_attempt_at
                ? `next try ${fmt.instant(d.next_attempt_at)}`
                : d.last_attempt_at
                  ? fmt.instant(d.last_attempt_at)
                  : fmt.instant(d.created_at);
            return h(
              'tr',
              { 'data-delivery': d.id, 'data-status': d.status, 'data-event-type': d.event_type },
              h(
                'td',
                {},
                EVENT_WORDS[d.event_type] || d.event_type,
                h('div', { class: 'small muted wide-only' }, h('code', {}, d.event_id)),
              ),
              h(
                'td',
                {},
                h('span', { class: `badge ${cls}` }, word),
                ` ${d.attempts} ${d.attempts === 1 ? 'attempt' : 'attempts'}`,
                d.error
                  ? h('div', { class: 'small delivery-error' }, deliveryError(d.error))
                  : null,
              ),
              h(
                'td',
                {},
                d.response_status === null ? 'No answer' : `HTTP ${d.response_status}`,
                d.latency_ms === null
                  ? null
                  : h('span', { class: 'small muted' }, `, ${d.latency_ms} ms`),
              ),
              h('td', { class: 'small' }, when),
              h(
                'td',
                {},
                e.enabled
                  ? action('Send again', async () => {
                      await post(`/webhook-endpoints/${e.id}/deliveries/${d.id}/redeliver`);
                      announce('Sent again.');
                      ctx.reload();
                    })
                  : null,
              ),
            );
          }),
        ),
      ),
    ),
  );
  return sec;
}
