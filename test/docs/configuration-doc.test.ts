/**
 * docs/operations/configuration.md equals what test/docs/configuration-doc.ts generates from
 * ENV_VARS (host/config.ts): the page and the variables the server reads stay the same list.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { ENV_VARS } from '../../host/config.js';
import { CONFIGURATION_PAGE, renderConfigurationPage } from './configuration-doc.js';

describe('docs/operations/configuration.md', () => {
  const page = readFileSync(CONFIGURATION_PAGE, 'utf8');

  it('is what the generator makes from ENV_VARS (run node --import tsx test/docs/configuration-doc.ts)', () => {
    assert.equal(page, renderConfigurationPage());
  });

  it('has one row per variable the server reads, and no other', () => {
    const rows = [...page.matchAll(/^\| `([A-Z0-9_]+)` \|/gm)].map((m) => m[1]);
    assert.deepEqual(
      rows,
      ENV_VARS.map((v) => v.name),
    );
  });

  it('fails when a variable is missing: the generator is not a copy of the page', () => {
    assert.notEqual(renderConfigurationPage(ENV_VARS.slice(1)), page);
  });
});
