// The page shown when the account cannot be read (at start-up or on a page change): what
// happened in words, when it may work again, and a way to try again. When the server said how
// long to wait (Retry-After), it tries again by itself once that time has passed.
import { fill, h } from '../dom.js';
import { problemSentence } from '../messages.js';

let timer = null;

/** Shows `err` in `root`; `retry()` loads the page again. */
export function render(root, err, retry) {
  clearTimeout(timer);
  const again = () => (clearTimeout(timer), retry());
  fill(
    root,
    h('h1', {}, 'This page could not load'),
    h(
      'div',
      { class: 'form-error', role: 'alert', 'data-code': err.code || '' },
      h('strong', {}, problemSentence(err)),
    ),
    err.retryAfter
      ? h(
          'p',
          { class: 'muted small' },
          'The page tries again by itself when that time has passed.',
        )
      : null,
    h('div', { class: 'actions' }, h('button', { type: 'button', onclick: again }, 'Try again')),
  );
  if (err.retryAfter) timer = setTimeout(again, err.retryAfter * 1000 + 250);
}

/** Stops a pending automatic retry (another page is being drawn). */
export function cancel() {
  clearTimeout(timer);
}
