// The newcomer's first run: `npm start` on a fresh folder copies the bundled
// example vault, whose own `.service/settings.json` chooses the blog layout; the rule
// "the vault's copy wins on first contact" makes the home page a blog, not a lone note. An
// empty folder of one's own stays empty and makes an empty site until the first note.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startServer, waitFor } from '../helpers/server.ts';
import { cleanupTempDirs, tempDir } from '../helpers/tmp.ts';

afterAll(cleanupTempDirs);

describe('first run on the example vault', () => {
  it('opens a blog: the example vault chooses the blog layout, its posts are listed, its drafts are not', async () => {
    const base = await tempDir();
    const server = await startServer({ vault: path.join(base, 'vault'), data: path.join(base, 'data'), createVault: false });
    try {
      const home = await waitFor(
        async () => {
          const html = await (await fetch(server.url + '/')).text();
          return html.includes('Keeping a vault safe') ? html : null;
        },
        30_000,
        250,
      );
      expect(home).toContain('class="s-masthead"');
      expect(home).toContain('Notes from the vault');
      expect(home).toContain('Writing in Markdown');
      expect(home).not.toContain('Draft ideas');
      const settings = (await server.admin('GET', '/api/settings')).body;
      expect(settings.publishing.layout).toBe('blog');
      expect(JSON.parse(await fs.readFile(path.join(base, 'data', 'settings.json'), 'utf8')).publishing.layout).toBe('blog');
    } finally {
      await server.stop();
    }
  });

  it('on an empty folder of your own: nothing is copied in, the site answers with no post, and the first note saved with publish: true is on it', async () => {
    const base = await tempDir();
    const vault = path.join(base, 'Notes');
    await fs.mkdir(vault);
    const server = await startServer({ vault, data: path.join(base, 'notes-data'), createVault: false });
    try {
      const empty = await waitFor(async () => {
        const res = await fetch(server.url + '/');
        return res.status === 200 ? res.text() : null;
      }, 30_000);
      expect(empty).not.toContain('Notes from the vault');
      expect((await fs.readdir(vault)).filter((f) => !f.startsWith('.'))).toEqual([]);
      const saved = await server.admin('PUT', '/api/note?path=First%20note.md', { content: '---\npublish: true\n---\nMY-FIRST-NOTE\n' });
      expect(saved.status).toBe(200);
      const home = await waitFor(async () => {
        const html = await (await fetch(server.url + '/')).text();
        return html.includes('href="/First-note"') ? html : null;
      }, 30_000, 100);
      expect(await (await fetch(server.url + '/First-note')).text()).toContain('MY-FIRST-NOTE');
    } finally {
      await server.stop();
    }
  });

  it('a new note in the example vault starts from its default template, as a draft', async () => {
    const text = await fs.readFile(path.join(process.cwd(), 'example-vault', 'Templates', 'Default.md'), 'utf8');
    expect(text).toContain('{{title}}');
    expect(text).not.toMatch(/publish:\s*true/);
  });
});
