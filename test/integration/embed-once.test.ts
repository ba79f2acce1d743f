// Parse once: a note embedded in other notes is parsed as it is read, and that parse's
// rendering makes its embeds too, in a whole-site build and in an edit's pass, whatever its
// size (a parse kept for embeds has a limit; the rendering has none). What the pages show
// is what a fresh build shows.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { loadConfig } from '../../shared/config.ts';
import { log } from '../../shared/log.ts';
import { markdown } from '../../shared/note/md.ts';
import { SiteBuilder } from '../../site/build/site-builder.ts';
import { cleanupTempDirs, tempDir, writeFiles } from '../helpers/tmp.ts';

afterAll(cleanupTempDirs);
log.setQuiet(true);

function builderOf(root: string, vault: string, name: string): SiteBuilder {
  const config = loadConfig({ VAULT: vault, SERVICE_DATA: path.join(root, `data-${name}`), PUBLIC_LAYOUT: 'blog' }, []);
  return new SiteBuilder({ config, outRoot: path.join(root, `out-${name}`), buildThread: false, useGit: false });
}

// Past the kept parses' limit for one note (a quarter of a million characters).
const big = (mark: string) => `---\npublish: true\n---\n# Archive\n\n${mark}\n\n${Array.from({ length: 6000 }, (_, i) => `- Entry ${i} of the archive, see [[Host ${i % 3}]] ^e${i}`).join('\n')}\n`;

describe('an embedded note parsed once', () => {
  it('makes its embeds from its reading in a whole build and in an edit of it, as a fresh build shows them', async () => {
    const root = await tempDir('vs-embed-once-');
    const vault = path.join(root, 'vault');
    const notes: Record<string, string> = { 'Archive.md': big('FIRST-VERSION') };
    for (let i = 0; i < 3; i++) notes[`Host ${i}.md`] = `---\npublish: true\ndate: 2024-02-0${i + 1}\n---\nHost ${i} shows the archive:\n\n![[Archive]]\n`;
    await writeFiles(vault, notes);
    expect(notes['Archive.md']!.length).toBeGreaterThan(250_000);
    for (const name of ['live', 'fresh']) await fs.mkdir(path.join(root, `data-${name}`), { recursive: true });
    const builder = builderOf(root, vault, 'live');
    const parse = vi.spyOn(markdown(), 'parse');
    const archiveParses = () => parse.mock.calls.filter(([src]) => src.includes('Entry 5999')).length;
    try {
      const live = (await builder.full()).dir;
      // Read once; three pages embed it and its own page shows it.
      expect(archiveParses()).toBe(1);
      const host = await fs.readFile(path.join(live, 'Host-0.html'), 'utf8');
      expect(host).toContain('FIRST-VERSION');
      expect(host).toContain('<h1 id="archive"');
      parse.mockClear();
      await fs.writeFile(path.join(vault, 'Archive.md'), big('SECOND-VERSION'));
      const edited = (await builder.apply(['Archive.md']))!;
      expect(archiveParses()).toBe(1);
      expect(edited.upserts.map(([address]) => address)).toContain('/Archive');
      // The notes embedding it wait for the quiet moment (quick-pass.ts), which makes their embeds from the same reading.
      expect(edited.upserts.map(([address]) => address)).not.toContain('/Host-0');
      expect(edited.tidy).toBe(true);
      const quiet = (await builder.tidy())!;
      expect(quiet.upserts.map(([address]) => address)).toEqual(expect.arrayContaining(['/Host-0', '/Host-1', '/Host-2']));
      expect(archiveParses()).toBe(1);
      parse.mockRestore();
      const fresh = (await builderOf(root, vault, 'fresh').full()).dir;
      for (const page of ['Host-0.html', 'Host-2.html', 'Archive.html']) {
        const [a, b] = await Promise.all([fs.readFile(path.join(edited.dir, page), 'utf8'), fs.readFile(path.join(fresh, page), 'utf8')]);
        expect(a, page).toBe(b);
        expect(a).toContain('SECOND-VERSION');
      }
    } finally {
      parse.mockRestore();
    }
  });
});
