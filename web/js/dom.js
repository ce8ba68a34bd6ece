// Small DOM helpers: element building, forms, problem display, announcements.

/**
 * h('button', { class: 'x', onclick: fn }, 'Text', child...). Attributes starting with "on"
 * become listeners; false/null/undefined attributes and children are skipped.
 */
export function h(tag, attrs, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === false || v === null || v === undefined) continue;
    // The page's Content-Security-Policy (style-src 'self') ignores style attributes.
    if (k === 'style') throw new Error('h(): inline styles are blocked by the CSP; use a class in app.css');
    if (k.startsWith('on') && typeof v === 'function') el.addEventListener(k.slice(2), v);
    else if (k === 'dataset') Object.assign(el.dataset, v);
    else if (k === 'value') el.value = v;
    else if (k === 'checked') el.checked = Boolean(v);
    else el.setAttribute(k, v === true ? '' : String(v));
  }
  append(el, children);
  return el;
}

function append(el, children) {
  for (const c of children.flat(Infinity)) {
    if (c === null || c === undefined || c === false) continue;
    el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
}

/** Replaces the children of `el`. */
export function fill(el, ...children) {
  el.replaceChildren();
  append(el, children);
  return el;
}

let fieldSeq = 0;
/**
 * A labelled field: label, control, hint and an error slot tied to the control with
 * aria-describedby. `control` must carry a `name` (the API field it sends).
 */
export function field(labelText, control, hint) {
  const id = control.id || `f${++fieldSeq}`;
  control.id = id;
  const hintEl = hint ? h('p', { class: 'hint', id: `${id}-hint` }, hint) : null;
  const err = h('p', { class: 'field-error', id: `${id}-err`, 'data-error-for': control.name || '' });
  control.setAttribute('aria-describedby', [hintEl ? hintEl.id : '', err.id].filter(Boolean).join(' '));
  return h('div', { class: 'field' }, h('label', { for: id }, labelText), control, hintEl, err);
}

/** The form-level error box (role=alert), created once per form. */
function errorBox(form) {
  let box = form.querySelector(':scope > .form-error');
  if (!box) {
    box = h('div', { class: 'form-error', role: 'alert' });
    form.prepend(box);
  }
  return box;
}

/** Clears the errors shown on a form. */
export function clearProblem(form) {
  errorBox(form).replaceChildren();
  for (const el of form.querySelectorAll('[aria-invalid]')) el.removeAttribute('aria-invalid');
  for (const el of form.querySelectorAll('.field-error')) el.replaceChildren();
}

/**
 * Shows an API problem on a form: the detail at the top (role=alert), and next to the field it
 * names (problem.field, or each item of errors[]), which is marked invalid and focused.
 */
export function showProblem(form, err) {
  clearProblem(form);
  const box = errorBox(form);
  box.append(h('strong', {}, err.detail));
  if (err.code) box.append(' ', h('span', { class: 'small muted' }, `(${err.code})`));
  const items = err.errors && err.errors.length ? err.errors : err.field ? [{ field: err.field, message: err.detail }] : [];
  let first = null;
  for (const item of items) {
    const name = String(item.field || '').split('.')[0];
    const control = name && form.querySelector(`[name="${CSS.escape(name)}"]`);
    if (control) {
      control.setAttribute('aria-invalid', 'true');
      const slot = form.querySelector(`[data-error-for="${CSS.escape(name)}"]`);
      if (slot) slot.textContent = item.message || err.detail;
      first ??= control;
    } else if (item.message && items.length > 1) {
      box.append(h('div', { class: 'small' }, `${item.field || 'request'}: ${item.message}`));
    }
  }
  (first || box).focus?.();
  if (!first) {
    box.setAttribute('tabindex', '-1');
    box.focus();
  }
}

/**
 * Wires a form: on submit, clears errors, disables the submit button, runs `fn(values)` and
 * shows any ApiError on the form. Returns the form.
 */
export function onSubmit(form, fn) {
  form.addEventListener('submit', async (ev) => {
    ev.preventDefault();
    const buttons = [...form.querySelectorAll('button[type=submit], button:not([type])')];
    clearProblem(form);
    buttons.forEach((b) => (b.disabled = true));
    try {
      await fn(ev);
    } catch (err) {
      if (err && err.detail) showProblem(form, err);
      else {
        showProblem(form, { detail: String(err && err.message ? err.message : err), code: 'client_error' });
        console.error(err);
      }
    } finally {
      buttons.forEach((b) => (b.disabled = false));
    }
  });
  return form;
}

/** A button running an async action; an error shows in `errorTarget` (a form or element). */
export function action(label, fn, attrs = {}) {
  const wrap = h('form', { class: 'inline-action' });
  const btn = h('button', { type: 'submit', class: 'secondary', ...attrs }, label);
  wrap.append(btn);
  return onSubmit(wrap, fn);
}

/** Polite announcement for screen readers and a short visible toast. */
export function announce(text) {
  const t = document.getElementById('toast');
  t.textContent = text;
  clearTimeout(announce.timer);
  announce.timer = setTimeout(() => (t.textContent = ''), 4000);
}
