// The commands run the compiled server as one bundle (scripts/server-bundle.ts, issue 12):
// a build loads its code from dist/bundle/, not module by module from node_modules, and
// what it writes is what the same build from source writes. A dependency loaded at run
// time past the bundle (a `createRequire` of a package, say) shows up here as a file read
// from node_modules, where it costs every start its resolution and compile again.
import { spawn } from 'node:child_process';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { childEnv, PROJECT_DIR } from '../helpers/server.ts';
import { cleanupTempDirs, tempDir, writeFiles } from '../helpers/tmp.ts';

interface Run {
  code: number | null;
  out: string;
}

function node(args: string[], env: Record<string, string>): Promise<Run> {
  return new Promise((resolve, reject) => {
    const proc = spawn(process.execPath, args, { cwd: PROJECT_DIR, env: childEnv(env) });
    let out = '';
    proc.stdout.on('data', (d) => (out += d));
    proc.stderr.on('data', (d) => (out += d));
    proc.on('error', reject);
    proc.on('exit', (code) => resolve({ code, out }));
  });
}

/** Packages a bundled build may still load from node_modules: each asks for it past any bundler, by design. */
const LOADED_AT_RUN_TIME = new Set([
  'picomatch', // fdir (Eleventy's file globbing) requires it through its own createRequire
  'esprima', // js-yaml 3 (gray-matter) requires it through an alias of `require`, for a type we never use
]);

/** Every file under `dir` with its bytes. */
async function tree(dir: string): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (const name of (await fs.readdir(dir, { recursive: true })) as string[]) {
    const file = path.join(dir, name);
    if ((await fs.stat(file)).isFile()) out.set(name, await fs.readFile(file, 'base64'));
  }
  return out;
}

let vault: string;
const NOTES = 2_100; // past PARTNER_MIN_NOTES: the build takes its partner thread

describe('the bundled commands (dist/bundle/)', () => {
  beforeAll(async () => {
    const compiled = await new Promise<Run>((resolve) => {
      const proc = spawn('npm', ['run', '-s', 'compile'], { cwd: PROJECT_DIR, env: childEnv({}) });
      let out = '';
      proc.stderr.on('data', (d) => (out += d));
      proc.on('exit', (code) => resolve({ code, out }));
    });
    expect(compiled.code, compiled.out).toBe(0);
    vault = await tempDir('vs-bundle-vault-');
    const files: Record<string, string> = {};
    for (let i = 0; i < NOTES; i++) {
      files[`Folder ${i % 20}/Note ${i}.md`] = `---\npublish: true\ntags: [topic${i % 9}]\ndate: 2024-01-${String((i % 28) + 1).padStart(2, '0')}\n---\n# Note ${i}\n\nLinks to [[Note ${(i + 1) % NOTES}]], some $x^2$ math and a ==highlight==.\n`;
    }
    await writeFiles(vault, files);
  }, 300_000);
  afterAll(cleanupTempDirs);

  it('builds the same site as the code run from source, with its partner, loading its code from the bundle', async () => {
    const work = await tempDir('vs-bundle-out-');
    const env = (name: string) => ({ VAULT: vault, SERVICE_DATA: path.join(work, `${name}-data`), SITE_OUT: path.join(work, name), SITE_URL: 'https://bundle.example' });
    const bundled = await node([path.join(PROJECT_DIR, 'dist/bundle/cli.js'), 'build'], { ...env('bundled'), NODE_DEBUG: 'module' });
    expect(bundled.code, bundled.out.slice(-3000)).toBe(0);
    expect(bundled.out).not.toContain('partner failed');
    const fromSource = await node(['--import', 'tsx', path.join(PROJECT_DIR, 'scripts/cli.ts'), 'build'], env('source'));
    expect(fromSource.code, fromSource.out.slice(-3000)).toBe(0);

    // NODE_DEBUG=module names each CommonJS file loaded; the bundle's own chunks are ES modules.
    const loaded = [...bundled.out.matchAll(/load "([^"]+)"/g)].map((m) => m[1]!).filter((f) => f.includes(`${path.sep}node_modules${path.sep}`) && !f.endsWith('.json'));
    const packages = new Set(loaded.map((f) => /node_modules[\\/]((?:@[^\\/]+[\\/])?[^\\/]+)/.exec(f)![1]!));
    expect([...packages].filter((p) => !LOADED_AT_RUN_TIME.has(p))).toEqual([]);

    const [a, b] = [await tree(path.join(work, 'bundled')), await tree(path.join(work, 'source'))];
    expect([...a.keys()].sort()).toEqual([...b.keys()].sort());
    expect([...a].filter(([name, bytes]) => b.get(name) !== bytes).map(([name]) => name)).toEqual([]);
    expect(a.size).toBeGreaterThan(NOTES);
  }, 300_000);
});
