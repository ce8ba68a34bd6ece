/**
 * Files the server reads at run time (the OpenAPI document, the SQL migrations, the API
 * reference's swagger-ui files, the SQLite native addon), from ONE place.
 *
 * Normally they are files: each caller passes the path where the file sits on disk (beside
 * the module, or in node_modules) and gets it read. In the single-file build
 * (`npm run build:binary`, Node's single executable applications) they are assets inside the
 * executable, read with `node:sea`'s `getAsset` under the keys `scripts/build-binary.mjs`
 * gives them; the native addon is extracted once to a cache folder and loaded from there,
 * because the operating system can only load a shared library from a file.
 * @module
 */
import { createHash } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';

interface SeaModule {
  isSea(): boolean;
  getAsset(key: string): ArrayBuffer;
  getAsset(key: string, encoding: string): string;
}

const nodeRequire = createRequire(import.meta.url);

/** `node:sea` when this process is the single-file build, else null (also on Node without it). */
const sea: SeaModule | null = (() => {
  try {
    const m = nodeRequire('node:sea') as SeaModule;
    return m.isSea() ? m : null;
  } catch {
    return null;
  }
})();

/** Whether this process is the single-file build. */
export function inSingleFile(): boolean {
  return sea !== null;
}

/** Asset `key` in the single-file build, else the file at `onDisk`. */
export function readAsset(key: string, onDisk: string | (() => string)): Buffer {
  return sea
    ? Buffer.from(sea.getAsset(key))
    : readFileSync(typeof onDisk === 'string' ? onDisk : onDisk());
}

/** {@link readAsset} as UTF-8 text. */
export function readAssetText(key: string, onDisk: string): string {
  return sea ? sea.getAsset(key, 'utf8') : readFileSync(onDisk, 'utf8');
}

/** Names of the files in folder `key` of the single-file build (from its manifest), else in the folder `onDisk`. */
export function listAssets(key: string, onDisk: string): string[] {
  if (!sea) return readdirSync(onDisk);
  const manifest = JSON.parse(sea.getAsset('manifest.json', 'utf8')) as {
    folders: Record<string, string[]>;
  };
  const names = manifest.folders[key];
  if (!names) throw new Error(`single-file build: no asset folder ${key}`);
  return [...names];
}

let addon: object | undefined;

/**
 * The better-sqlite3 options that load its native addon: none normally (the package finds
 * its own); in the single-file build the addon object, extracted at first use to
 * `$XDG_CACHE_HOME/wakeup` (else `~/.cache/wakeup`, else the temporary folder) under a name
 * holding its hash, so a new build never loads an old addon.
 */
export function sqliteOptions(): { nativeBinding?: string } {
  if (!sea) return {};
  addon ??= loadAddon(sea);
  // better-sqlite3 also takes the loaded addon object here; its type definitions say string only.
  return { nativeBinding: addon as unknown as string };
}

function loadAddon(s: SeaModule): object {
  const bytes = Buffer.from(s.getAsset('better_sqlite3.node'));
  const hash = createHash('sha256').update(bytes).digest('hex').slice(0, 16);
  const file = `better_sqlite3-${process.platform}-${process.arch}-${hash}.node`;
  const candidates = [process.env.XDG_CACHE_HOME, join(homedir(), '.cache'), tmpdir()].filter(
    (d): d is string => !!d,
  );
  let lastError: unknown;
  for (const base of candidates) {
    const dir = join(base, 'wakeup');
    const target = join(dir, file);
    try {
      if (!existsSync(target)) {
        mkdirSync(dir, { recursive: true });
        const partial = `${target}.${process.pid}.tmp`;
        writeFileSync(partial, bytes, { mode: 0o755 });
        renameSync(partial, target); // atomic: a concurrent start never loads half a file
      }
      // The executable's own require loads built-in modules only; this one loads files.
      return createRequire(process.execPath)(target) as object;
    } catch (err) {
      lastError = err;
    }
  }
  throw new Error(
    `cannot extract the SQLite addon to a cache folder (${candidates.join(', ')}): ${String(lastError)}`,
  );
}
