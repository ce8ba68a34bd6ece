/**
 * Entry point of the single-file build (`npm run build:binary` bundles from here into
 * `dist/wakeup`):
 *
 *   wakeup                  starts the server (as `node dist/server.cjs`: same environment)
 *   wakeup --version        prints the version
 *   wakeup admin <command>  the operator commands (as `npm run admin -- <command>`)
 *
 * Assets (schema, migrations, docs files, SQLite addon) come from `host/assets.ts`.
 * @module
 */

/** Set by the bundler (scripts/build-binary.mjs) to package.json's version. */
declare const __WAKEUP_VERSION__: string | undefined;

const version = typeof __WAKEUP_VERSION__ === 'string' ? __WAKEUP_VERSION__ : 'dev';
// In a single executable, argv[1] repeats the executable's path; the arguments follow.
const args = process.argv.slice(2);

if (args[0] === '--version' || args[0] === '-v') {
  process.stdout.write(
    `wakeup ${version} (node ${process.versions.node}, ${process.platform}-${process.arch})\n`,
  );
} else if (args[0] === '--help' || args[0] === '-h') {
  process.stdout.write(
    `usage: wakeup                  start the server (environment: docs/operations/configuration.md)\n` +
      `       wakeup --version\n` +
      `       wakeup admin <command>  operator commands (wakeup admin --help)\n`,
  );
} else if (args[0] === 'admin') {
  process.argv.splice(2, 1);
  void import('./admin.js');
} else {
  void import('./main.js');
}
