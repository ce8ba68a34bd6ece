/**
 * Issue 38, item 5: "Are you travelling?". A browser in Asia/Tokyo with calls on the Paris
 * clock gets one card per call whose clock differs, each naming its call and with its own
 * buttons (a call set "in N minutes" has nothing to move, yet its card can be dismissed too).
 * "Keep it as it is" is remembered for that call: the card stays gone across navigation and a
 * reload, while the other call's card stays. At 390 px and 1280 px. Screenshots:
 * .screenshots/travel-*.png.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { describe, it } from 'node:test';
import { PHONE_TEST_ENV } from '../helpers/phone.js';
import {
  addNumberThroughPage,
  apiSend,
  atBothWidths,
  goHash,
  screenshots,
  signInThroughPage,
  webSession,
} from '../helpers/web.js';

const BROWSER_ZONE = 'Asia/Tokyo';
const HOME = 'Europe/Paris';
const E164 = '+12015550171';

describe('web app: the travel prompt', () => {
  const web = webSession({ env: PHONE_TEST_ENV, timezoneId: BROWSER_ZONE });

  it('one card per mismatch with its buttons; "Keep it as it is" is remembered across navigation and reload', async (t) => {
    if (web.skip) return t.skip(web.skip);
    const { page, server } = web;
    await signInThroughPage(page, server, `travel-${randomUUID()}@example.com`);
    assert.equal((await apiSend(page, 'PATCH', '/me', { home_timezone: HOME })).status, 200);
    await addNumberThroughPage(page, server, E164);
    const daily = await apiSend(page, 'POST', '/schedules', {
      kind: 'recurring',
      days_of_week: ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'],
      local_time: '07:00',
      timezone: HOME,
      label: 'Paris mornings',
    });
    assert.equal(daily.status, 201, JSON.stringify(daily.body));
    const soon = await apiSend(page, 'POST', '/schedules', {
      kind: 'once',
      in_minutes: 90,
      timezone: HOME,
      label: 'Nap',
    });
    assert.equal(soon.status, 201, JSON.stringify(soon.body));

    await goHash(page, '#/calls');
    await page.getByRole('heading', { level: 1, name: 'Wake-up calls' }).waitFor();
    await goHash(page, '#/');
    const travel = page.getByRole('region', { name: 'Are you travelling?' });
    const cards = travel.locator('article[data-mismatch]');
    await cards.nth(1).waitFor();
    await atBothWidths(page, async (width) => {
      assert.equal(await cards.count(), 2, `${width}: one card per mismatch`);
      assert.equal(
        await page.getByRole('heading', { name: 'Are you travelling?' }).count(),
        1,
        `${width}: one heading`,
      );
      const paris = cards.filter({ hasText: 'Paris mornings' });
      await paris
        .getByText(/Set for 07:00 on \w{3} \d{4}-\d\d-\d\d Europe\/Paris: it rings at 1[45]:00 on/)
        .waitFor();
      await paris
        .getByText(/Move it to 07:00 on \w{3} \d{4}-\d\d-\d\d Asia\/Tokyo \(UTC\+09:00\)\?/)
        .waitFor();
      assert.ok(
        await paris.getByRole('button', { name: 'Move the call' }).isVisible(),
        `${width}: Move on its card`,
      );
      assert.ok(
        await paris.getByRole('button', { name: 'Keep it as it is' }).isVisible(),
        `${width}: Keep on its card`,
      );
      const nap = cards.filter({ hasText: 'Nap' });
      await nap.getByText('It was set to ring in a number of minutes').waitFor();
      assert.ok(
        await nap.getByRole('button', { name: 'Keep it as it is' }).isVisible(),
        `${width}: the in-minutes card has its button`,
      );
      // Nothing wider than the screen.
      assert.ok(
        (await page.evaluate<number>('document.documentElement.scrollWidth')) <= width,
        `${width}: no sideways scroll`,
      );
    });
    await screenshots(page, 'travel-two-cards');

    await cards
      .filter({ hasText: 'Paris mornings' })
      .getByRole('button', { name: 'Keep it as it is' })
      .click();
    await cards.filter({ hasText: 'Paris mornings' }).waitFor({ state: 'detached' });
    assert.equal(await cards.count(), 1);

    // Across navigation and a reload: still kept, the other card still asks.
    await goHash(page, '#/calls');
    await page.getByRole('heading', { level: 1, name: 'Wake-up calls' }).waitFor();
    await goHash(page, '#/');
    await cards.first().waitFor();
    await page.reload();
    await page.getByRole('heading', { level: 1, name: /^Hello/ }).waitFor();
    await cards.first().waitFor();
    await atBothWidths(page, async (width) => {
      assert.deepEqual(
        await cards.locator('h3').allInnerTexts(),
        ['Nap'],
        `${width}: the kept call stays dismissed, the other stays`,
      );
    });
    await screenshots(page, 'travel-one-kept');

    // Keeping the last one removes the whole prompt, and it stays gone.
    await cards.first().getByRole('button', { name: 'Keep it as it is' }).click();
    await travel.waitFor({ state: 'detached' });
    await page.reload();
    await page.getByRole('heading', { name: 'Next calls' }).waitFor();
    assert.equal(await page.getByRole('heading', { name: 'Are you travelling?' }).count(), 0);
    await screenshots(page, 'travel-all-kept');
  });
});
