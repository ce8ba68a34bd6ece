/**
 * Type generation: `host/generated/openapi.ts` from `schema/openapi.yaml` with
 * openapi-typescript.
 *
 *   npm run gen        writes the file
 *   npm run check:gen  regenerates in memory and exits 1 when the committed file differs
 *
 * The output is deterministic (no timestamps) so that the check can compare text.
 * Besides the usual `paths`, `components` and `operations`, every component schema is
 * also exported under its own name (`MeOut`, `ScheduleIn`, ...), and the error catalogue's
 * codes (`x-error-codes`) as the `ErrorCode` union that `host/errors.ts` types `AppError.code` with.
 *
 * @module
 */
import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { dirname, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import openapiTS, { astToString, type OpenAPI3 } from 'openapi-typescript';
import { getErrorCatalogue, loadOpenApi } from './load.js';

/** Where the generated types go. */
export const GENERATED_PATH = fileURLToPath(
  new URL('../host/generated/openapi.ts', import.meta.url),
);

const HEADER = `/**
 * Generated from schema/openapi.yaml by schema/gen.ts (openapi-typescript).
 * Do not edit: change the YAML and run \`npm run gen\`. \`npm run check:gen\` fails when
 * this file is out of date.
 */

`;

/** The text of the generated file for the current YAML. */
export async function generateTypes(): Promise<string> {
  // openapi-typescript may annotate the object it is given; hand it a private copy.
  const doc = structuredClone(loadOpenApi()) as OpenAPI3;
  const ast = await openapiTS(doc, {
    rootTypes: true,
    rootTypesNoSchemaPrefix: true,
    silent: true,
  });
  return HEADER + astToString(ast) + errorCodeUnion();
}

/** `export type ErrorCode = 'a' | 'b' | ...;` from the schema's `x-error-codes`, in catalogue order. */
function errorCodeUnion(): string {
  const codes = getErrorCatalogue().map((e) => `  | '${e.code}'`);
  return `\n/** Every error code of the catalogue (schema \`x-error-codes\`). */\nexport type ErrorCode =\n${codes.join('\n')};\n`;
}

/** First line at which two texts differ (1-based), for a readable failure message. */
function firstDifference(a: string, b: string): { line: number; expected: string; actual: string } {
  const al = a.split('\n');
  const bl = b.split('\n');
  for (let i = 0; i < Math.max(al.length, bl.length); i++) {
    if (al[i] !== bl[i])
      return { line: i + 1, expected: al[i] ?? '<end of file>', actual: bl[i] ?? '<end of file>' };
  }
  return { line: 0, expected: '', actual: '' };
}

async function main(): Promise<void> {
  const check = process.argv.includes('--check');
  const text = await generateTypes();
  const shown = relative(process.cwd(), GENERATED_PATH);
  if (!check) {
    mkdirSync(dirname(GENERATED_PATH), { recursive: true });
    writeFileSync(GENERATED_PATH, text);
    console.log(`wrote ${shown}`);
    return;
  }
  let current: string | undefined;
  try {
    current = readFileSync(GENERATED_PATH, 'utf8');
  } catch {
    current = undefined;
  }
  if (current === text) {
    console.log(`${shown} is up to date with schema/openapi.yaml`);
    return;
  }
  if (current === undefined) {
    console.error(`check:gen: ${shown} is missing. Run \`npm run gen\` and commit it.`);
  } else {
    const d = firstDifference(text, current);
    console.error(
      `check:gen: ${shown} does not match schema/openapi.yaml (first difference at line ${d.line}).\n` +
        `  generated: ${d.expected}\n  committed: ${d.actual}\n` +
        'Run `npm run gen` and commit the result; never edit the generated file by hand.',
    );
  }
  process.exitCode = 1;
}

// Run only as a script, so tests can import generateTypes().
if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  await main();
}
