// The admin app answers /api/… and /admin as written. A documentation vault's `API/` folder
// (or an `Admin/` one) was kept off the site as if it were the admin's: every note in it
// unpublished, with a warning each. So were `Topic/`, `Folder/` and `Page/` folders, though
// CONTRACT §6's own example is `Folder/My Note.md` at `/Folder/My-Note`: the folders the site
// writes pages into are its own as it spells them (topic/, folder/, page/), and a page whose
// file differs from another's only in case is said, since a disk that ignores case keeps one.
import { afterAll, describe, expect, it } from 'vitest';
import { isReservedAddress, type Address } from '../../shared/model/addresses.ts';
import { log } from '../../shared/log.ts';
import { blogForFile } from '../fixtures/blog/helpers.ts';
import { buildVault } from '../helpers/site-build.ts';
import { cleanupTempDirs } from '../helpers/tmp.ts';

afterAll(cleanupTempDirs);

const note = (body: string) => `---\npublish: true\ndate: 2024-03-01\n---\n${body}\n`;
const blog = blogForFile({
  fixture: false,
  files: {
    'API/Reference.md': note('REFERENCE-TEXT'),
    'Admin/Guide.md': note('GUIDE-TEXT'),
    'Topic/Note.md': note('TOPIC-TEXT'),
    'Folder/My Note.md': note('CONTRACT-EXAMPLE'),
  },
});

describe('a vault folder named API or Admin', () => {
  it('is published at its own address, while /api/… and /admin still belong to the admin app', async () => {
    expect((await blog.page('/API/Reference')).text).toContain('REFERENCE-TEXT');
    expect((await blog.page('/Admin/Guide')).text).toContain('GUIDE-TEXT');
    expect((await blog.api('GET', '/api/posts')).body.map((p: { url: string }) => p.url).sort()).toEqual(['/API/Reference', '/Admin/Guide', '/Folder/My-Note', '/Topic/Note']);
    expect((await blog.page('/admin/')).text).not.toContain('GUIDE-TEXT');
  });

  it('and so are folders named as the ones the site writes pages into, in another case (CONTRACT §6: Folder/My Note.md is /Folder/My-Note)', async () => {
    expect((await blog.page('/Topic/Note')).text).toContain('TOPIC-TEXT');
    expect((await blog.page('/Folder/My-Note')).text).toContain('CONTRACT-EXAMPLE');
    for (const address of ['/api/x', '/admin', '/topic/x', '/folder/x', '/page/2', '/_s/x', '/_S/x', '/Search']) expect(isReservedAddress(address as Address), address).toBe(true);
    for (const address of ['/API/x', '/Admin', '/Api/x', '/Topic/x', '/FOLDER/x', '/Page/2']) expect(isReservedAddress(address as Address), address).toBe(false);
  });
});

describe('pages whose files differ only in case', () => {
  it('are each served, and a warning names the note: a copy of the site on a disk that ignores case keeps one file', async () => {
    log.setQuiet(true);
    const built = await buildVault('vs-case-clash-', {
      'Folder/My Note.md': note('IN-FOLDER'),
      'Notes/Plan.md': note('LOWER'),
      'Notes/PLAN.md': note('UPPER'),
      'Other.md': note('NO-CLASH'),
      // The garden layout: each folder has a page, and the explorer's is /folder.
    }, { env: { PUBLIC_LAYOUT: 'default' } });
    const clashes = built.builder.warnings().filter((w) => w.variant === 'case');
    expect(clashes.map((w) => [w.note, w.address, w.target]).sort()).toEqual([
      // The vault's Folder/ page and the site's /folder (the whole explorer).
      ['Folder/My Note.md', '/Folder', '/folder'],
      ['Notes/Plan.md', '/Notes/Plan', '/Notes/PLAN'],
    ]);
    expect(await built.body('Notes/PLAN')).toContain('UPPER');
    expect(await built.body('Notes/Plan')).toContain('LOWER');
  });
});
