// A time-zone field with search (GET /timezones): type a city, country, airport code or IANA
// name, pick a result. The input keeps the IANA name, so it can also be typed directly.
import { get } from './api.js';
import { field, h } from './dom.js';

export function zonePicker(labelText, name, value, hint) {
  const input = h('input', {
    type: 'text',
    name,
    value: value || '',
    autocomplete: 'off',
    spellcheck: 'false',
    role: 'combobox',
    'aria-autocomplete': 'list',
    'aria-expanded': 'false',
  });
  const results = h('ul', {
    class: 'zone-results',
    role: 'listbox',
    'aria-label': 'Matching time zones',
  });
  input.setAttribute('aria-controls', (results.id = `zr${Math.random().toString(36).slice(2, 8)}`));
  let timer = null;
  let seq = 0;
  const close = () => (results.replaceChildren(), input.setAttribute('aria-expanded', 'false'));
  input.addEventListener('input', (ev) => {
    // A pick, or a value put back after a redraw (keep-input.js): no search to show.
    if (ev.detail === 'picked' || ev.detail === 'restored') return;
    clearTimeout(timer);
    const q = input.value.trim();
    if (q.length < 2) return close();
    timer = setTimeout(async () => {
      const mine = ++seq;
      try {
        const r = await get(`/timezones?q=${encodeURIComponent(q)}&limit=8`);
        if (mine !== seq) return;
        results.replaceChildren(
          ...r.items.map((z) =>
            h(
              'li',
              { role: 'option' },
              h(
                'button',
                {
                  type: 'button',
                  onclick: () => {
                    input.value = z.timezone;
                    close();
                    input.dispatchEvent(
                      new CustomEvent('input', { bubbles: true, detail: 'picked' }),
                    );
                    input.focus();
                  },
                },
                `${z.label} — ${z.timezone} (${z.abbreviation}, UTC${z.utc_offset})`,
              ),
            ),
          ),
        );
        input.setAttribute('aria-expanded', r.items.length ? 'true' : 'false');
      } catch {
        close();
      }
    }, 250);
  });
  input.addEventListener('keydown', (ev) => {
    if (ev.key === 'Escape') close();
    if (ev.key === 'ArrowDown' && results.firstChild) {
      ev.preventDefault();
      results.querySelector('button').focus();
    }
  });
  results.addEventListener('keydown', (ev) => {
    const items = [...results.querySelectorAll('button')];
    const i = items.indexOf(document.activeElement);
    if (ev.key === 'ArrowDown' && i < items.length - 1) {
      ev.preventDefault();
      items[i + 1].focus();
    } else if (ev.key === 'ArrowUp') {
      ev.preventDefault();
      (i > 0 ? items[i - 1] : input).focus();
    } else if (ev.key === 'Escape') {
      close();
      input.focus();
    }
  });
  const wrap = field(
    labelText,
    input,
    hint || 'Type a city, country or airport code, then pick a zone.',
  );
  input.after(results);
  return { el: wrap, input };
}
