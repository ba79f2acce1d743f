// `npm run build` loads only the Node modules a snapshot needs. With the build's
// V8 flags Node compiles its own modules without their code cache, so each one a build
// never uses (zlib, v8) costs every build a few milliseconds. A static import of one of them
// on the build's path (the git runner, the server's compression, the remembered generation)
// fails here. (child_process is not among them: Eleventy loads it. worker_threads is used: the
// build starts its build thread before it walks the vault, site/build/build-thread-link.ts startBuildThreadEarly.)
// The build's code runs through a code cache (scripts/cached-bundle.cjs: Node's own, else ours), its build thread's
// too, and builds what the command line bundled as ES modules builds alone. The server's bundle
// holds Eleventy: a build from it resolves none of Eleventy's modules from node_modules.
import { spawn } from 'node:child_process';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { nodeCompileCache } from '../../scripts/cli/relaunch.ts';
import { QUICK_BUILD_THREAD_MIN_NOTES } from '../../site/build/full-build.ts';
import { BUILD_THREAD_ROLE } from '../../site/build/build-thread-link.ts';
import { CLI_BUILD, childEnv, PROJECT_DIR } from '../helpers/server.ts';
import { cleanupTempDirs, tempDir, writeFiles } from '../helpers/tmp.ts';

afterAll(cleanupTempDirs);

// (net is not among them: Node loads it for an output that is a pipe, as here and in CI.)
const NOT_LOADED = ['zlib', 'v8'];

function npm(args: string[], env: Record<string, string> = {}): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve, reject) => {
    const proc = spawn('npm', args, { cwd: PROJECT_DIR, env: childEnv(env) });
    let out = '';
    proc.stdout.on('data', (d) => (out += d));
    proc.stderr.on('data', (d) => (out += d));
    proc.on('error', reject);
    proc.on('close', (code) => resolve({ code, out }));
  });
}

/**
 * Past QUICK_BUILD_THREAD_MIN_NOTES: `npm run build` takes its build thread; the command line (below
 * BUILD_THREAD_MIN_NOTES) builds alone. Every note counts and is parsed; an eighth is published, as
 * pages are where a build's time goes.
 */
const published = (i: number) => i % 8 === 0;
async function writeBuildThreadVault(vault: string): Promise<void> {
  const notes: Record<string, string> = {};
  for (let i = 0; i < QUICK_BUILD_THREAD_MIN_NOTES + 100; i++) {
    notes[`Folder ${i % 13}/Note ${i}.md`] = `---\npublish: ${published(i)}\ntags: [topic${i % 7}]\ndate: 2025-03-${String((i % 28) + 1).padStart(2, '0')}\n---\nNote ${i} links to [[Note ${(i * 7) % 800}]], with $x^${i % 9}$.\n`;
  }
  await writeFiles(vault, {
    ...notes,
    'Home.md': '---\npublish: true\n---\nWelcome. See [[First post]] and #topic.\n',
    'First post.md': '---\npublish: true\ndate: 2026-01-02\ntags: [one]\n---\n# Title\n\nA post with $x^2$, ==marks== and a footnote.[^1]\n\n[^1]: Here.\n',
  });
}

describe('npm run build', () => {
  it('loads none of the Node modules only the server or a git vault needs', async () => {
    const work = await tempDir('vs-footprint-');
    await writeFiles(path.join(work, 'vault'), {
      'Home.md': '---\npublish: true\n---\nWelcome. See [[First post]].\n',
      'First post.md': '---\npublish: true\ndate: 2026-01-02\ntags: [one]\n---\nA post with $x^2$ and a footnote.[^1]\n\n[^1]: Here.\n',
    });
    const list = path.join(work, 'modules.json');
    // Preloaded by every Node process npm starts; only the build's own writes its list.
    const preload = path.join(work, 'modules.cjs');
    await fs.writeFile(
      preload,
      `if (process.argv[1] && process.argv[1].endsWith('run-compiled.cjs')) process.on('exit', () => require('fs').writeFileSync(${JSON.stringify(list)}, JSON.stringify(process.moduleLoadList)));\n`,
    );
    // Compiled first: a build that finds dist/ stale starts the compiler (through child_process) itself.
    expect((await npm(['run', '-s', 'compile'])).code).toBe(0);
    const res = await npm(['run', 'build'], { VAULT: path.join(work, 'vault'), SERVICE_DATA: path.join(work, 'data'), SITE_OUT: path.join(work, 'site'), NODE_OPTIONS: `--require ${preload}` });
    expect(res.code, res.out).toBe(0);
    expect(await fs.readFile(path.join(work, 'site', 'First-post.html'), 'utf8')).toContain('katex');
    const loaded = (JSON.parse(await fs.readFile(list, 'utf8')) as string[]).filter((m) => m.startsWith('NativeModule ')).map((m) => m.slice('NativeModule '.length));
    // The positive signal first: the list is the build's (it read notes with crypto's hash, wrote with fs).
    expect(loaded).toContain('crypto');
    expect(loaded.filter((m) => NOT_LOADED.includes(m))).toEqual([]);
  }, 180_000);

  it('runs its code and its build thread\'s through the code cache and builds what the bundled command line builds alone', async () => {
    const work = await tempDir('vs-cached-build-');
    await writeBuildThreadVault(path.join(work, 'vault'));
    // Preloaded into every thread: in the build thread it counts the chunks of notes it hands the build.
    const chunks = path.join(work, 'thread-chunks');
    const preload = path.join(work, 'thread-count.cjs');
    await fs.writeFile(
      preload,
      `const w = require('node:worker_threads');\nif (!w.isMainThread && w.workerData && w.workerData.role === ${JSON.stringify(BUILD_THREAD_ROLE)}) { const post = w.parentPort.postMessage.bind(w.parentPort); w.parentPort.postMessage = (m, t) => { if (m && m.type === 'records') require('node:fs').appendFileSync(${JSON.stringify(chunks)}, m.records.length + '\\n'); return post(m, t); }; }\n`,
    );
    const env = (name: string) => ({ VAULT: path.join(work, 'vault'), SERVICE_DATA: path.join(work, `${name}-data`), SITE_OUT: path.join(work, name), SITE_URL: 'https://cache.example' });
    expect((await npm(['run', '-s', 'compile'])).code).toBe(0);
    for (const round of ['first', 'second']) {
      const res = await npm(['run', 'build'], { ...env(round), NODE_OPTIONS: `--require ${preload}` });
      expect(res.code, round).toBe(0);
      expect(res.out).not.toContain('build thread failed');
    }
    // Its build thread parsed notes for both builds (the chunks it handed over, each of some notes).
    const parsed = (await fs.readFile(chunks, 'utf8')).trim().split('\n').map(Number);
    expect(parsed.length).toBeGreaterThanOrEqual(2);
    expect(parsed.every((n) => n > 0)).toBe(true);
    const bundle = path.join(PROJECT_DIR, 'dist/bundle');
    // Ours where the running Node has no module compile cache of its own (Node 20), none where it has one.
    const ours = (await fs.readdir(bundle)).filter((n) => /^build\.cjs\.\w+\.cache$/.test(n)).length;
    if (nodeCompileCache() === null) expect(ours).toBeGreaterThan(0);
    else expect(ours).toBe(0);
    const esm = await new Promise<number | null>((resolve) => spawn(process.execPath, [path.join(bundle, 'cli.js'), 'build'], { cwd: PROJECT_DIR, env: childEnv(env('esm')), stdio: 'ignore' }).on('exit', resolve));
    expect(esm).toBe(0);
    const files = (dir: string) => fs.readdir(path.join(work, dir), { recursive: true }).then((names) => (names as string[]).sort());
    expect(await files('second')).toEqual(await files('esm'));
    for (const name of await files('esm')) {
      const file = path.join(work, 'esm', name);
      // As base64 text: toEqual walks a Buffer byte by byte, which took longer than the three builds.
      if ((await fs.stat(file)).isFile()) expect((await fs.readFile(path.join(work, 'second', name))).toString('base64'), name).toBe((await fs.readFile(file)).toString('base64'));
    }
  }, 180_000);

  it('builds alone when its build thread fails as it starts (started early, before any build takes it)', async () => {
    const work = await tempDir('vs-build-thread-fails-');
    await writeBuildThreadVault(path.join(work, 'vault'));
    // Preloaded into every thread: in the build thread it throws before it serves; the build's first
    // folder read waits half a second, so the failure is told before the build takes the build thread
    // (an 'error' no one listened for then ended the build: exit 1, "Unhandled 'error' event").
    const preload = path.join(work, 'thread-fails.cjs');
    await fs.writeFile(
      preload,
      [
        "const w = require('node:worker_threads');",
        `if (!w.isMainThread && w.workerData && w.workerData.role === ${JSON.stringify(BUILD_THREAD_ROLE)}) throw new Error('this build thread refuses to start');`,
        "if (w.isMainThread && process.argv[1] && process.argv[1].endsWith('run-compiled.cjs')) {",
        "  const fsp = require('node:fs').promises;",
        '  const readdir = fsp.readdir;',
        '  let slowed = false;',
        '  fsp.readdir = async (...args) => {',
        '    if (!slowed) {',
        '      slowed = true;',
        '      await new Promise((resolve) => setTimeout(resolve, 500));',
        '    }',
        '    return readdir.apply(fsp, args);',
        '  };',
        '}',
        '',
      ].join('\n'),
    );
    expect((await npm(['run', '-s', 'compile'])).code).toBe(0);
    const res = await npm(['run', 'build'], { VAULT: path.join(work, 'vault'), SERVICE_DATA: path.join(work, 'data'), SITE_OUT: path.join(work, 'site'), NODE_OPTIONS: `--require ${preload}` });
    expect(res.code, res.out.slice(-2000)).toBe(0);
    expect(res.out).not.toContain('Unhandled');
    expect(await fs.readFile(path.join(work, 'site', 'First-post.html'), 'utf8')).toContain('katex');
    const folder12 = Array.from({ length: QUICK_BUILD_THREAD_MIN_NOTES + 100 }, (_, i) => i).filter((i) => i % 13 === 12 && published(i));
    // The folder's own page (the garden's folder pages), copied in as its index.html for hosts that answer a folder's address by the folder.
    expect((await fs.readdir(path.join(work, 'site', 'Folder-12'))).sort()).toEqual([...folder12.map((i) => `Note-${i}.html`), 'index.html'].sort());
  }, 180_000);
});

describe("the server's bundle", () => {
  // What the server's build process runs: Eleventy is in its chunks (scripts/server-bundle.ts), so no
  // start resolves and reads its modules one by one from node_modules.
  it('builds with Eleventy from its own chunks: no Eleventy module is resolved from node_modules', async () => {
    const work = await tempDir('vs-bundled-eleventy-');
    await writeFiles(path.join(work, 'vault'), { 'Home.md': '---\npublish: true\n---\nWelcome.\n', 'Post.md': '---\npublish: true\ndate: 2026-01-02\n---\nA post.\n' });
    const log = path.join(work, 'resolved.txt');
    await fs.writeFile(path.join(work, 'hooks.mjs'), `import { appendFileSync } from 'node:fs';\nexport async function resolve(specifier, context, next) {\n  const found = await next(specifier, context);\n  appendFileSync(${JSON.stringify(log)}, found.url + '\\n');\n  return found;\n}\n`);
    await fs.writeFile(path.join(work, 'register.mjs'), "import { register } from 'node:module';\nregister(new URL('./hooks.mjs', import.meta.url));\n");
    const args = ['--import', path.join(work, 'register.mjs'), ...CLI_BUILD, '--vault', path.join(work, 'vault'), '--out', path.join(work, 'site'), '--data', path.join(work, 'data')];
    const code = await new Promise<number | null>((resolve) => spawn(process.execPath, args, { cwd: PROJECT_DIR, env: childEnv({}), stdio: 'ignore' }).on('exit', resolve));
    expect(code).toBe(0);
    const resolved = (await fs.readFile(log, 'utf8')).trim().split('\n');
    // The hook saw the imports it should: Eleventy's own import of the site's configuration.
    expect(resolved).toContain(new URL(`file://${path.join(PROJECT_DIR, '.eleventy.js')}`).href);
    expect(resolved.filter((url) => url.includes('/node_modules/@11ty/eleventy/'))).toEqual([]);
  }, 60_000);
});
