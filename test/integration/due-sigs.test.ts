// A server's whole build renders every page whatever its signature, so it answers before
// making them (DueSigs): the build process makes them right after the answer. Made after
// an edit instead, an old page's signature would read the edited note (the quick pass swaps
// records into the live model) and match the new one, and the page embedding the note's old
// text would stay as it was. Every later pass makes the owed signatures first.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../shared/config.ts';
import { log } from '../../shared/log.ts';
import { SiteBuilder } from '../../site/build/site-builder.ts';
import { cleanupTempDirs, tempDir, writeFiles } from '../helpers/tmp.ts';

afterAll(cleanupTempDirs);
log.setQuiet(true);

describe("a whole build's signatures", () => {
  it('are owed by its answer, and made before an edit right after it, which re-renders the page embedding the old text', async () => {
    const root = await tempDir('vs-due-sigs-');
    const vault = path.join(root, 'vault');
    await writeFiles(vault, {
      'Notes/Target.md': '---\npublish: true\ndate: 2024-01-02\n---\nThe old words.\n',
      'Notes/Embedding.md': '---\npublish: true\ndate: 2024-01-01\n---\nAs it says:\n\n![[Target]]\n',
    });
    const builder = new SiteBuilder({ config: loadConfig({ VAULT: vault, SERVICE_DATA: path.join(root, 'data'), PUBLIC_LAYOUT: 'blog' }, []), outRoot: path.join(root, 'out'), buildThread: false, useGit: false });
    const built = await builder.full();
    expect(builder.dueSigs.owed).toBeGreaterThan(0);

    // The text changes, the note's shape (title, address, date, links) does not: the quick pass.
    const target = path.join(vault, 'Notes/Target.md');
    await fs.writeFile(target, (await fs.readFile(target, 'utf8')).replace('The old words', 'The new words'));
    const passes = builder.quickPasses;
    const result = await builder.apply(['Notes/Target.md']);
    expect(builder.quickPasses).toBe(passes + 1);
    // The pass made the build's owed signatures first; it owes its own (the edited note's article, rendered without one).
    builder.dueSigs.settle();
    // The page embedding it waits for the quiet moment the server gives it after the answer (quick-pass.ts).
    expect(result!.tidy).toBe(true);
    while ((await builder.tidy()) !== null);
    const embedding = await fs.readFile(path.join(result!.dir, 'Notes/Embedding.html'), 'utf8');
    expect(embedding).toContain('The new words');
    expect(embedding).not.toContain('The old words');
    expect(built.rendered).toBeGreaterThan(2);
  }, 60_000);
});
