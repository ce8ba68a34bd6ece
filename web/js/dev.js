// Dev mode in the page, known from whether GET /dev/clock answers: the clock's mode for the dev
// bar and the views, and the newest code from the dev outbox shown beside the field that needs it.
import { get } from './api.js';
import { fill, h } from './dom.js';

let clock = null;
/** The dev clock ({ now, mode }), or null when this server is not in dev mode. Asked once. */
export function devClock() {
  clock ??= get('/dev/clock', { quiet401: true }).catch(() => null);
  return clock;
}

/** A line saying the service clock is virtual and must be moved, or null (system clock, not dev). */
export function virtualClockNote(state, what) {
  if (!state || state.mode !== 'virtual') return null;
  return h(
    'p',
    { class: 'card notice small', role: 'note', 'data-dev': 'virtual-clock' },
    `Dev mode, virtual clock: ${what} moves on only when the clock does. Use the dev bar's +1 min button (at the top) to move it.`,
  );
}

/**
 * In dev mode, a line under a code field with the newest code sent to `to` on `channel`
 * (email or sms) and a button that types it in; hidden otherwise. `refresh()` on the line
 * reads the outbox again (after a new code was sent).
 */
export function devCodeHint(input, to, channel) {
  const line = h('p', { class: 'hint dev-code', hidden: true });
  let run = 0;
  const show = async () => {
    const mine = ++run;
    if (!(await devClock())) return;
    // The message may be written a moment after the request that sent it answered.
    for (let i = 0; i < 20 && mine === run; i++) {
      let item = null;
      try {
        const list = await get(`/dev/outbox?to=${encodeURIComponent(to)}&channel=${channel}`);
        item = list.items.find((m) => m.code) || null;
      } catch {
        return;
      }
      if (item && mine === run) {
        const use = () => {
          input.value = item.code;
          input.dispatchEvent(new Event('input', { bubbles: true }));
          input.focus();
        };
        fill(
          line,
          'Dev mode: the newest code sent to ',
          to,
          ' is ',
          h('strong', { class: 'dev-code-value' }, item.code),
          '. ',
          h('button', { type: 'button', class: 'link', onclick: use }, 'Use it'),
          ' · ',
          h('a', { href: '/#/dev/outbox', target: '_blank' }, 'Outbox'),
        );
        line.hidden = false;
        return;
      }
      await new Promise((r) => setTimeout(r, 250));
    }
  };
  line.refresh = show;
  show();
  return line;
}
