// Small DOM helpers: element building, forms, problem display, announcements.
import { forget } from './keep-input.js';
import { describeProblem } from './messages.js';

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
  const box = errorBox(form);
  box.replaceChildren();
  delete box.dataset.code;
  for (const el of form.querySelectorAll('[aria-invalid]')) el.removeAttribute('aria-invalid');
  for (const el of form.querySelectorAll('.field-error')) el.replaceChildren();
}

/**
 * Shows an API problem on a form in words (messages.js): one sentence at the top
 * (role=alert), and one next to each field it names, which is marked invalid; the first such
 * control is focused. Never the code, the API field name or the server's developer detail.
 */
export function showProblem(form, err) {
  clearProblem(form);
  const box = errorBox(form);
  const { summary, fields } = describeProblem(err);
  // The code, for tests and scripts reading the page; never shown.
  if (err.code) box.dataset.code = err.code;
  box.append(h('strong', {}, summary));
  let first = null;
  for (const item of fields) {
    const control = controlFor(form, item.field);
    if (control) {
      control.setAttribute('aria-invalid', 'true');
      const slot = form.querySelector(`[data-error-for="${CSS.escape(control.name)}"]`);
      if (slot && !slot.textContent) slot.textContent = item.message;
      first ??= control;
    } else if (fields.length > 1 && item.message !== summary) {
      box.append(h('div', { class: 'small' }, item.message));
    }
  }
  if (first && first.closest('[hidden]') === null) first.focus?.();
  else {
    box.setAttribute('tabindex', '-1');
    box.focus();
  }
}

/** The enabled control of the form for an API field path (`retry_policy.offsets_minutes.1`: the deepest named one). */
function controlFor(form, path) {
  const parts = String(path || '')
    .split('.')
    .filter((p) => p && !/^\d+$/.test(p));
  for (let i = parts.length - 1; i >= 0; i--) {
    const found = [...form.querySelectorAll(`[name="${CSS.escape(parts[i])}"]`)].find((c) => !c.disabled);
    if (found) return found;
  }
  return null;
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
      forget(form);
    } catch (err) {
      if (err && (err.code || err.local)) showProblem(form, err);
      else {
        showProblem(form, { code: 'client_error' });
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
