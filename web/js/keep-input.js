// What the user typed survives a redraw of the same page. A page is drawn again after the dev
// clock moves, after an action elsewhere on it, or for no reason we control; each time its
// forms are built anew, empty. This module notes the controls the person changed (trusted
// input events only), reads them before the old page goes, and writes them into the new one,
// firing input and change so that what depends on them (a live preview, shown fields) follows.
// A form sent successfully is forgotten (forget), so that it comes back empty.

const typed = new WeakSet();

/** Starts noting the controls a person changes inside `root`. */
export function watch(root) {
  const note = (ev) => ev.isTrusted && ev.target.name && typed.add(ev.target);
  root.addEventListener('input', note);
  root.addEventListener('change', note);
}

/** Forgets what was typed into `form` (it was sent). */
export function forget(form) {
  for (const el of form.elements) typed.delete(el);
}

/** Where a control sits, stable across redraws: its card or form, its name, and its value for a box. */
function keyOf(el, root) {
  const owner = el.closest('[data-schedule],[data-number],[data-contact],[data-endpoint]');
  const scope = owner || root;
  const form = el.closest('form');
  const forms = [...scope.querySelectorAll('form')];
  const where = owner ? [...owner.attributes].find((a) => a.name.startsWith('data-'))?.value : '';
  const choice = el.type === 'checkbox' || el.type === 'radio' ? `=${el.value}` : '';
  return `${where}|${form ? form.getAttribute('aria-label') || forms.indexOf(form) : '-'}|${el.name}${choice}`;
}

/** The typed values inside `root` and which control had the focus. */
export function read(root) {
  const values = new Map();
  for (const el of root.querySelectorAll('input[name], select[name], textarea[name]')) {
    if (!typed.has(el)) continue;
    values.set(
      keyOf(el, root),
      el.type === 'checkbox' || el.type === 'radio' ? el.checked : el.value,
    );
  }
  const active = document.activeElement;
  const focus = active && root.contains(active) && active.name ? keyOf(active, root) : null;
  const caret = focus && typeof active.selectionStart === 'number' ? active.selectionStart : null;
  return { values, focus, caret };
}

/** Writes what `read` kept into the new page in `root`; true when it put the focus back. */
export function write(root, kept) {
  let focused = false;
  for (const el of root.querySelectorAll('input[name], select[name], textarea[name]')) {
    const key = keyOf(el, root);
    if (kept.values.has(key)) {
      const v = kept.values.get(key);
      if (el.type === 'checkbox' || el.type === 'radio') el.checked = v;
      else el.value = v;
      typed.add(el);
      el.dispatchEvent(new CustomEvent('input', { bubbles: true, detail: 'restored' }));
      el.dispatchEvent(new Event('change', { bubbles: true }));
    }
    if (key === kept.focus && el.closest('[hidden]') === null) {
      el.focus({ preventScroll: true });
      focused = true;
      if (kept.caret !== null) el.setSelectionRange(kept.caret, kept.caret);
    }
  }
  return focused;
}
