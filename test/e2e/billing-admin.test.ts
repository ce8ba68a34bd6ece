/**
 * The operator command `host/admin.ts plan grant|revoke|show <email>` (source manual), run as
 * a real process on the test server's database, with the result read back over HTTP.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { after, before, describe, it } from 'node:test';
import { startTestServer, signIn, type TestServer } from '../helpers/server.js';
import { call } from '../helpers/phone.js';

const run = promisify(execFile);

async function admin(
  server: TestServer,
  ...args: string[]
): Promise<{ code: number; out: string }> {
  try {
    const r = await run(process.execPath, ['--import', 'tsx', 'host/admin.ts', ...args], {
      env: { ...process.env, WAKEUP_DB: server.dbFile },
    });
    return { code: 0, out: r.stdout };
  } catch (err: any) {
    return { code: err.code as number, out: String(err.stdout) };
  }
}

describe('plan admin command', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(() => server.close());

  it('grants a plan with source manual, shows it, revokes it; refuses unknown accounts and plans', async () => {
    const { token, email } = await signIn(server);
    const granted = await admin(server, 'plan', 'grant', email.toUpperCase(), 'traveler_monthly');
    assert.equal(granted.code, 0, granted.out);
    const me = (await call(server, 'GET', '/me', { token })).body;
    assert.deepEqual(me.plan, {
      code: 'traveler_monthly',
      entitled: true,
      name: 'Traveler (monthly)',
      source: 'manual',
      status: 'active',
    });
    assert.equal(me.billing.web_checkout_link, false);
    const checkout = await call(server, 'POST', '/billing/checkout', {
      token,
      body: { plan: 'traveler_yearly' },
    });
    assert.equal(checkout.body.code, 'already_subscribed');
    assert.match((await admin(server, 'plan', 'show', email)).out, /"source":"manual"/);
    assert.equal((await admin(server, 'plan', 'revoke', email)).code, 0);
    const after = (await call(server, 'GET', '/me', { token })).body.plan;
    assert.deepEqual(
      [after.code, after.status],
      ['trial', 'trialing'],
      'back to the trial, which still runs',
    );
    assert.equal((await admin(server, 'plan', 'revoke', email)).code, 2, 'nothing left to revoke');
    assert.equal(
      (await admin(server, 'plan', 'grant', 'nobody@example.com', 'traveler_monthly')).code,
      2,
    );
    assert.equal((await admin(server, 'plan', 'grant', email, 'gold')).code, 2);
    assert.equal((await admin(server, 'plan', 'grant', email)).code, 1, 'usage');
  });

  it('granting a pack adds its credits', async () => {
    const { token, email } = await signIn(server);
    assert.equal((await admin(server, 'plan', 'grant', email, 'pack_30')).code, 0);
    assert.equal((await call(server, 'GET', '/me/usage', { token })).body.credits_remaining, 30);
  });
});
