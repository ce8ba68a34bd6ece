/**
 * docs/operations/configuration.md is generated from the variable list the server reads
 * (ENV_VARS in host/config.ts): one table row per variable, in that order, between a fixed
 * header and footer.
 *
 *   node --import tsx test/docs/configuration-doc.ts          rewrites the page
 *   node --import tsx test/docs/configuration-doc.ts --check  exits 1 when the page differs
 *
 * test/docs/configuration-doc.test.ts runs the check, so a variable added to the code and not
 * to the page (or the reverse) fails the fast test tier.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { ENV_VARS, type EnvVarDoc } from '../../host/config.js';

export const CONFIGURATION_PAGE = fileURLToPath(
  new URL('../../docs/operations/configuration.md', import.meta.url),
);

const HEADER = `# Configuration

<!-- Generated from ENV_VARS in host/config.ts by test/docs/configuration-doc.ts: edit the code, then run
     node --import tsx test/docs/configuration-doc.ts -->

The server reads only its environment. Every variable, with its default; \`host/config.ts\`
checks each one at start and refuses a bad value with a configuration error (exit code 2)
that names the variable. Dev mode and production: [production.md](production.md).

| Variable | Default | Meaning |
|---|---|---|
`;

const FOOTER = `
With several hosts on one PostgreSQL database, give every host the same values,
\`WAKEUP_SECRETS_KEY\` included: [several-hosts.md](several-hosts.md).
`;

function cell(text: string): string {
  return text.replace(/\|/g, '\\|');
}

function row(v: EnvVarDoc): string {
  const def = v.default === '' ? '' : `\`${cell(v.default)}\``;
  return `| \`${v.name}\` | ${def} | ${cell(v.meaning)} |`;
}

/** The page as generated from {@link ENV_VARS}. */
export function renderConfigurationPage(vars: readonly EnvVarDoc[] = ENV_VARS): string {
  return HEADER + vars.map(row).join('\n') + '\n' + FOOTER;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const want = renderConfigurationPage();
  if (process.argv.includes('--check')) {
    const have = readFileSync(CONFIGURATION_PAGE, 'utf8');
    if (have !== want) {
      console.error(
        'docs/operations/configuration.md is stale: run node --import tsx test/docs/configuration-doc.ts',
      );
      process.exit(1);
    }
  } else {
    writeFileSync(CONFIGURATION_PAGE, want);
  }
}
