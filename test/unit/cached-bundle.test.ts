// scripts/cached-bundle.cjs: `npm run build` runs its CommonJS bundle through Node's own
// module compile cache where the running Node has one, else through V8's code cache, ours:
// the first run writes it, the next takes it; it is never taken for other code (V8 itself
// checks only the source's length), nor when it is damaged.
import { execFile } from 'node:child_process';
import { promises as fs } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanupTempDirs, tempDir } from '../helpers/tmp.ts';
import { PROJECT_DIR } from '../../shared/project-dir.ts';

afterAll(cleanupTempDirs);

const LOADER = path.join(PROJECT_DIR, 'scripts/cached-bundle.cjs');
const { codeCacheOf } = createRequire(import.meta.url)(LOADER) as { codeCacheOf: (nodeModule?: object) => 'node' | 'own' };

/** Runs `file` through the loader in a Node of its own; answers what it printed and whether the cache was taken. */
async function run(file: string): Promise<{ printed: string; cached: boolean }> {
  const code = `const used = require(${JSON.stringify(LOADER)}).runCached(${JSON.stringify(file)}); process.on("exit", () => console.log("cached=" + used));`;
  const { stdout } = await promisify(execFile)(process.execPath, ['-e', code]);
  const lines = stdout.trim().split('\n');
  return { printed: lines.slice(0, -1).join('\n'), cached: lines.at(-1) === 'cached=true' };
}

const caches = async (dir: string) => (await fs.readdir(dir)).filter((n) => n.endsWith('.cache'));

describe('which code cache runs the bundle', () => {
  it('Node’s own where the running Node has one (module.enableCompileCache), ours on one without', () => {
    expect(codeCacheOf({ enableCompileCache: () => ({}) })).toBe('node');
    expect(codeCacheOf({})).toBe('own');
    const running = createRequire(import.meta.url)('node:module') as { enableCompileCache?: unknown };
    expect(codeCacheOf()).toBe(typeof running.enableCompileCache === 'function' ? 'node' : 'own');
  });

  it('with Node’s cache the bundle runs once, after the cache is turned on, and no cache of ours is written', async () => {
    const dir = await tempDir('vs-cache-');
    const file = path.join(dir, 'build.cjs');
    await fs.writeFile(file, 'console.log("ran after " + globalThis.calls.join());\n');
    const node = `globalThis.calls = []; const nodeModule = { enableCompileCache() { calls.push("enable"); return { status: 1 }; }, constants: { compileCacheStatus: { ENABLED: 1, ALREADY_ENABLED: 2 } } };`;
    const code = `${node} const on = require(${JSON.stringify(LOADER)}).runCached(${JSON.stringify(file)}, { nodeModule }); console.log("on=" + on + " calls=" + calls.join());`;
    const { stdout } = await promisify(execFile)(process.execPath, ['-e', code]);
    expect(stdout.trim().split('\n')).toEqual(['ran after enable', 'on=true calls=enable']);
    expect(await caches(dir)).toEqual([]);
  });
});

describe.runIf(codeCacheOf() === 'own')('a bundle run through our code cache (a Node without its own)', () => {
  it('writes its cache on the first run and takes it on the next, with the same result', async () => {
    const dir = await tempDir('vs-cache-');
    const file = path.join(dir, 'build.js');
    await fs.writeFile(file, 'const add = (a, b) => a + b;\nconsole.log("sum " + add(2, 3) + " " + require("node:path").basename(__filename));\n');
    expect(await run(file)).toEqual({ printed: 'sum 5 build.js', cached: false });
    expect(await caches(dir)).toHaveLength(1);
    expect(await run(file)).toEqual({ printed: 'sum 5 build.js', cached: true });
  });

  it('never takes the cache of other code of the same length, and keeps one cache', async () => {
    const dir = await tempDir('vs-cache-');
    const file = path.join(dir, 'build.js');
    await fs.writeFile(file, 'console.log("version A");\n');
    await run(file);
    const [first] = await caches(dir);
    // Same length, other code: V8 would take the old cache (it checks the length only).
    await fs.writeFile(file, 'console.log("version B");\n');
    expect(await run(file)).toEqual({ printed: 'version B', cached: false });
    const now = await caches(dir);
    expect(now).toHaveLength(1);
    expect(now[0]).not.toBe(first);
    expect(await run(file)).toEqual({ printed: 'version B', cached: true });
  });

  it('reads a bundle that is not ASCII as UTF-8, and names its cache by the same hash as its text', async () => {
    const dir = await tempDir('vs-cache-');
    const file = path.join(dir, 'build.js');
    await fs.writeFile(file, 'console.log("مرحبا ✦ café");\n');
    expect(await run(file)).toEqual({ printed: 'مرحبا ✦ café', cached: false });
    expect(await run(file)).toEqual({ printed: 'مرحبا ✦ café', cached: true });
    // The name the loader's Node (no flags) gives the text: its bytes give the same.
    const { cacheFileFor } = createRequire(import.meta.url)(LOADER) as { cacheFileFor: (f: string, s: string | Buffer, argv: string[]) => string };
    const text = await fs.readFile(file, 'utf8');
    expect(cacheFileFor(file, await fs.readFile(file), [])).toBe(cacheFileFor(file, text, []));
    expect(await caches(dir)).toEqual([path.basename(cacheFileFor(file, text, []))]);
  });

  it('runs a damaged cache\'s code from source and writes the cache again', async () => {
    const dir = await tempDir('vs-cache-');
    const file = path.join(dir, 'build.js');
    await fs.writeFile(file, 'console.log("whole");\n');
    await run(file);
    const [name] = await caches(dir);
    await fs.writeFile(path.join(dir, name!), Buffer.from('not a code cache at all'));
    expect(await run(file)).toEqual({ printed: 'whole', cached: false });
    expect(await run(file)).toEqual({ printed: 'whole', cached: true });
  });
});
