// Dev mode: the emails and texts the built-in simulators sent (GET /dev/outbox), newest first,
// each with its code picked out. Open signed in or out: the sign-in code is here too.
import { get } from '../api.js';
import { field, h, onSubmit } from '../dom.js';
import * as fmt from '../fmt.js';
import { devClock } from '../dev.js';

export async function render(root) {
  root.append(h('h1', {}, 'Outbox'));
  if (!(await devClock())) {
    root.append(
      h(
        'p',
        {},
        'The outbox is there only in dev mode (WAKEUP_DEV=1). ',
        h('a', { href: '#/' }, 'Go home'),
      ),
    );
    return;
  }
  root.append(
    h(
      'p',
      { class: 'muted' },
      'Dev mode: every email and text this server "sent", newest first. Nothing left the machine.',
    ),
  );
  const to = h('input', {
    type: 'search',
    name: 'to',
    placeholder: 'name@example.com or +14155550123',
  });
  const list = h('div', { id: 'outbox-list', 'aria-live': 'polite' });
  const form = h(
    'form',
    { class: 'card', novalidate: true, role: 'search' },
    field('Only messages to', to),
    h('div', { class: 'actions' }, h('button', { type: 'submit' }, 'Show'), ' '),
  );
  const load = async () => {
    const q = to.value.trim();
    const { items } = await get(`/dev/outbox${q ? `?to=${encodeURIComponent(q)}` : ''}`);
    list.replaceChildren(
      items.length
        ? h(
            'ul',
            { class: 'list', 'aria-label': 'Messages' },
            items.map((m) => h('li', {}, message(m))),
          )
        : h('p', { class: 'muted' }, q ? `Nothing sent to ${q}.` : 'Nothing sent yet.'),
    );
  };
  onSubmit(form, load);
  root.append(form, list);
  await load();
}

function message(m) {
  return h(
    'article',
    { class: 'card', 'data-outbox': m.id },
    h(
      'div',
      { class: 'spread' },
      h('h2', {}, m.subject || 'Text message'),
      h('span', { class: 'badge' }, m.channel === 'sms' ? 'Text' : 'Email'),
    ),
    h('p', { class: 'small muted' }, `To ${m.to} · ${fmt.instant(m.created_at)}`),
    m.code ? h('p', {}, 'Code: ', h('strong', { class: 'big' }, m.code)) : null,
    h('p', { class: 'message-body' }, m.body),
  );
}
