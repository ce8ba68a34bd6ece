// History: recent and coming calls (GET /occurrences) and every phone call placed (GET /calls).
import { get } from '../api.js';
import { h, stackTable } from '../dom.js';
import * as fmt from '../fmt.js';
import { occurrenceState } from '../states.js';
import { attemptsTable } from './occurrence.js';

export async function render(root) {
  const [occ, calls] = await Promise.all([get('/occurrences?limit=100'), get('/calls?limit=50')]);
  const badge = (o) => {
    const [text, tone] = occurrenceState(o);
    return h('span', { class: `badge ${tone}`, 'data-status': o.status }, text);
  };
  root.append(h('h1', {}, 'History'));
  root.append(h('h2', {}, 'Wake-up calls, last day and next seven days'));
  if (!occ.items.length) root.append(h('p', { class: 'muted' }, 'Nothing in this window.'));
  else
    root.append(
      stackTable(
        ['When (call’s clock)', 'Call', 'Status', 'Attempts'],
        occ.items.map((o) => [
          h('a', { href: `#/occurrences/${o.id}` }, fmt.local(o.local)),
          o.label,
          badge(o),
          String(o.attempt_count),
        ]),
        { 'aria-label': 'Wake-up calls' },
      ),
    );
  root.append(h('h2', {}, 'Phone calls placed'));
  if (!calls.items.length) root.append(h('p', { class: 'muted' }, 'No call placed yet.'));
  else root.append(attemptsTable(calls.items));
}
