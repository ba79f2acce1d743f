// Every page's file is its address + `.html`, so a folder named `A.html` would have to sit
// where the note `A` has its page: the build refuses what lies in such a folder (a warning
// names each note) instead of crashing on `mkdir` (EEXIST) while it writes the site.
import { spawn } from 'node:child_process';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
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

it("a vault folder named like the site's own (_img, _s) publishes nothing there, and a note showing a picture from it is told", async () => {
  const work = await tempDir('vs-clash-');
  const vault = path.join(work, 'vault');
  await writeFiles(vault, {
    'Post.md': `---\ntitle: Post\npublish: true\ndate: 2026-01-01\n---\nA picture: ![[_img/photo.png]] and another: ![[_s/pic.png]]. ![[shown.png]]\n`,
    '_img/Note.md': post('In the copies folder'),
  });
  // A real picture, so that the one shown beside them has its copies made in the site's `_img/`.
  const bytes = await sharp({ create: { width: 300, height: 200, channels: 3, background: '#888' } }).png().toBuffer();
  await fs.mkdir(path.join(vault, '_s'));
  for (const p of ['_img/photo.png', '_s/pic.png', 'shown.png']) await fs.writeFile(path.join(vault, p), bytes);
  const out = path.join(work, 'site');
  const run = await build(['--vault', vault, '--data', path.join(work, 'data'), '--out', out, '--site-url', 'https://clash.example', '--quiet']);
  expect(run.code, run.out).toBe(0);
  // The site's copies folder holds no vault file: what is served there is never a file that can change.
  await expect(fs.stat(path.join(out, '_img/photo.png'))).rejects.toThrow();
  await expect(fs.stat(path.join(out, '_img/Note.html'))).rejects.toThrow();
  await expect(fs.stat(path.join(out, '_s/pic.png'))).rejects.toThrow();
  expect((await fs.stat(path.join(out, 'shown.png'))).isFile()).toBe(true);
  const copies = await fs.readdir(path.join(out, '_img'));
  expect(copies.length).toBe(1);
  expect(await fs.readdir(path.join(out, '_img', copies[0]!))).toContain('300.webp');
  expect(run.out).toContain('_img/Note.md: is not published: its address /_img/Note belongs to the site');
  expect(run.out).toContain('Post.md: shows _img/photo.png, which is not published: its address /_img/photo.png belongs to the site');
  expect(run.out).toContain('Post.md: shows _s/pic.png, which is not published: its address /_s/pic.png belongs to the site');
  expect(await fs.readFile(path.join(out, 'Post.html'), 'utf8')).not.toContain('_img/photo.png');
}, 60_000);
