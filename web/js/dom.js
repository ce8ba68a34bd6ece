// Small DOM helpers: element building, forms, problem display, announcements.
import { forget } from './keep-input.js';
import { describeProblem, enterSentence } from './messages.js';

/**
 * h('button', { class: 'x', onclick: fn }, 'Text', child...). Attributes starting with "on"
 * become listeners; false/null/undefined attributes and children are skipped.
 */
export function h(tag, attrs, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === false || v === null || v === undefined) continue;
    // The page's Content-Security-Policy (style-src 'self') ignores style attributes.
    if (k === 'style')
      throw new Error('h(): inline styles are blocked by the CSP; use a class in app.css');
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

/**
 * A table that turns into one card per row on a phone (app.css, table.stack): the first cell
 * is the card's title; each cell carries its column's name (data-label), shown before the
 * others there (class `stack numbered`: before the title too); empty cells are left out.
 * `rows` are arrays of cells (text, a node, or null for none), in the order of `headers`.
 */
export function stackTable(headers, rows, attrs = {}) {
  const cell = (c, i) => {
    const empty = c === null || c === undefined || c === '';
    return h('td', { 'data-label': headers[i], class: empty ? 'empty' : null }, empty ? null : c);
  };
  return h(
    'div',
    { class: 'table-wrap' },
    h(
      'table',
      { ...attrs, class: attrs.class || 'stack' },
      h(
        'thead',
        {},
        h(
          'tr',
          {},
          headers.map((t) => h('th', { scope: 'col' }, t)),
        ),
      ),
      h(
        'tbody',
        {},
        rows.map((r) => h('tr', {}, r.map(cell))),
      ),
    ),
  );
}

/**
 * A one-time secret (an API key, a signing secret) with a Copy button. The clipboard API
 * needs a secure context (https, localhost); elsewhere the text is selected and copied the
 * old way, and stays selected for a manual copy if that fails too.
 */
export function secretBox(text, id) {
  const value = h('p', { class: 'key', id }, text);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
    } catch {
      const range = document.createRange();
      range.selectNodeContents(value);
      const sel = getSelection();
      sel.removeAllRanges();
      sel.addRange(range);
      if (!document.execCommand('copy')) {
        announce('Press Ctrl+C (or ⌘C) to copy the selected text.');
        return;
      }
    }
    button.textContent = 'Copied';
    announce('Copied.');
  };
  const button = h('button', { type: 'button', class: 'secondary', onclick: copy }, 'Copy');
  return h('div', { class: 'secret' }, value, button);
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
  const err = h('p', {
    class: 'field-error',
    id: `${id}-err`,
    'data-error-for': control.name || '',
  });
  control.setAttribute(
    'aria-describedby',
    [hintEl ? hintEl.id : '', err.id].filter(Boolean).join(' '),
  );
  return h('div', { class: 'field' }, h('label', { for: id }, labelText), control, hintEl, err);
}

/** The form-level error box (role=alert), created once per form: for problems no field can show. */
function errorBox(form) {
  let box = form.querySelector(':scope > .form-error');
  if (!box) {
    box = h('div', { class: 'form-error', role: 'alert' });
    form.prepend(box);
  }
  return box;
}

/** The error slot beside a control: the one field() tied to it, else its group's (a set of boxes). */
function slotFor(form, control) {
  for (const id of (control.getAttribute('aria-describedby') || '').split(' ')) {
    const el = id && document.getElementById(id);
    if (el && el.classList.contains('field-error')) return el;
  }
  return form.querySelector(`[data-error-for="${CSS.escape(control.name)}"]`);
}

/** Clears the error of one control (it was changed). */
function clearField(form, control) {
  for (const el of form.querySelectorAll(`[name="${CSS.escape(control.name)}"][aria-invalid]`))
    el.removeAttribute('aria-invalid');
  const slot = slotFor(form, control);
  if (slot) {
    slot.replaceChildren();
    slot.removeAttribute('role');
    delete slot.dataset.code;
  }
}

/** Clears the errors shown on a form. */
export function clearProblem(form) {
  const box = errorBox(form);
  box.replaceChildren();
  delete box.dataset.code;
  clearFieldErrors(form);
}

/** Whether a control holds nothing yet (then its error says what to enter). */
const isEmpty = (c) =>
  c.type !== 'checkbox' &&
  c.type !== 'radio' &&
  typeof c.value === 'string' &&
  c.value.trim() === '';

/**
 * Puts each of a problem's sentences next to the field it names (marked invalid; an empty one
 * is asked to be filled in). Answers the first invalid control, the sentences no visible field
 * could take, and the problem's one-sentence summary.
 */
function placeAtFields(form, err) {
  const { summary, fields } = describeProblem(err);
  let first = null;
  const unplaced = [];
  for (const item of fields) {
    const control = controlFor(form, item.field);
    const slot = control && control.closest('[hidden]') === null ? slotFor(form, control) : null;
    if (!slot) {
      unplaced.push(item.message);
      continue;
    }
    control.setAttribute('aria-invalid', 'true');
    if (!slot.textContent) {
      slot.textContent = isEmpty(control) && !err.local ? enterSentence(item.field) : item.message;
      slot.setAttribute('role', 'alert');
      if (err.code) slot.dataset.code = err.code;
    }
    first ??= control;
  }
  return { first, unplaced, summary };
}

/**
 * Shows an API problem on a form in words (messages.js), each sentence once: next to the field
 * it names, or, for a problem no visible field can show, in the box at the top. The first
 * invalid control is focused. The code is kept in a data-code attribute, for tests and scripts
 * reading the page; it is never shown.
 */
export function showProblem(form, err) {
  clearProblem(form);
  const box = errorBox(form);
  const { first, unplaced, summary } = placeAtFields(form, err);
  if (!first || unplaced.length) {
    if (err.code) box.dataset.code = err.code;
    const lines = first ? unplaced : [summary, ...unplaced.filter((m) => m !== summary)];
    box.append(
      h('strong', {}, lines[0]),
      lines.slice(1).map((m) => h('div', { class: 'small' }, m)),
    );
  }
  if (first) first.focus?.();
  else {
    box.setAttribute('tabindex', '-1');
    box.focus();
  }
}

/**
 * A live check's problem (the call form's preview) at its fields only, without moving the
 * focus; false when no field can show it all (the caller shows it itself).
 */
export function showAtFields(form, err) {
  clearFieldErrors(form);
  const probe = describeProblem(err);
  if (!probe.fields.length) return false;
  const { first, unplaced } = placeAtFields(form, err);
  if (first && !unplaced.length) return true;
  clearFieldErrors(form);
  return false;
}

/** Clears the errors shown next to fields (the top box stays). */
export function clearFieldErrors(form) {
  for (const el of form.querySelectorAll('[aria-invalid]')) clearField(form, el);
}

/** The enabled control of the form for an API field path (`retry_policy.offsets_minutes.1`: the deepest named one). */
function controlFor(form, path) {
  const parts = String(path || '')
    .split('.')
    .filter((p) => p && !/^\d+$/.test(p));
  for (let i = parts.length - 1; i >= 0; i--) {
    const found = [...form.querySelectorAll(`[name="${CSS.escape(parts[i])}"]`)].find(
      (c) => !c.disabled,
    );
    if (found) return found;
  }
  return null;
}

/**
 * Wires a form: on submit, clears errors, disables the submit button, runs `fn(values)` and
 * shows any ApiError on the form; a field's error is cleared as soon as the field is changed.
 * Returns the form.
 */
export function onSubmit(form, fn) {
  // An error goes away once its field is changed.
  const changed = (ev) =>
    ev.target.name && ev.target.hasAttribute('aria-invalid') && clearField(form, ev.target);
  form.addEventListener('input', changed);
  form.addEventListener('change', changed);
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
