// Sign out in the header, on every page while signed in: shown whenever the main navigation
// is (main.js shows it once the account is read), so that it needs no hook in the router.
import { post } from './api.js';
import { h } from './dom.js';

const nav = document.getElementById('nav');
const button = h(
  'button',
  {
    type: 'button',
    class: 'signout',
    hidden: true,
    onclick: async () => {
      button.disabled = true;
      try {
        await post('/auth/logout');
      } finally {
        location.hash = '#/';
        location.reload();
      }
    },
  },
  'Sign out',
);
document.querySelector('header.top .docs').after(button);
const sync = () => (button.hidden = nav.hidden);
new MutationObserver(sync).observe(nav, { attributes: true, attributeFilter: ['hidden'] });
sync();
