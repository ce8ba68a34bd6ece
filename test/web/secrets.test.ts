/**
 * Issue 38, item 8: one-time secrets. An API key and a webhook signing secret are shown with
 * a Copy button that puts them on the clipboard; after a create the list shows the new item at
 * once (no "No endpoint yet" beside the new secret) and the form is empty again. A failing
 * endpoint reads "Failing", not a green "On", and why a delivery failed is a sentence. At
 * 390 px and 1280 px. Screenshots:
 * .screenshots/secrets-*.png.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { before, describe, it } from 'node:test';
import { withTestDb } from '../helpers/server.js';
import { PHONE_TEST_ENV } from '../helpers/phone.js';
import {
  atBothWidths,
  goHash,
  screenshots,
  signInThroughPage,
  webSession,
} from '../helpers/web.js';

describe('web app: one-time secrets', () => {
  const web = webSession({
    env: { ...PHONE_TEST_ENV, WAKEUP_WEBHOOK_ALLOW_PRIVATE: '1', WAKEUP_WEBHOOK_ALLOW_HTTP: '1' },
    timezoneId: 'Europe/Paris',
  });
  before(async () => {
    if (!web.skip)
      await web.context.grantPermissions(['clipboard-read', 'clipboard-write'], {
        origin: web.server.url,
      });
  });

  const clipboard = () => web.page.evaluate<string>('navigator.clipboard.readText()');

  it('an API key: Copy puts it on the clipboard, the list shows it, the form is empty', async (t) => {
    if (web.skip) return t.skip(web.skip);
    const { page, server } = web;
    await signInThroughPage(page, server, `secrets-${randomUUID()}@example.com`);
    await goHash(page, '#/account');
    await page.getByLabel('Name', { exact: true }).fill('home automation');
    await page.getByRole('button', { name: 'Create key' }).click();
    const key = await page.locator('#new-key').innerText();
    assert.match(key, /^\S{20,}$/);
    await page.getByRole('button', { name: 'Copy', exact: true }).click();
    await page.getByRole('button', { name: 'Copied', exact: true }).waitFor();
    assert.equal(await clipboard(), key);
    const keys = page.getByRole('list', { name: 'Your API keys' });
    await keys.getByText('home automation').waitFor();
    assert.equal(await page.getByLabel('Name', { exact: true }).inputValue(), '');
    await atBothWidths(page, async (width) => {
      assert.ok(await page.locator('#new-key').isVisible(), `${width}: the key stays shown`);
      assert.ok(
        (await page.evaluate<number>('document.documentElement.scrollWidth')) <= width,
        `${width}: no sideways scroll`,
      );
    });
    await screenshots(page, 'secrets-api-key');
  });

  it('a webhook secret: Copy, the new endpoint in the list, the form empty; a failing one reads Failing', async (t) => {
    if (web.skip) return t.skip(web.skip);
    const { page, server } = web;
    await goHash(page, '#/webhooks');
    await page.getByRole('heading', { level: 1, name: 'Webhooks' }).waitFor();
    await page.getByText('No endpoint yet.').waitFor();
    const url = 'http://127.0.0.1:9/hooks/wakeup';
    await page.getByLabel('URL').fill(url);
    await page.getByLabel('Description (optional)').fill('Pager');
    await page.getByRole('button', { name: 'Add endpoint' }).click();
    const secret = await page.locator('#webhook-secret').innerText();
    assert.match(secret, /^whsec_/);
    await page.getByRole('button', { name: 'Copy', exact: true }).click();
    await page.getByRole('button', { name: 'Copied', exact: true }).waitFor();
    assert.equal(await clipboard(), secret);
    const list = page.getByRole('list', { name: 'Your webhook endpoints' });
    await list.getByRole('link', { name: url }).waitFor();
    assert.equal(
      await page.getByText('No endpoint yet.').count(),
      0,
      'no "No endpoint yet" beside the new secret',
    );
    assert.equal(await page.getByLabel('URL').inputValue(), '');
    assert.equal(await page.getByLabel('Description (optional)').inputValue(), '');
    await atBothWidths(page, async (width) => {
      assert.ok(
        (await page.evaluate<number>('document.documentElement.scrollWidth')) <= width,
        `${width}: no sideways scroll`,
      );
    });
    await screenshots(page, 'secrets-webhook');

    // An endpoint whose deliveries fail (still on) is "Failing", in red.
    await withTestDb(server, (db) =>
      db.run('UPDATE webhook_endpoints SET failing_since = ?', [Date.now()]),
    );
    await page.reload();
    const badge = list.locator('.badge').first();
    await badge.waitFor();
    assert.equal((await badge.innerText()).trim(), 'Failing');
    assert.match((await badge.getAttribute('class')) ?? '', /\bbad\b/);
    await screenshots(page, 'secrets-webhook-failing');

    // Why a delivery failed reads as a sentence, the API's words after it.
    await list.getByRole('link', { name: url }).click();
    await page.getByRole('button', { name: 'Send a test event' }).click();
    const why = page.locator('#delivery-log .delivery-error').first();
    await why.waitFor({ timeout: 15_000 });
    await atBothWidths(page, async (width) => {
      assert.match(
        await why.innerText(),
        /^Nothing accepted the connection at this address: is your receiver running\? \(connection refused\)$/,
        `${width}`,
      );
      assert.ok(
        (await page.evaluate<number>('document.documentElement.scrollWidth')) <= width,
        `${width}: no sideways scroll`,
      );
    });
    await screenshots(page, 'secrets-webhook-error');
  });
});
