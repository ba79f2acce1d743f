// Every page's file is its address + `.html`, so a folder named `A.html` would have to sit
// where the note `A` has its page: the build refuses what lies in such a folder (a warning
// names each note) instead of crashing on `mkdir` (EEXIST) while it writes the site.
import { spawn } from 'node:child_process';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { CLI_BUILD, childEnv, PROJECT_DIR } from '../helpers/server.ts';
import { cleanupTempDirs, tempDir, writeFiles } from '../helpers/tmp.ts';

afterAll(cleanupTempDirs);

const post = (title: string) => `---\ntitle: ${title}\npublish: true\ndate: 2026-01-01\n---\nBody of ${title}. ![[A.html/pic.png]]\n`;

function build(args: string[]): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve) => {
    const proc = spawn(process.execPath, [...CLI_BUILD, ...args], { cwd: PROJECT_DIR, env: childEnv({}) });
    let out = '';
    proc.stdout.on('data', (d) => (out += d));
    proc.stderr.on('data', (d) => (out += d));
    proc.on('close', (code) => resolve({ code, out }));
  });
}

it('a note beside a folder named like its page file builds; the notes in that folder are not published, and named', async () => {
  const work = await tempDir('vs-clash-');
  const vault = path.join(work, 'vault');
  await writeFiles(vault, { 'A.md': post('Page A'), 'A.html/B.md': post('Page B') });
  await fs.writeFile(path.join(vault, 'A.html/pic.png'), Buffer.from('89504e470d0a1a0a', 'hex'));
  const out = path.join(work, 'site');
  const run = await build(['--vault', vault, '--data', path.join(work, 'data'), '--out', out, '--site-url', 'https://clash.example', '--quiet']);
  expect(run.code, run.out).toBe(0);
  expect((await fs.stat(path.join(out, 'A.html'))).isFile()).toBe(true);
  expect(await fs.readFile(path.join(out, 'A.html'), 'utf8')).toContain('Body of Page A.');
  expect(run.out).toContain('A.html/B.md');
  expect(run.out).toContain('its address /A.html/B belongs to the site');
  expect(await fs.readFile(path.join(out, 'feed.xml'), 'utf8')).not.toContain('Page B');
}, 60_000);
