// Runs a CommonJS bundle (dist/bundle/build.cjs) through a code cache: Node's own module
// compile cache where the running Node has one (module.enableCompileCache, Node 22.1 on),
// else ours. Node 20 caches none of a program's own code: every `npm run build` parsed and
// compiled its 1.7 MB again, then compiled each function on its first call (markdown-it,
// KaTeX, the templates, the model), about a tenth of a 1,000-note build. Ours writes the code
// V8 compiled by a run's end beside the bundle; later runs start from it.
//
// V8 checks a cache against its own version and flags and the source's length only, so
// the file is named by a hash of the source, Node's version and the V8 flags: a rebuilt
// bundle, another Node or other flags never take a cache made for another.
'use strict';
const { isAscii } = require('node:buffer');
const { createHash } = require('node:crypto');
const { readdirSync, readFileSync, renameSync, rmSync, writeFileSync } = require('node:fs');
const { createRequire } = require('node:module');
const path = require('node:path');
const vm = require('node:vm');

/** The cache file for `file` (its `source`, text or bytes) run by this process (see above). */
function cacheFileFor(file, source, execArgv = process.execArgv, version = process.version) {
  // Node's own profiling flags change nothing V8 compiles: a profiled run reads the same cache.
  const flags = execArgv.filter((a) => a.startsWith('--') && !/^--(cpu|heap)-prof/.test(a)).join(' ');
  const key = createHash('sha256').update(source).update('\0').update(version).update('\0').update(flags).digest('hex').slice(0, 20);
  return `${file}.${key}.cache`;
}

/**
 * Where code started from this bundle finds it again: a thread it starts (the build
 * thread, site/build/build-thread-link.ts) runs the same file through the same cache, which
 * the build has already compiled, instead of loading the compiled modules one by one.
 */
const CACHED_BUNDLE = Symbol.for('vault-service.cached-bundle');

/** Which code cache runs a bundle: Node's own where `nodeModule` (node:module) has one, else ours. */
function codeCacheOf(nodeModule = require('node:module')) {
  return typeof nodeModule.enableCompileCache === 'function' ? 'node' : 'own';
}

/**
 * Runs `file` as CommonJS code, from its cache when there is a good one; answers whether it
 * was (with Node's cache: whether it is on). `writeCache: false` (a thread) never writes ours:
 * the process that started it does. `nodeModule`: node:module (a test hands in another).
 */
function runCached(file, { writeCache = true, nodeModule = require('node:module') } = {}) {
  if (codeCacheOf(nodeModule) === 'node') {
    globalThis[CACHED_BUNDLE] = { file, runner: __filename };
    // Node keeps the cache (NODE_COMPILE_CACHE, else a folder in the temp directory) and checks it against the source itself.
    const { status } = nodeModule.enableCompileCache() ?? {};
    require(file);
    const on = nodeModule.constants?.compileCacheStatus;
    return on !== undefined && (status === on.ENABLED || status === on.ALREADY_ENABLED);
  }
  // Read as bytes, hashed as bytes (the same hash as the text's UTF-8), and made text as
  // Latin-1 when they are ASCII, as the bundler makes them: a UTF-8 decoding and the hash of
  // the text took 6-10 ms of each build thread's start, these 2-3 ms.
  const bytes = readFileSync(file);
  const source = isAscii(bytes) ? bytes.toString('latin1') : bytes.toString('utf8');
  const cacheFile = cacheFileFor(file, bytes);
  let cachedData;
  try {
    cachedData = readFileSync(cacheFile);
  } catch {
    cachedData = undefined;
  }
  const script = new vm.Script(`(function (exports, require, module, __filename, __dirname) {${source}\n})`, {
    filename: file,
    cachedData,
    importModuleDynamically: vm.constants?.USE_MAIN_CONTEXT_DEFAULT_LOADER,
  });
  const used = cachedData !== undefined && !script.cachedDataRejected;
  // Made at the end, when it holds every function the run compiled; never a torn file.
  if (!used && writeCache) process.once('exit', () => writeCacheFile(file, cacheFile, script));
  globalThis[CACHED_BUNDLE] = { file, runner: __filename };
  // The bundle's import() of a package (shared/import-module.ts) is this module's, not the vm script's.
  globalThis[Symbol.for('vault-service.import')] = (specifier) => import(specifier);
  const module = { exports: {} };
  script.runInThisContext()(module.exports, createRequire(file), module, file, path.dirname(file));
  return used;
}

function writeCacheFile(file, cacheFile, script) {
  try {
    const temp = `${cacheFile}.${process.pid}.tmp`;
    writeFileSync(temp, script.createCachedData());
    renameSync(temp, cacheFile);
    // Caches of earlier versions of the bundle (or other flags) are never read again.
    const base = `${path.basename(file)}.`;
    for (const name of readdirSync(path.dirname(file))) {
      if (name.startsWith(base) && name.endsWith('.cache') && name !== path.basename(cacheFile)) rmSync(path.join(path.dirname(file), name), { force: true });
    }
  } catch {
    /* a read-only install: the next run compiles again, as without a cache */
  }
}

module.exports = { cacheFileFor, CACHED_BUNDLE, codeCacheOf, runCached };
