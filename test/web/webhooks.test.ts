/**
 * The Webhooks page in headless Chromium (issue 31, part 3): a person adds a home-automation
 * endpoint (the secret shown once), sends a test event, sets a call that is confirmed, sees
 * both deliveries in the endpoint's log and sends one again; the receiver verifies every
 * request with the secret the page showed. A bad URL is explained at its field. Screenshots at
 * phone and desktop widths go to .screenshots/ (webhooks-*.png).
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { launchChromium } from '../helpers/chromium.js';
import { PHONE_TEST_ENV } from '../helpers/phone.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import {
  addNumberThroughPage,
  apiFromPage,
  clockTo,
  goHash,
  screenshots,
  scriptPhone,
  signInThroughPage,
} from '../helpers/web.js';
import { startReceiver, verifyDelivery, type Receiver } from '../helpers/webhook-receiver.js';

const E164 = '+12015550193';

/** POST under /api/v1 from inside the page, with its session cookie and CSRF token. */
async function postFromPage(page: Page, path: string, body: unknown): Promise<any> {
  return page.evaluate(
    `(async () => {
      const csrf = document.cookie.split('; ').find((c) => c.startsWith('csrftoken='))?.slice('csrftoken='.length);
      const r = await fetch('/api/v1' + ${JSON.stringify(path)}, {
        method: 'POST',
        credentials: 'same-origin',
        headers: { 'content-type': 'application/json', 'x-csrftoken': decodeURIComponent(csrf || '') },
        body: ${JSON.stringify(JSON.stringify(body))},
      });
      return r.json();
    })()`,
  );
}

describe('web app: webhook endpoints and their delivery log', () => {
  let skip = '';
  let browser: Browser | undefined;
  let page: Page;
  let server: TestServer;
  let receiver: Receiver;

  before(async () => {
    const got = await launchChromium();
    if ('skip' in got) {
      skip = got.skip;
      console.log(`browser tests skipped: ${skip}`);
      return;
    }
    browser = got.browser;
    server = await startTestServer({
      env: { ...PHONE_TEST_ENV, WAKEUP_WEBHOOK_ALLOW_PRIVATE: '1', WAKEUP_WEBHOOK_ALLOW_HTTP: '1' },
    });
    receiver = await startReceiver();
    const context = await browser.newContext({
      timezoneId: 'Europe/Paris',
      locale: 'en-GB',
      viewport: { width: 390, height: 844 },
    });
    page = await context.newPage();
    page.setDefaultTimeout(10_000);
    page.on('dialog', (d) => void d.accept());
  });
  after(async () => {
    await browser?.close();
    await server?.close();
    await receiver?.close();
  });

  it('adds an endpoint, shows its log with a test event and a confirmed call, and sends one again', async (t) => {
    if (skip) return t.skip(skip);
    await signInThroughPage(page, server, `web-hooks-${randomUUID()}@example.com`);
    await addNumberThroughPage(page, server, E164);

    await page.getByRole('link', { name: 'Webhooks' }).click();
    await page.getByRole('heading', { level: 1, name: 'Webhooks' }).waitFor();
    const form = page.locator('#add-webhook');
    // A bad URL is explained at its field, in words.
    await form.getByLabel('URL').fill('ftp://lights.example/hook');
    await form.getByRole('button', { name: 'Add endpoint' }).click();
    await form
      .locator('.field-error[data-code="invalid_webhook_url"]', {
        hasText: 'Enter a full https address',
      })
      .waitFor();

    await form.getByLabel('URL').fill(`${receiver.url}/lights`);
    await form.getByLabel('Description (optional)').fill('Hall lights');
    await form.getByRole('button', { name: 'Add endpoint' }).click();
    const secret = (await page.locator('#webhook-secret').innerText()).trim();
    assert.match(secret, /^whsec_/);
    await screenshots(page, 'webhooks-added');
    await page.getByRole('button', { name: 'I copied it' }).click();
    await page.getByRole('heading', { level: 1, name: 'Webhook endpoint' }).waitFor();
    await page.locator('#log-empty').waitFor();

    await page.getByRole('button', { name: 'Send a test event' }).click();
    await page
      .locator('#delivery-log tr[data-event-type="webhook.test"][data-status="delivered"]')
      .waitFor({ timeout: 15_000 });

    // A call in one minute, confirmed (1 pressed): its event is in the log.
    await scriptPhone(server, E164, ['confirm'], 5);
    const numbers = await apiFromPage(page, '/phone-numbers');
    const s = await postFromPage(page, '/schedules', {
      kind: 'once',
      in_minutes: 1,
      phone_number_id: numbers.items[0].id,
      label: 'Flight',
    });
    assert.ok(s.id, JSON.stringify(s));
    const now = (await (await fetch(`${server.url}/dev/clock`)).json()) as { now: string };
    await clockTo(server, new Date(Date.parse(now.now) + 120_000).toISOString());
    await receiver.waitFor(
      (got) => got.some((r) => r.json.type === 'occurrence.confirmed'),
      15_000,
      'occurrence.confirmed',
    );
    await page.getByRole('button', { name: 'Refresh' }).click();
    const row = page.locator(
      '#delivery-log tr[data-event-type="occurrence.confirmed"][data-status="delivered"]',
    );
    await row.waitFor({ timeout: 15_000 });
    assert.match(
      await row.innerText(),
      /Call confirmed[\s\S]*Delivered[\s\S]*1 attempt[\s\S]*HTTP 204/,
    );
    await screenshots(page, 'webhooks-log');

    await row.getByRole('button', { name: 'Send again' }).click();
    await receiver.waitFor(
      (got) => got.filter((r) => r.json.type === 'occurrence.confirmed').length === 2,
      15_000,
      'the redelivery',
    );
    for (const r of receiver.received) verifyDelivery(secret, r);
    const [first, again] = receiver.received.filter((r) => r.json.type === 'occurrence.confirmed');
    assert.equal(first!.id, again!.id);
    assert.equal(first!.json.data.occurrence.label, 'Flight');

    // The list page shows the endpoint, on.
    await goHash(page, '#/webhooks');
    const card = page.locator('article[data-endpoint]');
    await card.getByText('Hall lights').waitFor();
    assert.match(await card.innerText(), /On/);
    await screenshots(page, 'webhooks-list');
  });
});
