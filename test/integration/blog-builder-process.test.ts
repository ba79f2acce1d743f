// The build runs in its own process (off the request thread). If it dies
// (out of memory, killed), the server keeps serving, starts a new builder with a
// larger heap, and edits reach the site again.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { isBuilderCommand, waitFor } from '../helpers/server.ts';
import { blogForFile, startBlog } from '../fixtures/blog/helpers.ts';
import { BUILD_V8_FLAGS, heapForVault } from '../../site/build/build-heap.ts';

const blog = blogForFile({ env: { PUBLIC_LAYOUT: 'blog' } });

/** Direct children of `pid` whose command line names the site builder. */
async function builderPids(pid: number): Promise<number[]> {
  const out: number[] = [];
  for (const entry of await fs.readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = await fs.readFile(`/proc/${entry}/stat`, 'utf8').catch(() => '');
    const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    const cmd = await fs.readFile(`/proc/${entry}/cmdline`, 'utf8').catch(() => '');
    if (ppid === pid && isBuilderCommand(cmd)) out.push(Number(entry));
  }
  return out;
}

describe('the build process', () => {
  it('is a child process with a capped heap, not a thread of the server', async () => {
    await blog.waitForPage('/', (p) => p.status === 200);
    const [pid] = await builderPids(blog.proc.pid!);
    expect(pid).toBeDefined();
    const args = (await fs.readFile(`/proc/${pid}/cmdline`, 'utf8')).split('\0');
    expect(args).toContain('--max-old-space-size=320');
    // Memory it gives back: a small young generation, a collection after each
    // whole-site pass, and one malloc arena (shared/malloc-env.ts), even when the server
    // itself was started without it.
    expect(args).toEqual(expect.arrayContaining(['--max-semi-space-size=8', '--expose-gc']));
    // Baseline code from the first call, fewer optimizations (build-heap.ts BUILD_V8_FLAGS).
    expect(args).toEqual(expect.arrayContaining([...BUILD_V8_FLAGS]));
    const environ = (await fs.readFile(`/proc/${pid}/environ`, 'utf8')).split('\0');
    expect(environ).toContain('PUBLIC_LAYOUT=blog');
    expect(environ).toContain('MALLOC_ARENA_MAX=1');
  });

  it('when it dies the site keeps serving, a new builder gets twice the heap, and edits go live again', async () => {
    const [pid] = await builderPids(blog.proc.pid!);
    process.kill(pid!, 'SIGKILL');
    expect((await blog.page('/')).status).toBe(200);
    const next = await waitFor(async () => (await builderPids(blog.proc.pid!)).find((p) => p !== pid) ?? null);
    expect(await fs.readFile(`/proc/${next}/cmdline`, 'utf8')).toContain('--max-old-space-size=640');
    await blog.admin('PUT', '/api/note?path=After%20crash.md', { content: '---\ntitle: After crash\npublish: true\n---\nAFTER-CRASH-TEXT\n' });
    await blog.waitForPage('/After-crash', (p) => p.status === 200 && p.text.includes('AFTER-CRASH-TEXT'));
    expect(blog.output()).toMatch(/starting a new one with a 640 MB heap/);
  });
});

describe('addresses beside the admin app', () => {
  it('a note called "administration" is published at /administration, while /admin stays the app', async () => {
    await blog.admin('PUT', '/api/note?path=administration.md', { content: '---\ntitle: Administration\npublish: true\n---\nADMIN-NOTE-TEXT\n' });
    await blog.waitForPage('/administration', (p) => p.status === 200 && p.text.includes('ADMIN-NOTE-TEXT'));
    const app = await fetch(`${blog.url}/admin/`);
    expect(app.status).toBe(200);
    expect(await app.text()).not.toContain('ADMIN-NOTE-TEXT');
  });
});

describe('the build process of a vault of long notes', () => {
  it('gets a heap cap sized by the notes\' text, not by their number alone', async () => {
    // 30 notes of 3 MB: few notes, but 90 MB of text the build holds about three times over.
    const files: Record<string, string> = {};
    for (let i = 0; i < 30; i++) files[`Long ${i}.md`] = `---\ntitle: Long ${i}\npublish: false\n---\n${'word '.repeat(600_000)}\n`;
    const blog = await startBlog({ fixture: false, files });
    try {
      const pid = await waitFor(async () => (await builderPids(blog.proc.pid!))[0] ?? null, 20_000);
      const vault = blog.vault;
      let textBytes = 0;
      for (const name of Object.keys(files)) textBytes += (await fs.stat(path.join(vault, name))).size;
      const cap = heapForVault({ notes: 30, textBytes });
      expect(cap).toBeGreaterThan(400);
      const args = (await fs.readFile(`/proc/${pid}/cmdline`, 'utf8')).split('\0');
      expect(args).toContain(`--max-old-space-size=${cap}`);
    } finally {
      await blog.stop();
    }
  });
});

describe('the heap cap a builder was measured to need', () => {
  it('is remembered in the data directory: the next start gives the builder that cap at once', async () => {
    const blog = await startBlog({ fixture: false, files: { 'A.md': '---\npublish: true\n---\nA\n' }, beforeStart: (vault) => fs.writeFile(path.join(vault, '..', 'data', 'builder-heap.json'), JSON.stringify({ heapMB: 777 })) });
    try {
      const pid = await waitFor(async () => (await builderPids(blog.proc.pid!))[0] ?? null, 20_000);
      expect((await fs.readFile(`/proc/${pid}/cmdline`, 'utf8')).split('\0')).toContain('--max-old-space-size=777');
    } finally {
      await blog.stop();
    }
  });
});
