/* global process, console */
// The engine's API report, one file per entry of engine/package.json's exports, made by
// api-extractor from the .d.ts that `npm run build:engine` emits:
//
//   engine/api/engine.api.md             the public entry (`.`)
//   engine/api/engine-internals.api.md   `./internals`, and one file per other entry
//
// The files are committed, so a change of the engine's surface shows in a diff (decision 0020).
// scripts/build-engine.mjs calls `apiReports()` after compiling: by default the files are
// rewritten (api-extractor's "local build"); with `--check-api` nothing is written and a
// report that differs from the committed one fails the build, as `npm run check:gen` does for
// the generated types.
//
// @microsoft/api-extractor is an optional devDependency of this step: when it is not
// installed the reports are skipped with a line on stderr, and the package is built as before.
import { existsSync, mkdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

/** The report's base name for an export path: `.` → engine, `./internals` → engine-internals. */
export function reportName(exportPath) {
  return exportPath === '.' ? 'engine' : `engine-${exportPath.slice(2).replaceAll('/', '-')}`;
}

/**
 * Writes (or, with `check`, compares) the API report of every entry of the staged package.
 * `stage` is the folder holding the staged package.json and its dist/ of .d.ts files.
 * Returns false when a report differs under `check`, or api-extractor reports an error.
 */
export async function apiReports({ root, stage, check = false }) {
  let extractor;
  try {
    extractor = createRequire(join(root, 'package.json'))('@microsoft/api-extractor');
  } catch {
    console.error('build:engine: API reports skipped (@microsoft/api-extractor is not installed)');
    return true;
  }
  const { Extractor, ExtractorConfig } = extractor;
  const manifest = JSON.parse(readFileSync(join(stage, 'package.json'), 'utf8'));
  const reportFolder = join(root, 'engine/api');
  const tempFolder = join(stage, '..', 'engine-api-temp');
  mkdirSync(reportFolder, { recursive: true });
  mkdirSync(tempFolder, { recursive: true });
  // The .d.ts files import xstate, node:test, better-sqlite3 and pg: resolve them from the
  // repository's node_modules (the staged package has none; this link is made after `npm pack`).
  const link = join(stage, 'node_modules');
  if (!existsSync(link)) symlinkSync(join(root, 'node_modules'), link, 'dir');
  let ok = true;
  try {
    for (const [exportPath, target] of Object.entries(manifest.exports)) {
      if (typeof target !== 'object' || !target.types) continue;
      const entry = join(stage, target.types);
      const config = ExtractorConfig.prepare({
        configObject: {
          projectFolder: stage,
          mainEntryPointFilePath: entry,
          compiler: {
            overrideTsconfig: {
              compilerOptions: {
                target: 'ES2022',
                module: 'NodeNext',
                moduleResolution: 'NodeNext',
                strict: true,
                skipLibCheck: true,
              },
              files: [entry],
            },
          },
          apiReport: {
            enabled: true,
            reportFileName: reportName(exportPath),
            reportFolder,
            reportTempFolder: tempFolder,
            includeForgottenExports: false,
          },
          docModel: { enabled: false },
          dtsRollup: { enabled: false },
          tsdocMetadata: { enabled: false },
          newlineKind: 'lf',
          messages: {
            compilerMessageReporting: { default: { logLevel: 'warning' } },
            extractorMessageReporting: {
              default: { logLevel: 'warning' },
              // No release tags (@public, @beta): the entry a name is exported from says it.
              'ae-missing-release-tag': { logLevel: 'none' },
              // A type a public signature names but the entry does not export: listed in the
              // report (decision 0020 names the deliberate ones: the Store's unit-of-work types).
              'ae-forgotten-export': { logLevel: 'none', addToApiReportFile: true },
              // A member without TSDoc: the report marks it `// (undocumented)`, which is the record.
              'ae-undocumented': { logLevel: 'none' },
              // One run per entry: a {@link Store} in ./sim's docs does not resolve to `.`'s Store.
              'ae-unresolved-link': { logLevel: 'none' },
            },
            tsdocMessageReporting: { default: { logLevel: 'none' } },
          },
        },
        configObjectFullPath: join(stage, 'api-extractor.json'),
        packageJsonFullPath: join(stage, 'package.json'),
      });
      // api-extractor analyses with the TypeScript it bundles (pinned by its version), not ours.
      const result = Extractor.invoke(config, {
        localBuild: !check,
        showVerboseMessages: false,
        // api-extractor's lines on stderr: stdout's last line is build-engine's tarball path.
        messageCallback: (message) => {
          if (message.logLevel !== 'none' && message.logLevel !== 'verbose')
            console.error(message.formatMessageWithLocation(stage));
          message.handled = true;
        },
      });
      if (!result.succeeded) {
        ok = false;
        const file = `engine/api/${reportName(exportPath)}.api.md`;
        console.error(
          result.apiReportChanged
            ? `build:engine: the API of '${exportPath}' differs from ${file}: run npm run build:engine and commit the report`
            : `build:engine: the API report of '${exportPath}' failed (${result.errorCount} errors, ${result.warningCount} warnings)`,
        );
      }
    }
  } finally {
    rmSync(link, { force: true });
    rmSync(tempFolder, { recursive: true, force: true });
  }
  if (!ok) process.exitCode = 1;
  return ok;
}
