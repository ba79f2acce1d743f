// Publish from anywhere. `npm pack` makes a tarball that installs into an empty
// folder without the dev dependencies (the registry's cache may be reused; the repository's
// node_modules is never seen) and runs `vault-service build` and `start` with no TypeScript,
// tsx or build step; and the CI recipes in docs/deploy/ work: their own commands, read from
// the recipe files, run against a temporary git repository of a vault, at the package's version.
// The npm scripts of a clone and the bundled commands are tested here too, not in files of
// their own: their pre-scripts compile into the repository's dist/, which `npm pack` deletes
// and rebuilds, and the tests of one file run one after the other.
import { spawn } from 'node:child_process';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import matter from 'gray-matter';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { git } from '../helpers/git-remotes.ts';
import { cleanCopy, localPrebuild } from '../helpers/package-install.ts';
import { childEnv, PROJECT_DIR, TEST_PASSWORD, waitFor } from '../helpers/server.ts';
import { cleanupTempDirs, tempDir, treeOf, writeFiles } from '../helpers/tmp.ts';
import { propsFrom, TEMPLATE_CODE_FILE, type CodeTable } from '../../site/render/template-code.ts';
import { TEMPLATES_DIR } from '../../site/render/paths.ts';

interface Run {
  code: number | null;
  out: string;
}

function run(command: string, args: string[], cwd: string, env: Record<string, string | undefined> = {}): Promise<Run> {
  return new Promise((resolve, reject) => {
    const proc = spawn(command, args, { cwd, env: childEnv(env) });
    let out = '';
    proc.stdout.on('data', (d) => (out += d));
    proc.stderr.on('data', (d) => (out += d));
    proc.on('error', reject);
    proc.on('close', (code) => resolve({ code, out }));
  });
}

/** The pid of the server `npm start` runs in process group `pgid`. */
async function serverOfGroup(pgid: number): Promise<number> {
  for (const entry of await fs.readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = await fs.readFile(`/proc/${entry}/stat`, 'utf8').catch(() => '');
    if (Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[2]) !== pgid) continue;
    const cmd = await fs.readFile(`/proc/${entry}/cmdline`, 'utf8').catch(() => '');
    if (cmd.includes('scripts/run-compiled.cjs\0start')) return Number(entry);
  }
  throw new Error(`no server in process group ${pgid}`);
}

async function exists(p: string): Promise<boolean> {
  return fs.stat(p).then(
    () => true,
    () => false,
  );
}

let root: string;
let tarball: string;
/** An empty folder the tarball was installed into, as a user would. */
let app: string;
let packing: Promise<string> | null = null;
let installing: Promise<void> | null = null;

/** Packs the project from a clean copy, once for the file; answers the copy, its dist/ as prepack made it. */
const packProject = () => (packing ??= pack());
/** Packs the project and installs the tarball into `app`, once for the file. */
const installPackage = () => (installing ??= packProject().then(install));

async function pack(): Promise<string> {
  root = await tempDir('vs-package-');
  const clone = await cleanCopy(root);
  const packed = await run('npm', ['pack', '--pack-destination', root, '--silent'], clone);
  expect(packed.code, packed.out).toBe(0);
  tarball = path.join(root, (await fs.readdir(root)).find((f) => f.endsWith('.tgz'))!);
  return clone;
}

async function install(): Promise<void> {
  app = path.join(root, 'app');
  await fs.mkdir(app);
  await fs.writeFile(path.join(app, 'package.json'), JSON.stringify({ name: 'a-user', private: true }));
  // better-sqlite3 from the clone's compiled binary, as a prebuilt (package-install.ts).
  const installed = await run('npm', ['install', '--prefer-offline', '--omit=dev', '--no-audit', '--no-fund', tarball], app, await localPrebuild(root));
  expect(installed.code, installed.out).toBe(0);
}
afterAll(cleanupTempDirs);

/** The installed command, run the way its README says: `npx vault-service …`. */
const npx = (args: string[], cwd = app, env: Record<string, string | undefined> = {}) => run('npx', ['--no-install', 'vault-service', ...args], cwd, env);

describe('the package', () => {
  beforeAll(installPackage, 900_000);

  it('carries compiled JavaScript, the templates, the example vault and the built admin app, and no TypeScript', async () => {
    const listing = await run('tar', ['-tzf', tarball], root);
    const files = listing.out.trim().split('\n').map((f) => f.replace(/^package\//, ''));
    expect(files.filter((f) => /\.tsx?$/.test(f))).toEqual([]);
    expect(files.filter((f) => f.endsWith('.map') || f.startsWith('dist/test/')), 'no source maps, nor the test fixtures compiled beside the server').toEqual([]);
    for (const f of ['dist/bundle/cli.js', 'dist/bundle/builder-process.js', 'dist/bundle/build-thread.js', 'dist/templates.json', 'dist/site/build/builder-process.js', 'dist/site/render/eleventy-runner.js', 'dist/scripts/eleventy-standalone.js', '.eleventy.js', 'dist/site/client/blog.js', 'site/templates/article.njk', 'site/assets/blog.css', 'example-vault/Home.md', 'example-vault/.service/settings.json', 'admin/ui/dist/index.html']) {
      expect(files).toContain(f);
    }
    const bin = await fs.readFile(path.join(app, 'node_modules/vault-service/dist/bundle/cli.js'), 'utf8');
    expect(bin.startsWith('#!/usr/bin/env node\n')).toBe(true);
  });

  it('installs without its build tools: no TypeScript, tsx, esbuild, Preact or CodeMirror', async () => {
    for (const name of ['typescript', 'tsx', 'esbuild', 'preact', '@codemirror/view', 'vitest']) expect(await exists(path.join(app, 'node_modules', name)), name).toBe(false);
    expect(await exists(path.join(app, 'node_modules/vault-service'))).toBe(true);
  });

  it('npx vault-service --version and --help answer', async () => {
    const version = await npx(['--version']);
    expect(version.code).toBe(0);
    expect(version.out.trim().split('\n').at(-1)).toBe(JSON.parse(await fs.readFile(path.join(PROJECT_DIR, 'package.json'), 'utf8')).version);
    const help = await npx(['--help']);
    expect(help.code).toBe(0);
    expect(help.out).toContain('vault-service build [options]');
  });

  it('npx vault-service build --vault <dir> --out <dir> writes the site', async () => {
    const work = await tempDir('vs-package-build-');
    const vault = path.join(work, 'vault');
    await fs.cp(path.join(app, 'node_modules/vault-service/example-vault'), vault, { recursive: true });
    const res = await npx(['build', '--vault', vault, '--out', path.join(work, 'site'), '--data', path.join(work, 'data'), '--site-url', 'https://blog.example']);
    expect(res.code, res.out).toBe(0);
    expect(res.out).toMatch(/built \d+ pages \(\d+ files\) into .+ in \d+\.\d s/);
    const home = await fs.readFile(path.join(work, 'site', 'index.html'), 'utf8');
    // The example vault's travelling settings chose the blog layout and the name.
    expect(home).toContain('Notes from the vault');
    expect(home).toMatch(/<script src="\/_s\/blog\.\w+\.js"/);
    expect(await exists(path.join(work, 'site', 'Posts', 'Keeping-a-vault-safe.html'))).toBe(true);
    expect(await fs.readFile(path.join(work, 'site', 'feed.xml'), 'utf8')).toContain('https://blog.example/Posts/Keeping-a-vault-safe');
  });

  it('npx vault-service start serves the site and the admin app, and stops on SIGTERM', async () => {
    const work = await tempDir('vs-package-start-');
    // The file `npx vault-service` runs, started directly so the test's signal reaches the server
    // (npx does not pass SIGTERM on).
    const bin = path.join(app, 'node_modules/.bin/vault-service');
    const proc = spawn(bin, ['start', '--port', '0'], { cwd: work, env: childEnv({ ADMIN_PASSWORD: TEST_PASSWORD }) });
    let out = '';
    proc.stdout.on('data', (d) => (out += d));
    proc.stderr.on('data', (d) => (out += d));
    const exited = new Promise<number | null>((resolve) => proc.once('exit', resolve));
    try {
      const url = await waitFor(() => /listening on (http:\/\/\S+)/.exec(out)?.[1], 60_000);
      // The default vault ./vault is made from the package's example vault.
      expect(await exists(path.join(work, 'vault', 'Home.md'))).toBe(true);
      const article = await waitFor(async () => {
        const res = await fetch(`${url}/Posts/Keeping-a-vault-safe`);
        return res.status === 200 ? res.text() : null;
      }, 60_000);
      expect(article).toContain('Notes from the vault');
      const admin = await fetch(`${url}/admin/`);
      expect(admin.status).toBe(200);
      expect(await admin.text()).toContain('<div id="app">');
      const login = await fetch(`${url}/api/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ password: TEST_PASSWORD }) });
      expect(login.status).toBe(200);
    } finally {
      proc.kill('SIGTERM');
    }
    expect(await exited).toBe(0);
    expect(out).not.toMatch(/error/i);
  }, 120_000);
});

// ── the CI recipes ───────────────────────────────────────────────────────────────────────

const DEPLOY = path.join(PROJECT_DIR, 'docs/deploy');
const parseYaml = (text: string) => matter(`---\n${text}\n---\n`, {}).data as Record<string, any>;
const COMMITTED_AT = Date.UTC(2021, 3, 5, 12) / 1000;

/** A vault's own git repository, as CI checks it out: travelling settings and an undated post. */
async function vaultRepository(dir: string): Promise<string> {
  await writeFiles(dir, {
    '.service/settings.json': JSON.stringify({ siteName: 'Recipe vault', publishing: { layout: 'blog' } }),
    'Home.md': '---\npublish: true\n---\nWelcome to the recipe vault. See [[Undated]].\n',
    'Undated.md': '---\npublish: true\n---\nUNDATED-POST: no date in it; the commit that added it dates it.\n',
    'Private.md': 'Not published.\n',
  });
  git(dir, 'init', '-q', '--initial-branch=main');
  git(dir, 'add', '-A');
  const when = `@${COMMITTED_AT} +0000`;
  const identity = { GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@localhost', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@localhost' };
  const commit = await run('git', ['commit', '-q', '-m', 'the vault'], dir, { ...identity, GIT_AUTHOR_DATE: when, GIT_COMMITTER_DATE: when });
  expect(commit.code, commit.out).toBe(0);
  expect(git(dir, 'log', '--format=%at').trim()).toBe(String(COMMITTED_AT));
  return dir;
}

/** What a published site built by a recipe must hold. */
async function expectPublished(site: string, basePath: string): Promise<void> {
  const home = await fs.readFile(path.join(site, 'index.html'), 'utf8');
  expect(home).toContain('Recipe vault');
  expect(home).toContain(`href="${basePath}/Undated"`);
  const post = await fs.readFile(path.join(site, 'Undated.html'), 'utf8');
  expect(post).toContain('UNDATED-POST');
  expect(post).toContain('datetime="2021-04-05');
  expect(await exists(path.join(site, 'Private.html'))).toBe(false);
}

const VERSION = JSON.parse(await fs.readFile(path.join(PROJECT_DIR, 'package.json'), 'utf8')).version as string;

describe('docs/deploy: the version the recipes pin', () => {
  it('is the package’s own, in the recipes, their README and the README’s "From CI"', async () => {
    const read = (file: string) => fs.readFile(path.join(PROJECT_DIR, file), 'utf8');
    const readme = await read('README.md');
    const ci = readme.indexOf('### From CI');
    expect(ci).toBeGreaterThan(0);
    const texts: Record<string, string> = {
      'docs/deploy/github-pages.yml': await read('docs/deploy/github-pages.yml'),
      'docs/deploy/gitlab-pages.yml': await read('docs/deploy/gitlab-pages.yml'),
      'docs/deploy/README.md': await read('docs/deploy/README.md'),
      'README.md (From CI)': readme.slice(ci, readme.indexOf('\n#', ci + 1)),
    };
    for (const [file, text] of Object.entries(texts)) {
      const pinned = [...text.matchAll(/vault-service@([^\s`"']+)/g)].map((m) => m[1]);
      const tarballs = [...text.matchAll(/vault-service-([^\s`"'/]+)\.tgz/g)].map((m) => m[1]);
      // Every command of a recipe is pinned: an unpinned `npx vault-service` fetches whatever is newest.
      if (file.endsWith('.yml')) expect(text.match(/\bnpx(?:\s+-[-\w=]+)*\s+vault-service(?!@)/g), file).toBeNull();
      expect(pinned.length, `${file} pins no version`).toBeGreaterThan(0);
      expect(new Set([...pinned, ...tarballs]), file).toEqual(new Set([VERSION]));
    }
  });
});

// The recipes' repositories live under the folder the package was installed into, so `npx`
// finds it there as it would find it fetched from the registry in CI (only at the version the
// recipe pins: another would send npx to the registry).
describe('docs/deploy: the CI recipes', () => {
  beforeAll(installPackage, 900_000);

  it('GitHub Pages: the workflow’s steps build the site that its upload step publishes', async () => {
    const workflow = parseYaml(await fs.readFile(path.join(DEPLOY, 'github-pages.yml'), 'utf8'));
    const base = path.join(app, 'recipes', 'github');
    const repo = await vaultRepository(path.join(base, 'vault'));
    const runnerTemp = path.join(base, 'runner-temp');
    await fs.mkdir(runnerTemp, { recursive: true });
    const outputs: Record<string, Record<string, string>> = {};
    const expression = (value: unknown) =>
      String(value).replace(/\$\{\{\s*([^}]+?)\s*\}\}/g, (_m, e: string) => {
        if (e === 'runner.temp') return runnerTemp;
        const step = /^steps\.([\w-]+)\.outputs\.([\w-]+)$/.exec(e);
        if (step && outputs[step[1]!]?.[step[2]!] !== undefined) return outputs[step[1]!]![step[2]!]!;
        throw new Error(`the recipe uses an expression this test does not know: ${e}`);
      });
    let artifact: string | null = null;
    for (const step of workflow.jobs.build.steps as Record<string, any>[]) {
      if (step.run) {
        const env = Object.fromEntries(Object.entries(step.env ?? {}).map(([k, v]) => [k, expression(v)]));
        const res = await run('bash', ['--noprofile', '--norc', '-eo', 'pipefail', '-c', step.run], repo, { RUNNER_TEMP: runnerTemp, GITHUB_WORKSPACE: repo, CI: 'true', ...env });
        expect(res.code, res.out).toBe(0);
        continue;
      }
      const action = String(step.uses).split('@')[0];
      if (action === 'actions/checkout') expect(step.with['fetch-depth']).toBe(0);
      else if (action === 'actions/setup-node') expect(Number(step.with['node-version'])).toBeGreaterThanOrEqual(20);
      else if (action === 'actions/configure-pages') outputs[step.id] = { base_url: 'https://owner.github.io/notes' };
      else if (action === 'actions/upload-pages-artifact') artifact = expression(step.with.path);
      else throw new Error(`the recipe uses an action this test does not know: ${step.uses}`);
    }
    expect(workflow.jobs.deploy.steps.map((s: { uses: string }) => s.uses.split('@')[0])).toEqual(['actions/deploy-pages']);
    expect(artifact).not.toBeNull();
    await expectPublished(artifact!, '/notes');
    // The checkout is the vault: nothing was written into it.
    expect(git(repo, 'status', '--porcelain', '--ignored')).toBe('');
  }, 120_000);

  it('GitLab Pages: the pages job’s script leaves the site in public/', async () => {
    const job = parseYaml(await fs.readFile(path.join(DEPLOY, 'gitlab-pages.yml'), 'utf8')).pages;
    expect(job.variables.GIT_DEPTH).toBe(0);
    expect(job.artifacts.paths).toEqual(['public']);
    const repo = await vaultRepository(path.join(app, 'recipes', 'gitlab', 'vault'));
    const res = await run('bash', ['--noprofile', '--norc', '-e', '-c', (job.script as string[]).join('\n')], repo, {
      CI: 'true',
      CI_PROJECT_DIR: repo,
      CI_PAGES_URL: 'https://owner.gitlab.io/notes',
    });
    expect(res.code, res.out).toBe(0);
    await expectPublished(path.join(repo, 'public'), '/notes');
  }, 120_000);
});

// ── the npm scripts of a clone ───────────────────────────────────────────────────────────

type NpmRun = { code: number | null; stdout: string; stderr: string };

/** `npm …args` in the clone (or `cwd`), with `env` on top of a clean environment and `input` on stdin. */
function npm(args: string[], env: Record<string, string | undefined>, input = '', cwd = PROJECT_DIR): Promise<NpmRun> {
  return new Promise((resolve, reject) => {
    const proc = spawn('npm', args, { cwd, env: childEnv(env) });
    let stdout = '';
    let stderr = '';
    proc.stdout.on('data', (d) => (stdout += d));
    proc.stderr.on('data', (d) => (stderr += d));
    proc.stdin.end(input);
    proc.on('error', reject);
    proc.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** A small vault of the fixture kind: a home note linking a published post, and a private note. */
async function smallVault(dir: string): Promise<string> {
  await writeFiles(dir, {
    'Home.md': '---\npublish: true\n---\nWelcome. See [[First post]].\n',
    'First post.md': '---\npublish: true\ndate: 2026-01-02\n---\nFIRST-POST-BODY\n',
    'Private.md': 'Not published.\n',
  });
  return dir;
}

describe('npm scripts in a clone (README: npm start, npm run build, npm run hash-password)', () => {
  it('npm run build writes the site into SITE_OUT from VAULT, with SITE_URL', async () => {
    const work = await tempDir('vs-npm-build-');
    const vault = await smallVault(path.join(work, 'vault'));
    const out = path.join(work, 'site');
    const res = await npm(['run', 'build'], { VAULT: vault, SERVICE_DATA: path.join(work, 'data'), SITE_OUT: out, SITE_URL: 'https://npm.example' });
    expect(res.code, res.stdout + res.stderr).toBe(0);
    expect(res.stdout).toMatch(/built \d+ pages \(\d+ files\) into .+ in \d+\.\d s/);
    const home = await fs.readFile(path.join(out, 'index.html'), 'utf8');
    expect(home).toContain('href="/First-post"');
    expect(await fs.readFile(path.join(out, 'First-post.html'), 'utf8')).toContain('FIRST-POST-BODY');
    expect(await fs.readFile(path.join(out, 'feed.xml'), 'utf8')).toContain('https://npm.example/First-post');
    expect(await exists(path.join(out, 'Private.html'))).toBe(false);
  }, 180_000);

  it('npm start serves the vault on PORT and stops on SIGTERM', async () => {
    const work = await tempDir('vs-npm-start-');
    const vault = await smallVault(path.join(work, 'vault'));
    // SIGTERM goes to npm alone, as a process manager or `docker stop` sends it: the script
    // `exec`s the server, so no shell sits between them to swallow it. (Its own process
    // group, so a failure can still stop everything it started.)
    const proc = spawn('npm', ['start'], {
      cwd: PROJECT_DIR,
      detached: true,
      env: childEnv({ PORT: '0', HOST: '127.0.0.1', VAULT: vault, SERVICE_DATA: path.join(work, 'data'), ADMIN_PASSWORD: TEST_PASSWORD }),
    });
    let out = '';
    proc.stdout.on('data', (d) => (out += d));
    proc.stderr.on('data', (d) => (out += d));
    // 'close': every process of the group that held its output has ended.
    const closed = new Promise<void>((resolve) => proc.once('close', () => resolve()));
    let url = '';
    try {
      url = (await waitFor(() => /listening on (http:\/\/\S+)/.exec(out)?.[1], 120_000))!;
      expect(out).toContain(`(vault ${vault})`);
      const post = await waitFor(async () => {
        const res = await fetch(`${url}/First-post`);
        return res.status === 200 ? res.text() : null;
      }, 60_000);
      expect(post).toContain('FIRST-POST-BODY');
      // The script starts the server with one malloc arena (shared/malloc-env.ts).
      const server = await serverOfGroup(proc.pid!);
      expect((await fs.readFile(`/proc/${server}/environ`, 'utf8')).split('\0')).toContain('MALLOC_ARENA_MAX=1');
    } catch (err) {
      process.kill(-proc.pid!, 'SIGKILL');
      throw err;
    }
    proc.kill('SIGTERM');
    const stopped = await Promise.race([closed.then(() => true), new Promise<boolean>((r) => setTimeout(() => r(false), 30_000))]);
    if (!stopped) process.kill(-proc.pid!, 'SIGKILL');
    expect(stopped, 'the server stops when npm is sent SIGTERM').toBe(true);
    expect(out).toContain('SIGTERM: stopping');
    expect(out).not.toMatch(/\berror\b/i);
    await expect(fetch(`${url}/First-post`)).rejects.toThrow();
  }, 180_000);

  it('npm run -s hash-password prints only the hash on stdout, even when its pre-script compiles', async () => {
    // A source newer than the clone's compiled command (a pull, an edit): `prehash-password` compiles (and says so) first.
    // In the copy `npm pack` compiled: the compile remakes dist/bundle/, which the other test files start servers from.
    const clone = await packProject();
    const now = new Date();
    await fs.utimes(path.join(clone, 'scripts/cli/run.ts'), now, now);
    const res = await npm(['run', '-s', 'hash-password'], {}, 'a long enough password\n', clone);
    expect(res.code, res.stderr).toBe(0);
    expect(res.stderr).toMatch(/^compiled the server into dist\/ in \d+ ms$/m);
    expect(res.stdout).toMatch(/^scrypt\$\S+\n$/);
  }, 180_000);

  it('the pre-scripts compile nothing (and load no TypeScript) when dist/ is newer than every source', async () => {
    expect((await npm(['run', '-s', 'compile'], {})).code).toBe(0);
    expect((await npm(['run', '-s', 'build:ui'], {})).code).toBe(0);
    const bin = path.join(PROJECT_DIR, 'dist/scripts/cli.js');
    const uiStamp = path.join(PROJECT_DIR, 'admin/ui/dist/.inputs');
    const stamps = async () => [(await fs.stat(bin)).mtimeMs, (await fs.stat(uiStamp)).mtimeMs];
    const before = await stamps();
    // scripts/compile.ts always touches its stamp, and admin/ui/build.ts writes a new dist/ with
    // its own: unchanged times show neither ran. `npm start`'s pre-script runs both checks.
    const res = await new Promise<{ code: number | null; out: string }>((resolve) => {
      const child = spawn(process.execPath, [path.join(PROJECT_DIR, 'scripts/prestart.mjs')], { cwd: PROJECT_DIR });
      let out = '';
      child.stdout.on('data', (d: Buffer) => (out += d.toString()));
      child.stderr.on('data', (d: Buffer) => (out += d.toString()));
      child.on('close', (code) => resolve({ code, out }));
    });
    expect(res.code).toBe(0);
    expect(res.out).toBe('');
    expect(await stamps()).toEqual(before);
  }, 180_000);
});

// The commands run the compiled server as one bundle (scripts/server-bundle.ts): a
// build loads its code from dist/bundle/, not module by module from node_modules, and what it
// writes is what the same build from source writes. A dependency loaded at run time past the
// bundle (a `createRequire` of a package, say) shows up as a file read from node_modules,
// where it costs every start its resolution and compile again.
/** The packages `roots` need, their dependencies and theirs, as installed in the project. */
async function dependencyClosure(roots: string[]): Promise<Set<string>> {
  const seen = new Set<string>();
  const todo = [...roots];
  while (todo.length > 0) {
    const name = todo.pop()!;
    if (seen.has(name)) continue;
    seen.add(name);
    const manifest = JSON.parse(await fs.readFile(path.join(PROJECT_DIR, 'node_modules', name, 'package.json'), 'utf8').catch(() => '{}')) as { dependencies?: Record<string, string> };
    todo.push(...Object.keys(manifest.dependencies ?? {}));
  }
  return seen;
}

describe('the bundled commands (dist/bundle/)', () => {
  const NOTES = 2_000; // BUILD_THREAD_MIN_NOTES: the build takes its build thread
  // Some published, in runs across every folder: the build thread's threshold counts every note, and pages are where a build's time goes.
  const published = (i: number) => Math.floor(i / 20) % 10 === 0;

  it('build the same site as the code run from source, with its build thread, loading their code from the bundle', async () => {
    expect((await npm(['run', '-s', 'compile'], {})).code).toBe(0);
    // Every include comes compiled ahead, from the text a process reads (template-code.ts); a page template is one line Eleventy compiles.
    const codes = JSON.parse(await fs.readFile(TEMPLATE_CODE_FILE, 'utf8')) as CodeTable;
    const includes = ((await fs.readdir(path.join(TEMPLATES_DIR, '_includes'), { recursive: true })) as string[]).filter((n) => n.endsWith('.njk'));
    expect(Object.keys(codes).sort()).toEqual(includes.map((n) => `_includes/${n.split(path.sep).join('/')}`).sort());
    for (const name of includes) {
      const file = path.join(TEMPLATES_DIR, '_includes', name);
      expect(propsFrom(codes, file, await fs.readFile(file, 'utf8')), name).not.toBeNull();
    }
    const work = await tempDir('vs-bundle-');
    const files: Record<string, string> = {};
    for (let i = 0; i < NOTES; i++) {
      files[`Folder ${i % 20}/Note ${i}.md`] = `---\npublish: ${published(i)}\ntags: [topic${i % 9}]\ndate: 2024-01-${String((i % 28) + 1).padStart(2, '0')}\n---\n# Note ${i}\n\nLinks to [[Note ${(i + 1) % NOTES}]], some $x^2$ math and a ==highlight==.\n`;
    }
    await writeFiles(path.join(work, 'vault'), files);
    const env = (name: string) => ({ VAULT: path.join(work, 'vault'), SERVICE_DATA: path.join(work, `${name}-data`), SITE_OUT: path.join(work, name), SITE_URL: 'https://bundle.example' });
    const bundled = await run(process.execPath, [path.join(PROJECT_DIR, 'dist/bundle/cli.js'), 'build'], PROJECT_DIR, { ...env('bundled'), NODE_DEBUG: 'module' });
    expect(bundled.code, bundled.out.slice(-3000)).toBe(0);
    expect(bundled.out).not.toContain('build thread failed');
    const fromSource = await run(process.execPath, ['--import', 'tsx', path.join(PROJECT_DIR, 'scripts/cli.ts'), 'build'], PROJECT_DIR, env('source'));
    expect(fromSource.code, fromSource.out.slice(-3000)).toBe(0);

    // NODE_DEBUG=module names each CommonJS file loaded; the bundle's own chunks are ES modules.
    const loaded = [...bundled.out.matchAll(/load "([^"]+)"/g)].map((m) => m[1]!).filter((f) => f.includes(`${path.sep}node_modules${path.sep}`) && !f.endsWith('.json'));
    const packages = new Set(loaded.map((f) => /node_modules[\\/]((?:@[^\\/]+[\\/])?[^\\/]+)/.exec(f)![1]!));
    // Eleventy renders the pages from its own installed package (with the Nunjucks it shares with our filters): its
    // dependencies load past the bundle, and nothing else does (esprima too: js-yaml 3 once asked for it through an alias of `require`).
    const eleventy = await dependencyClosure(['@11ty/eleventy', '@11ty/eleventy-plugin-rss', 'nunjucks']);
    expect([...packages].filter((name) => !eleventy.has(name))).toEqual([]);
    expect(packages.has('nunjucks')).toBe(true);
    // Loaded once in each thread: the build thread took part (a build without one loads it once).
    expect(loaded.filter((f) => f.endsWith(`${path.sep}node_modules${path.sep}nunjucks${path.sep}index.js`))).toHaveLength(2);
    // Each chunk is ASCII: one literal non-ASCII character has Node decode a whole chunk into a two-byte source.
    const dist = path.join(PROJECT_DIR, 'dist/bundle');
    for (const name of await fs.readdir(dist)) {
      if (name.endsWith('.js')) expect(/[^\x00-\x7f]/.test(await fs.readFile(path.join(dist, name), 'utf8')), name).toBe(false);
    }

    const [a, b] = [treeOf(path.join(work, 'bundled')), treeOf(path.join(work, 'source'))];
    expect([...a.keys()].sort()).toEqual([...b.keys()].sort());
    expect([...a].filter(([name, bytes]) => b.get(name) !== bytes).map(([name]) => name)).toEqual([]);
    for (let i = 0; i < NOTES; i++) expect(a.has(`Folder-${i % 20}/Note-${i}.html`), `Note ${i}`).toBe(published(i));
  }, 300_000);
});
