// `npm run build` replaces SITE_OUT as a whole, so it refuses (one line, exit 1,
// nothing deleted) a SITE_OUT that is, contains or lies inside the vault or the data
// directory (symlinks resolved), or a non-empty folder it did not write itself.
import { spawn } from 'node:child_process';
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SITE_MARKER } from '../../scripts/site-out-guard.ts';
import { CLI_BUILD, childEnv, PROJECT_DIR } from '../helpers/server.ts';
import { cleanupTempDirs, filesUnder, tempDir, writeFiles } from '../helpers/tmp.ts';

let root: string;
let vault: string;
let data: string;
let vaultFiles: string[];

function build(siteOut: string): Promise<{ status: number | null; stderr: string }> {
  return new Promise((resolve) => {
    const proc = spawn(process.execPath, [...CLI_BUILD], {
      cwd: PROJECT_DIR,
      env: childEnv({ VAULT: vault, SERVICE_DATA: data, SITE_OUT: siteOut, SITE_URL: 'https://static.example' }),
    });
    let stderr = '';
    proc.stderr.on('data', (d) => (stderr += d));
    proc.stdout.resume();
    proc.on('close', (status) => resolve({ status, stderr }));
  });
}

/** The vault and the data directory, byte for byte as they were. */
async function untouched(): Promise<void> {
  expect(await filesUnder(vault)).toEqual(vaultFiles);
  expect(await fs.readFile(path.join(vault, 'Post.md'), 'utf8')).toContain('publish: true');
  expect(await fs.readFile(path.join(data, 'keep.json'), 'utf8')).toBe('{}');
}

beforeAll(async () => {
  root = await tempDir('vs-site-out-');
  vault = path.join(root, 'vault');
  data = path.join(root, 'data');
  await writeFiles(vault, { 'Post.md': '---\npublish: true\n---\nHello.\n', 'Private.md': 'mine\n', 'Sub/Deep.md': 'deep\n' });
  await writeFiles(data, { 'keep.json': '{}' });
  vaultFiles = await filesUnder(vault);
});
afterAll(cleanupTempDirs);

describe('refused, with one clear line, exit 1 and nothing deleted', () => {
  const cases: Array<[string, () => Promise<string>, RegExp]> = [
    ['the vault itself', async () => vault, /is the vault/],
    ['a folder inside the vault', async () => path.join(vault, '_site'), /lies inside the vault/],
    ['a folder that contains the vault', async () => root, /contains the vault/],
    ['a symlink to the vault', async () => {
      const link = path.join(root, 'link-to-vault');
      await fs.symlink(vault, link).catch(() => undefined);
      return link;
    }, /is the vault/],
    ['a path through a symlinked parent into the vault', async () => {
      const link = path.join(root, 'link-parent');
      await fs.symlink(vault, link).catch(() => undefined);
      return path.join(link, 'out');
    }, /lies inside the vault/],
    ['the data directory', async () => data, /is the data directory/],
    ['a folder inside the data directory', async () => path.join(data, 'site'), /lies inside the data directory/],
    ['a non-empty folder the build did not write', async () => {
      const other = path.join(root, 'someone-elses');
      await writeFiles(other, { 'thesis.tex': 'years of work\n' });
      return other;
    }, /did not write/],
    ['a file', async () => {
      const file = path.join(root, 'a-file');
      await fs.writeFile(file, 'x');
      return file;
    }, /not a folder/],
  ];

  it.concurrent.each(cases)('%s', async (_name, where, reason) => {
    const siteOut = await where();
    const before = await filesUnder(siteOut).catch(() => []);
    const res = await build(siteOut);
    expect(res.status).toBe(1);
    const lines = res.stderr.trim().split('\n').filter((l) => !/npm warn/i.test(l));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(reason);
    expect(lines[0]).toMatch(/nothing was written or deleted/);
    await untouched();
    // Nothing deleted (other cases, running at the same time, may add files under a shared parent).
    expect(await filesUnder(siteOut).catch(() => [])).toEqual(expect.arrayContaining(before));
  });
});

describe('allowed', () => {
  it('a new folder, and then again the same folder (its marker says the build wrote it)', async () => {
    const out = path.join(root, 'public');
    const first = await build(out);
    expect(first.status, first.stderr).toBe(0);
    expect((await fs.readdir(out)).sort()).toEqual(expect.arrayContaining([SITE_MARKER, 'index.html', 'Post.html']));
    await fs.writeFile(path.join(out, 'stale.html'), 'old page');
    const again = await build(out);
    expect(again.status, again.stderr).toBe(0);
    expect(await fs.readdir(out)).not.toContain('stale.html');
    await untouched();
  });

  it('an empty folder', async () => {
    const out = path.join(root, 'empty');
    await fs.mkdir(out);
    const res = await build(out);
    expect(res.status, res.stderr).toBe(0);
    expect(await fs.readdir(out)).toContain('index.html');
  });
});

describe('one build at a time, and what one cut short leaves behind', () => {
  it("a build finding another's live lock on SITE_OUT is refused, exit 1, the site as it was", async () => {
    const out = path.join(root, 'locked');
    expect((await build(out)).status).toBe(0);
    const before = await filesUnder(out);
    // Another build (this test's own live process) holds the lock.
    const lock = `${out}.vault-service-lock`;
    await fs.writeFile(lock, JSON.stringify({ pid: process.pid, hostname: os.hostname(), token: 'another-build', since: new Date().toISOString() }) + '\n');
    try {
      const res = await build(out);
      expect(res.status).toBe(1);
      expect(res.stderr).toContain(`another build (pid ${process.pid}) is writing ${out}; nothing was written or deleted`);
      expect(await filesUnder(out)).toEqual(before);
    } finally {
      await fs.rm(lock);
    }
    expect((await build(out)).status).toBe(0);
  });

  it('the work folder and the old site a build cut short left beside SITE_OUT go with the next build', async () => {
    const out = path.join(root, 'cut');
    expect((await build(out)).status).toBe(0);
    // A build SIGTERMed while rendering, and one stopped between its two renames (SITE_OUT gone, the old site aside).
    await writeFiles(root, { 'cut.building-4242/index.html': 'half\n', 'cut.old-4343/index.html': 'old\n' });
    await fs.rm(out, { recursive: true });
    const res = await build(out);
    expect(res.status, res.stderr).toBe(0);
    expect(await fs.readdir(out)).toContain('index.html');
    const beside = (await fs.readdir(root)).filter((n) => n.startsWith('cut'));
    expect(beside).toEqual(['cut']);
  });
});

