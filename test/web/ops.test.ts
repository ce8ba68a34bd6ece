/**
 * The operator's page (#/ops, issue 43) in headless Chromium: on a seeded morning (POST
 * /dev/seed-morning, the virtual clock moved through London's and Paris' mornings), an operator
 * sees tomorrow's spike with its warnings, today's lateness against the objective, outcomes per
 * hour and the health, finds a number's calls, blocks it and sees that in the audit log; an
 * account that is not an operator has no link to the page. Checked at 390 and 1280 px;
 * screenshots go to /tmp/shots-43/ (ops-*.png).
 */
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { call, PHONE_TEST_ENV } from '../helpers/phone.js';
import { settledDb } from '../helpers/server.js';
import {
  atBothWidths,
  goHash,
  noSidewaysScroll,
  signInThroughPage,
  webSession,
} from '../helpers/web.js';

const OPERATOR = 'night-shift@example.com';
const SHOTS = '/tmp/shots-43';

describe('web app: the operator page', () => {
  const web = webSession({
    env: {
      ...PHONE_TEST_ENV,
      WAKEUP_CLOCK_START: '2027-05-04T04:00:00Z',
      WAKEUP_OPERATOR_EMAILS: OPERATOR,
      WAKEUP_CALLS_PER_SECOND: '1',
      WAKEUP_LATENESS_OBJECTIVE_SECONDS: '5',
    },
    timezoneId: 'UTC',
  });
  // After webSession's hook: a morning to look at.
  before(async () => {
    if (web.skip) return;
    const seeded = await call(web.server, 'POST', '/dev/seed-morning', {
      body: { accounts: 400, advance_hours: 5 },
    });
    assert.equal(seeded.status, 200, JSON.stringify(seeded.body));
    web.page.setDefaultTimeout(15_000);
    mkdirSync(SHOTS, { recursive: true });
  });

  it('shows the spike, the lateness, the outcomes and the health to an operator, at both widths', async (t) => {
    if (web.skip) return t.skip(web.skip);
    const { page, server } = web;
    await signInThroughPage(page, server, OPERATOR);
    await page.getByRole('link', { name: 'Operations' }).click();
    await page.getByRole('heading', { level: 1, name: 'Operations' }).waitFor();
    await atBothWidths(page, async (width) => {
      await goHash(page, '#/');
      await goHash(page, '#/ops');
      await page.getByRole('heading', { level: 1, name: 'Operations' }).waitFor();
      for (const name of ['forecast', 'lateness', 'outcomes']) {
        const canvas = page.locator(`[data-chart="${name}"] canvas`);
        await canvas.waitFor();
        const box = (await canvas.boundingBox())!;
        assert.ok(
          box.width > 200 && box.width <= width,
          `${name} chart fits ${width} px (${box.width})`,
        );
      }
      // One spike minute ends more than 5 s late at 1 call per second: a warning.
      await page.locator('[data-warnings]').waitFor();
      for (const heading of [
        'Next 24 hours',
        'Lateness, last 24 hours',
        'Outcomes per hour',
        'Health',
        'Find calls',
        'Audit log',
      ]) {
        await page.getByRole('heading', { level: 2, name: heading }).waitFor();
      }
      await noSidewaysScroll(page, width, 'the operator page at');
      await page.screenshot({ path: join(SHOTS, `ops-${width}.png`), fullPage: true });
    });
  });

  it('finds a number, blocks it, and lists that in the audit log', async (t) => {
    if (web.skip) return t.skip(web.skip);
    const { page, server } = web;
    // A number the morning has called already.
    const db = await settledDb(server);
    const row = await db.get<{ e164: string }>(
      "SELECT to_e164 AS e164 FROM attempts WHERE status = 'confirmed' ORDER BY id LIMIT 1",
    );
    const e164 = row!.e164;
    await goHash(page, '#/ops');
    await page.getByRole('heading', { level: 1, name: 'Operations' }).waitFor();
    await page.getByLabel('Number or email').fill(e164);
    await page.getByRole('button', { name: 'Search' }).click();
    await page.locator('table[aria-label="Calls found"]').waitFor();
    await page.getByRole('button', { name: 'Block this number' }).click();
    await page.locator('table[aria-label="Audit log"]', { hasText: e164 }).waitFor();
    await page.setViewportSize({ width: 390, height: 844 });
    await page.getByLabel('Number or email').fill(e164);
    await page.getByRole('button', { name: 'Search' }).click();
    await page.locator('table[aria-label="Calls found"]').waitFor();
    await page.screenshot({ path: join(SHOTS, 'ops-search-390.png'), fullPage: true });
  });

  it('gives no link to an account that is not an operator, and the page answers it with a refusal', async (t) => {
    if (web.skip) return t.skip(web.skip);
    const { server } = web;
    const context = await web.browser.newContext({ viewport: { width: 390, height: 844 } });
    const other = await context.newPage();
    other.setDefaultTimeout(15_000);
    await signInThroughPage(other, server, 'sleepy@example.com');
    assert.equal(await other.getByRole('link', { name: 'Operations' }).count(), 0);
    await goHash(other, '#/ops');
    await other.locator('.form-error[data-code="insufficient_scope"]').waitFor();
    await context.close();
  });
});
