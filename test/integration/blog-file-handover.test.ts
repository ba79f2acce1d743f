// A page file handed from one output to another in one pass stays: `Baz.md` published after
// the attachment `Baz.html` (which had the file `Baz.html`) was written, then deleted as the
// attachment's leftover, so the live server answered 404 for a note its home page listed
// (a reviewer's find; the static build was right).
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { startServer, waitFor } from '../helpers/server.ts';
import { cleanupTempDirs, tempDir, writeFiles } from '../helpers/tmp.ts';

afterAll(cleanupTempDirs);

const status = async (url: string) => (await fetch(url, { redirect: 'manual' })).status;

it('a note taking the page file of a published attachment is served at once, and stays', async () => {
  const base = await tempDir('vs-handover-');
  const vault = path.join(base, 'vault');
  await writeFiles(vault, {
    'Baz.html': '<p>an attachment</p>\n',
    'Posts/Link baz.md': '---\npublish: true\ntitle: Link baz\ndate: 2026-01-10\n---\n[[Baz.html]]\n',
  });
  const server = await startServer({ vault, data: path.join(base, 'data'), env: { PUBLIC_LAYOUT: 'blog' } });
  try {
    await waitFor(async () => (await status(`${server.url}/Baz.html`)) === 200, 15_000);
    await writeFiles(vault, { 'Baz.md': '---\npublish: true\ntitle: Baz note\ndate: 2026-01-11\n---\nZEBRABAZNOTE\n' });
    // The home page lists it once the pass is live; the article must answer then too.
    await waitFor(async () => (await (await fetch(`${server.url}/`)).text()).includes('Baz note'), 15_000);
    const article = await fetch(`${server.url}/Baz`);
    expect(article.status).toBe(200);
    expect(await article.text()).toContain('ZEBRABAZNOTE');
  } finally {
    await server.stop();
  }
});
