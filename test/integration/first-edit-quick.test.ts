// spec D.2 meets the quick pass: a note without a date is dated by its file's time until the
// server's memory of first meetings (created.json) holds it, then by that memory. Both must be
// the same moment, or the first edit of every such note changes its shape and plans the whole
// site again (a file's time has a fraction of a millisecond; the memory keeps whole ones).
import { promises as fs, statSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../shared/config.ts';
import { CreatedStore } from '../../shared/created-store.ts';
import { log } from '../../shared/log.ts';
import { fileTime } from '../../shared/note/dates.ts';
import { SiteBuilder } from '../../site/build/site-builder.ts';
import { cleanupTempDirs, tempDir, writeFiles } from '../helpers/tmp.ts';

afterAll(cleanupTempDirs);
log.setQuiet(true);

describe('the first edit of a note dated by its file', () => {
  it('takes the quick pass once the server remembers the file time it met', async () => {
    const root = await tempDir('vs-first-edit-');
    const vault = path.join(root, 'vault');
    const data = path.join(root, 'data');
    await writeFiles(vault, { 'Notes/Undated.md': '---\npublish: true\n---\nFirst text.\n', 'Notes/Other.md': '---\npublish: true\n---\nLinks [[Undated]].\n' });
    // A copied file's time, with a fraction of a millisecond as file systems keep it.
    const when = 1614852000.1234567;
    for (const name of ['Undated', 'Other']) await fs.utimes(path.join(vault, `Notes/${name}.md`), when, when);
    expect(Number.isInteger(fileTime(statSync(path.join(vault, 'Notes/Undated.md'))))).toBe(true);
    await fs.mkdir(data, { recursive: true });
    const builder = new SiteBuilder({ config: loadConfig({ VAULT: vault, SERVICE_DATA: data, PUBLIC_LAYOUT: 'blog' }, []), outRoot: path.join(root, 'out'), buildThread: false, useGit: false });
    await builder.full();

    // What the server's watcher does on meeting each note (scripts/service.ts).
    const created = new CreatedStore(data, 0);
    for (const name of ['Undated', 'Other']) await created.remember(`Notes/${name}.md`, fileTime(statSync(path.join(vault, `Notes/${name}.md`))));
    await created.flush();

    const file = path.join(vault, 'Notes/Undated.md');
    await fs.writeFile(file, (await fs.readFile(file, 'utf8')).replace('First text.', 'Edited text.'));
    const before = builder.quickPasses;
    await builder.apply(['Notes/Undated.md']);
    expect(builder.quickPasses).toBe(before + 1);
  }, 60_000);
});
