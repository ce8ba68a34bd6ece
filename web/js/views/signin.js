// Sign-in by emailed code: POST /auth/email/start, then /auth/email/verify with client "web"
// (the server sets the sessionid and csrftoken cookies).
import { post } from '../api.js';
import { devCodeHint } from '../dev.js';
import { field, h, onSubmit } from '../dom.js';

export async function render(root, { onSignedIn }) {
  root.append(
    h('h1', {}, 'Sign in'),
    h(
      'p',
      {},
      'Enter your email address. We send you a 6-digit code; no password needed. A new address gets a new account with a free trial.',
    ),
  );
  const email = h('input', {
    type: 'email',
    name: 'email',
    autocomplete: 'email',
    required: true,
    inputmode: 'email',
  });
  const start = h(
    'form',
    { class: 'card', novalidate: true },
    field('Email address', email),
    h('div', { class: 'actions' }, h('button', { type: 'submit' }, 'Send me a code')),
  );
  root.append(start);
  onSubmit(start, async () => {
    const sent = await post('/auth/email/start', { email: email.value.trim() });
    start.hidden = true;
    root.append(codeForm(sent, email.value.trim()));
  });

  function codeForm(sent, address) {
    const code = h('input', {
      type: 'text',
      name: 'code',
      inputmode: 'numeric',
      autocomplete: 'one-time-code',
      pattern: '[0-9]{6}',
      maxlength: 6,
      required: true,
    });
    const form = h(
      'form',
      { class: 'card', novalidate: true },
      h(
        'p',
        {},
        `We sent a code to ${sent.sent_to}. It is valid for ${sent.valid_minutes} minutes.`,
      ),
      field('6-digit code', code),
      devCodeHint(code, address, 'email'),
      h(
        'div',
        { class: 'actions' },
        h('button', { type: 'submit' }, 'Sign in'),
        h(
          'button',
          {
            type: 'button',
            class: 'secondary',
            onclick: () => (form.remove(), (start.hidden = false), email.focus()),
          },
          'Use another address',
        ),
      ),
    );
    onSubmit(form, async () => {
      await post('/auth/email/verify', { email: address, code: code.value.trim(), client: 'web' });
      await onSignedIn();
    });
    setTimeout(() => code.focus(), 0);
    return form;
  }
}
