// An attachment replaced by a file of the same size with its modification time kept
// (`cp -p`, `rsync -a`, a sync tool) is published again: the copy's signature holds the
// file's ctime, which no program sets back. It was never published again, and a restart
// kept the old copy too (a reviewer's find).
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startServer, waitFor, type TestServer } from '../helpers/server.ts';
import { cleanupTempDirs, tempDir, writeFiles } from '../helpers/tmp.ts';

afterAll(cleanupTempDirs);

const bytes = (fill: string) => Buffer.from(fill.repeat(2000), 'latin1');
async function served(server: TestServer): Promise<Buffer> {
  const res = await fetch(`${server.url}/Assets/pic%20one.png`);
  return Buffer.from(await res.arrayBuffer());
}

/** Writes `content` over `file` and sets its times back to what they were: size and mtime unchanged. */
async function replaceKeepingTimes(file: string, content: Buffer): Promise<void> {
  const before = await fs.stat(file);
  await fs.writeFile(file, content);
  // Whole seconds, which utimes sets exactly (the file was given them when it was made).
  await fs.utimes(file, before.mtimeMs / 1000, before.mtimeMs / 1000);
  const after = await fs.stat(file);
  expect([after.size, after.mtimeMs]).toEqual([before.size, before.mtimeMs]);
}

describe('an attachment replaced with its size and time kept', () => {
  it('is published again, by the running server and by one started after', async () => {
    const base = await tempDir('vs-att-');
    const vault = path.join(base, 'vault');
    const data = path.join(base, 'data');
    await writeFiles(vault, { 'Pics.md': '---\ntitle: Pics\npublish: true\ndate: 2026-01-10\n---\n![[pic one.png]]\n' });
    await fs.mkdir(path.join(vault, 'Assets'));
    const file = path.join(vault, 'Assets/pic one.png');
    await fs.writeFile(file, bytes('a'));
    await fs.utimes(file, 1_700_000_000, 1_700_000_000);
    const env = { PUBLIC_LAYOUT: 'blog', SETTINGS_MIRROR_SECONDS: '3600' };
    let server = await startServer({ vault, data, env });
    try {
      await waitFor(async () => (await served(server)).equals(bytes('a')), 15_000);
      await replaceKeepingTimes(file, bytes('b'));
      await waitFor(async () => (await served(server)).equals(bytes('b')), 15_000);
      await server.stop();
      // While the server is down, once more: the restarted server must not keep its copy.
      await replaceKeepingTimes(file, bytes('c'));
      server = await startServer({ vault, data, env });
      await waitFor(async () => (await served(server)).equals(bytes('c')), 15_000);
    } finally {
      await server.stop();
    }
  });
});
