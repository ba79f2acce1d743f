// A full build's search base is made while the site is planned (site/plan/search-job.ts),
// from the searchable notes as known before the plan: they must be the very notes, in the
// very order, the plan's model gives the search index (search-docs.ts searchableNotes), or
// the index would carry a needless delta, or miss a note.
import { describe, expect, it } from 'vitest';
import { modelSettings } from '../../shared/model/model-settings.ts';
import { buildRecord, type NoteRecord } from '../../shared/model/note-record.ts';
import { deriveSiteModel } from '../../shared/model/site-model.ts';
import { defaultSettings, siteSettingsOf } from '../../shared/settings.ts';
import type { VaultPath } from '../../shared/vault-path.ts';
import { searchableBeforePlan } from '../../site/plan/search-docs.ts';

const env = { siteName: null, siteTagline: null, homeNote: null, siteFooter: null, siteLang: null, publicLayout: null };
// The default templates folder is Templates/.
const model = modelSettings(siteSettingsOf(defaultSettings(), env), { excludeTags: [] });

const note = (path: string, front: string, body = 'Some text.') =>
  buildRecord({ path: path as VaultPath, text: `---\n${front}\n---\n${body}\n`, createdMs: null, fileMs: 0 });

describe('the searchable notes known before the plan', () => {
  it('are the model\'s: published, not templates, not hidden, each address once, in path order', () => {
    const records: NoteRecord[] = [
      note('b/Second.md', 'publish: true'),
      note('a/First.md', 'publish: true'),
      note('Draft.md', 'publish: false'),
      note('Templates/Daily.md', 'publish: true'),
      note('Hidden.md', 'publish: true\nhidden: true'),
      // Two notes claiming one address: the first by path keeps it.
      note('x/One.md', 'publish: true\npermalink: /same'),
      note('y/Two.md', 'publish: true\npermalink: /same'),
      // An address that belongs to the site itself.
      note('Feed.md', 'publish: true\npermalink: /feed.xml'),
      note('Zürich.md', 'publish: true'),
      note('zebra.md', 'publish: true'),
      note('Bad frontmatter.md', 'publish: [true'),
    ];
    const derived = deriveSiteModel(records, model);
    const fromModel = derived.all.filter((n) => !n.hidden && derived.isVisible(n)).map((n) => n.path);
    const before = searchableBeforePlan(records, model).map((n) => n.path);
    expect(before).toEqual(fromModel);
    expect(before).toEqual(expect.arrayContaining(['a/First.md', 'b/Second.md', 'x/One.md']));
    for (const gone of ['Draft.md', 'Templates/Daily.md', 'Hidden.md', 'y/Two.md']) expect(before).not.toContain(gone);
  });
});

describe('the visibility worked out before the plan', () => {
  const vault = (): NoteRecord[] => [
    note('b/Second.md', 'publish: true', 'Links to [[Missing]].'),
    note('a/First.md', 'publish: true'),
    note('x/One.md', 'publish: true\npermalink: /same'),
    note('y/Two.md', 'publish: true\npermalink: /same'),
    note('Bad frontmatter.md', 'publish: [true'),
  ];
  // What the plan's derive gives with no early visibility to take.
  const plain = (records: NoteRecord[]) => {
    const m = deriveSiteModel(records, model);
    return { visible: m.visible.map((n) => n.path), all: m.all.map((n) => n.path), warnings: m.warnings };
  };

  it('is taken by the derive of the same records, once: the same model, no warning twice', () => {
    const records = vault();
    const expected = plain(records);
    searchableBeforePlan(records, model);
    expect(plain(records)).toEqual(expected);
    // Taken once: a second derive works it out again and adds nothing to the first's warnings.
    expect(plain(records)).toEqual(expected);
    expect(expected.warnings.map((w) => w.kind)).toEqual(expect.arrayContaining(['duplicate-address']));
  });

  it('is not taken when a record changed in between, or the templates folder is another', () => {
    const records = vault();
    searchableBeforePlan(records, model);
    // b/Second.md saved unpublished: a new record in its place.
    const changed = records.map((r) => (r.path === 'b/Second.md' ? note('b/Second.md', 'publish: false') : r));
    expect(plain(changed).visible).not.toContain('b/Second.md');
    searchableBeforePlan(records, model);
    const other = deriveSiteModel(records, { ...model, templatesFolder: 'a' });
    expect(other.visible.map((n) => n.path)).not.toContain('a/First.md');
  });
});
