// The app shell: session, hash router, navigation, and the dev-mode clock bar.
import { get, post, setUnauthenticatedHandler } from './api.js';
import { fill, h, announce } from './dom.js';
import { instant, setTimeFormat } from './fmt.js';
import * as keepInput from './keep-input.js';
import { problemSentence } from './messages.js';
import * as signin from './views/signin.js';
import * as home from './views/home.js';
import * as calls from './views/calls.js';
import * as callForm from './views/call-form.js';
import * as occurrence from './views/occurrence.js';
import * as history from './views/history.js';
import * as numbers from './views/numbers.js';
import * as contacts from './views/contacts.js';
import * as settings from './views/settings.js';
import * as account from './views/account.js';
import * as webhooks from './views/webhooks.js';
import * as unavailable from './views/unavailable.js';
import * as devOutbox from './views/dev-outbox.js';
import * as ops from './views/ops.js';
import { devClock } from './dev.js';

/** [pattern, view, nav entry]; the first match wins. */
const ROUTES = [
  [/^#?\/?$/, home, '#/'],
  [/^#\/calls$/, calls, '#/calls'],
  [/^#\/calls\/new$/, callForm, '#/calls'],
  [/^#\/calls\/([0-9a-f-]{36})$/, callForm, '#/calls'],
  [/^#\/occurrences\/([0-9a-f-]{36})$/, occurrence, '#/history'],
  [/^#\/attempts\/([0-9a-f-]{36})$/, occurrence, '#/history'],
  [/^#\/history$/, history, '#/history'],
  [/^#\/numbers$/, numbers, '#/numbers'],
  [/^#\/contacts$/, contacts, '#/contacts'],
  [/^#\/settings$/, settings, '#/settings'],
  [/^#\/account$/, account, '#/account'],
  [/^#\/webhooks$/, webhooks, '#/webhooks'],
  [/^#\/webhooks\/([0-9a-f-]{36})$/, webhooks, '#/webhooks'],
  [/^#\/ops$/, ops, '#/ops'],
  [/^#\/dev\/outbox$/, devOutbox, null],
];
/** Pages shown signed out too (the outbox holds the sign-in code). */
const PUBLIC = /^#\/dev\/outbox$/;

const main = document.getElementById('main');
const nav = document.getElementById('nav');
let me = null;
let leaving = [];
let renderSeq = 0;
/** The hash of the page on screen: a redraw of it keeps what was typed (keep-input.js). */
let shown = null;
const SIGN_IN = 'sign-in';
/** Set by the dev bar: reads the service time again. */
let refreshDevClock = () => {};

async function loadMe() {
  try {
    me = await get('/me', { quiet401: true });
    setTimeFormat(me.time_format);
  } catch (err) {
    if (err.status !== 401) throw err;
    me = null;
  }
  return me;
}

function leave() {
  for (const fn of leaving) {
    try {
      fn();
    } catch (e) {
      console.error(e);
    }
  }
  leaving = [];
}

/** Renders the view for the current hash. */
async function render({ focus = true } = {}) {
  const seq = ++renderSeq;
  leave();
  unavailable.cancel();
  const hash = location.hash || '#/';
  // The account is read again on every page, so readiness, plan and calls-off state are current.
  // When it cannot be read (rate limit, server down), the page says why instead of hanging.
  try {
    await loadMe();
  } catch (err) {
    if (seq !== renderSeq) return;
    shown = null;
    unavailable.render(main, err, () => render());
    return;
  }
  if (seq !== renderSeq) return;
  if (!me && !PUBLIC.test(hash)) {
    nav.hidden = true;
    const kept = shown === SIGN_IN ? keepInput.read(main) : null;
    fill(main);
    await signin.render(main, { onSignedIn: () => render() });
    shown = SIGN_IN;
    if (kept) keepInput.write(main, kept);
    return;
  }
  nav.hidden = !me;
  await ops.navLink(nav, me);
  const found = ROUTES.map(([re, view, tab]) => [hash.match(re), view, tab]).find(([m]) => m);
  const [match, view, tab] = found || [null, null, null];
  for (const a of nav.querySelectorAll('a')) {
    if (a.getAttribute('href') === tab) a.setAttribute('aria-current', 'page');
    else a.removeAttribute('aria-current');
  }
  if (!view) {
    shown = null;
    fill(
      main,
      h('h1', {}, 'Not found'),
      h('p', {}, 'Nothing here. ', h('a', { href: '#/' }, 'Go home')),
    );
    return;
  }
  const ctx = {
    me,
    params: match.slice(1),
    hash,
    go: (to) => (location.hash === to ? render() : (location.hash = to)),
    reload: () => render({ focus: false }),
    reloadMe: async () => ((ctx.me = await loadMe()), ctx.me),
    onLeave: (fn) => leaving.push(fn),
    stale: () => seq !== renderSeq,
  };
  const frag = h('div', { class: 'view' });
  try {
    await view.render(frag, ctx);
  } catch (err) {
    if (err.status === 401) return;
    frag.replaceChildren(
      h(
        'div',
        { class: 'form-error', role: 'alert', 'data-code': err.code || '' },
        h('strong', {}, problemSentence(err)),
      ),
    );
  }
  if (seq !== renderSeq) return;
  const kept = hash === shown ? keepInput.read(main) : null;
  fill(main, frag);
  shown = hash;
  const refocused = kept ? keepInput.write(main, kept) : false;
  refreshDevClock();
  if (focus && !refocused) {
    const h1 = main.querySelector('h1');
    if (h1) {
      h1.setAttribute('tabindex', '-1');
      h1.focus({ preventScroll: false });
    }
  }
}

async function devBar() {
  const bar = document.getElementById('devbar');
  const state = await devClock();
  if (!state) return; // not dev mode: /dev answers 404
  const now = h('span', { id: 'dev-now' });
  const show = (iso) => (now.textContent = `${instant(iso)} (${state.mode} clock)`);
  show(state.now);
  const move = (seconds, label) =>
    h(
      'button',
      {
        type: 'button',
        class: 'secondary',
        disabled: state.mode !== 'virtual',
        'aria-describedby': state.mode !== 'virtual' ? 'dev-clock-why' : null,
        title: state.mode !== 'virtual' ? 'Needs WAKEUP_CLOCK=virtual' : null,
        onclick: async () => {
          try {
            const r = await post('/dev/clock', { advance_seconds: seconds });
            show(r.now);
            announce(`Clock moved ${label}`);
            await render({ focus: false });
          } catch (err) {
            announce(problemSentence(err));
          }
        },
      },
      `+${label}`,
    );
  fill(
    bar,
    h('strong', {}, 'Dev mode'),
    ' Service time: ',
    now,
    move(60, '1 min'),
    move(600, '10 min'),
    move(3600, '1 h'),
    move(86400, '1 day'),
    state.mode !== 'virtual'
      ? h(
          'span',
          { id: 'dev-clock-why', class: 'small' },
          'The clock moves only with WAKEUP_CLOCK=virtual; this server runs on the system clock.',
        )
      : null,
    h('a', { href: '/#/dev/outbox', target: '_blank' }, 'Outbox'),
  );
  bar.hidden = false;
  refreshDevClock = async () => {
    try {
      show((await get('/dev/clock')).now);
    } catch {
      /* server gone */
    }
  };
  setInterval(refreshDevClock, 10000);
}

setUnauthenticatedHandler(() => {
  if (!me) return;
  me = null;
  announce('Your session ended. Sign in again.');
  render();
});

window.addEventListener('hashchange', () => render());
keepInput.watch(main);
// The dev bar does not depend on the account: it stays usable when the page cannot load.
devBar();
render({ focus: false });
