// Part of `npm run build`: copies what the compiled server reads at run time next to the
// compiled modules that read it (schema/load.ts: openapi.yaml beside it, and openapi.json; host/db/migrate.ts:
// migrations/*.sql beside it; host/http/site/web-assets.ts: the web app's web/ folder three levels
// up), so that `node dist/host/main.js` finds them.
import { cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { parse } from 'yaml';

const copies = [
  ['schema/openapi.yaml', 'dist/schema/openapi.yaml'],
  ['host/db/migrations', 'dist/host/db/migrations'],
  ['host/db/migrations-pg', 'dist/host/db/migrations-pg'],
  ['web', 'dist/web'],
];
for (const [from, to] of copies) {
  mkdirSync(to.endsWith('.yaml') ? 'dist/schema' : to, { recursive: true });
  cpSync(from, to, { recursive: true });
}
// The OpenAPI document as JSON too: schema/load.ts reads it when present, because parsing
// the YAML costs about half a second of every start (a restart's readiness).
writeFileSync(
  'dist/schema/openapi.json',
  JSON.stringify(parse(readFileSync('schema/openapi.yaml', 'utf8'))),
);
