/**
 * The web app's files: the `web/` folder at the top of the repository, found at run time
 * relative to this module's own file (not the working directory), and read once at start.
 *
 * This is the ONLY module that knows where the app's files live. In the single-file build
 * (`npm run build:binary`) they are assets of the executable under `web/<path>`, listed in
 * its manifest's `web` folder, read through `host/assets.ts` like every other run-time file.
 * @module
 */
import { readdirSync, statSync } from 'node:fs';
import { extname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { inSingleFile, listAssets, readAsset } from '../../assets.js';

/** One file of the app. */
export interface WebAsset {
  /** Content-Type header value. */
  type: string;
  data: Buffer;
}

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json; charset=utf-8',
  '.webmanifest': 'application/manifest+json; charset=utf-8',
};

/** The folder holding the app: `<repo>/web`, three levels above host/http/site/. */
export function webRoot(): string {
  return fileURLToPath(new URL('../../../web/', import.meta.url));
}

/**
 * Every file under `web/` by its path relative to it, with `/` separators
 * (`index.html`, `js/api.js`). Files with an unknown extension are left out.
 */
export function loadWebAssets(root = webRoot()): Map<string, WebAsset> {
  const out = new Map<string, WebAsset>();
  for (const path of inSingleFile() ? listAssets('web', root) : filesUnder(root)) {
    const type = TYPES[extname(path)];
    if (type)
      out.set(path, { type, data: readAsset(`web/${path}`, join(root, ...path.split('/'))) });
  }
  return out;
}

/** Paths of the files under `root`, relative to it with `/` separators, sorted. */
export function filesUnder(root: string): string[] {
  const out: string[] = [];
  const walk = (dir: string): void => {
    for (const name of readdirSync(dir).sort()) {
      const full = join(dir, name);
      if (statSync(full).isDirectory()) walk(full);
      else out.push(relative(root, full).split(sep).join('/'));
    }
  };
  walk(root);
  return out;
}
