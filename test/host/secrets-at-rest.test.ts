import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { requestCode, startTestServer, storedText } from '../helpers/server.js';
import { req } from '../helpers/http.js';

describe('secrets at rest', () => {
  it('after sign-ins and an API key creation, the database holds no token, key, CSRF token or code', async () => {
    const server = await startTestServer();
    try {
      const secrets: Record<string, string> = {};

      const appEmail = 'rest-app@example.com';
      secrets.appCode = await requestCode(server, appEmail);
      const app = await req(server.api, 'POST', '/auth/email/verify', {
        body: { email: appEmail, code: secrets.appCode, client: 'app' },
      });
      assert.equal(app.status, 200);
      secrets.appToken = app.body.session_token;

      const webEmail = 'rest-web@example.com';
      secrets.webCode = await requestCode(server, webEmail);
      const web = await req(server.api, 'POST', '/auth/email/verify', {
        body: { email: webEmail, code: secrets.webCode, client: 'web' },
      });
      secrets.webToken = web.headers
        .getSetCookie()
        .find((c) => c.startsWith('sessionid='))!
        .split(';')[0]!
        .slice('sessionid='.length);
      secrets.csrf = web.body.csrf_token;

      const key = await req(server.api, 'POST', '/api-keys', {
        token: secrets.appToken,
        body: { name: 'rest' },
      });
      assert.equal(key.status, 201);
      secrets.apiKey = key.body.key;
      assert.equal((await req(server.api, 'GET', '/me', { token: secrets.apiKey })).status, 200);

      // A pending (unused) code as well.
      secrets.pendingCode = await requestCode(server, 'rest-pending@example.com');

      // SQLite: the file's bytes (with its WAL); PostgreSQL: every row of the schema, read as text.
      const check = (latin: string, when: string) => {
        assert.ok(
          latin.includes(appEmail),
          `${when}: the stored data holds the accounts (the check reads real rows)`,
        );
        for (const [name, value] of Object.entries(secrets)) {
          assert.ok(value && value.length >= 6, name);
          assert.ok(!latin.includes(value), `${when}: ${name} found in the database bytes`);
          // The random part of a token alone must not be there either.
          if (value.length > 20)
            assert.ok(!latin.includes(value.slice(12)), `${when}: secret part of ${name} found`);
        }
      };
      check(await storedText(server), 'running (file + WAL, or rows)');

      // The dev outbox can still show the pending code while the server runs...
      const outbox = await req(server.url, 'GET', '/dev/outbox?to=rest-pending@example.com');
      assert.equal(outbox.body.items[0].code, secrets.pendingCode);

      await server.running.close(); // SQLite: checkpoints the WAL into the file
      check(await storedText(server), 'after close');
    } finally {
      await server.close();
    }
  });
});
