/* global __dirname, process, Buffer */
// dist/server.cjs (`npm run build` copies this file there): starts the bundled server,
// dist/server-bundle.cjs, through V8's code cache, the way Node 22's module.enableCompileCache
// does (Node 20 has no such switch; this works on both).
//
// Compiling the 5 MB bundle costs 0.1 to 0.2 s of CPU at every start; with the cache V8
// deserializes the compiled code in about 20 ms. The cache is dist/server-bundle.cjs.cache:
// one header line (SHA-1 of the bundle, node version, architecture), then V8's data. The build
// writes it (`prime`, below); when it is missing, stale or refused (V8 also checks its own
// version and flags), a start compiles as usual and writes a fresh one after its first
// evaluation, if the folder is writable (a read-only install just runs without).
// A wrong cache can never run: the header names the exact bundle and V8 checks the rest.
'use strict';
const { createHash } = require('node:crypto');
const { readFileSync, renameSync, writeFileSync } = require('node:fs');
const Module = require('node:module');
const { join } = require('node:path');
const vm = require('node:vm');

const bundle = join(__dirname, 'server-bundle.cjs');
const cacheFile = `${bundle}.cache`;

function compile() {
  // ASCII (scripts/bundle-server.mjs makes sure): latin1 reads it 4 times faster than UTF-8.
  const source = readFileSync(bundle, 'latin1');
  const key = `${createHash('sha1').update(source).digest('hex')} ${process.version} ${process.arch}\n`;
  let cachedData;
  try {
    const data = readFileSync(cacheFile);
    const header = Buffer.byteLength(key);
    if (data.subarray(0, header).toString('latin1') === key) cachedData = data.subarray(header);
  } catch {
    // No cache yet.
  }
  const script = new vm.Script(Module.wrap(source), {
    filename: bundle,
    cachedData,
    // `import()` inside the bundle resolves as in any CommonJS module.
    importModuleDynamically: vm.constants?.USE_MAIN_CONTEXT_DEFAULT_LOADER,
  });
  const cached = cachedData !== undefined && !script.cachedDataRejected;
  const save = () => {
    try {
      const tmp = `${cacheFile}.${process.pid}.tmp`;
      writeFileSync(tmp, Buffer.concat([Buffer.from(key, 'latin1'), script.createCachedData()]));
      renameSync(tmp, cacheFile);
    } catch {
      // A read-only install: start without a cache.
    }
  };
  return { script, cached, save };
}

/** Writes the cache without running the server (`npm run build`). */
function prime() {
  compile().save();
}

function run() {
  const { script, cached, save } = compile();
  const module = new Module(bundle, null);
  module.filename = bundle;
  const wrapper = script.runInThisContext();
  wrapper.call(
    module.exports,
    module.exports,
    Module.createRequire(bundle),
    module,
    bundle,
    __dirname,
  );
  // After the first evaluation the cache also holds the functions start-up compiled.
  if (!cached) save();
}

if (require.main === module) run();
else module.exports = { prime };
