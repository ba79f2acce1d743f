// One tag or folder, whichever way its accents are written: `é` as one character (NFC, as most
// keyboards type it) or as `e` and a combining accent (NFD, as a Mac names files and some tools
// paste). A vault synced from a Mac holds both: its tag page `Topics/Résumé.md` is named in NFD
// while the notes say `#résumé` in NFC. They made two topics that read alike at two addresses,
// the tag page labelling neither, and a base's `file.inFolder("Café")` found nothing in the
// folder `Café/` named in NFD.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RowEvaluator } from '../../shared/bases/evaluate.ts';
import { parseExpression } from '../../shared/bases/expression.ts';
import { rowOf } from '../../site/plan/base-view.ts';
import { folderNotesOf, isFolderNote } from '../../shared/model/categories.ts';
import { modelSettings } from '../../shared/model/model-settings.ts';
import { deriveSiteModel, type SiteModel } from '../../shared/model/site-model.ts';
import { VaultStore } from '../../shared/model/vault-store.ts';
import { defaultSettings, siteSettingsOf } from '../../shared/settings.ts';
import { cleanupTempDirs, tempDir, writeFiles } from '../helpers/tmp.ts';

const NFC = 'r\u00e9sum\u00e9';
const NFD = 're\u0301sume\u0301';
const post = (tags: string, body = 'Body.') => `---\npublish: true\ndate: 2024-01-01\n${tags}\n---\n${body}\n`;

let vault: string;
let model: SiteModel;

beforeAll(async () => {
  vault = await tempDir('vs-tag-nfc-');
  await writeFiles(vault, {
    [`Topics/${NFD.replace('r', 'R')}.md`]: '---\ncollection: true\ntitle: All my CVs\n---\nA tag page.\n',
    'Posts/Typed.md': post(`tags: [${NFC}]`),
    'Posts/Pasted.md': post('tags: []', `Inline #${NFD} here.`),
    'Posts/Both.md': post(`tags: [caf\u00e9]`, 'And #cafe\u0301 again, and #se\u0301cret.'),
    'Cafe\u0301/Menu.md': post('tags: []'),
    'Topics/Kitchen.md': '---\ncollection: true\nfolder: "[[Caf\u00e9]]"\n---\nA folder collection.\n',
    'Mode\u0300les/New post.md': post('tags: []', 'A template: {{title}}'),
    // A folder a Mac named, its folder note made on Linux (typed, composed); a note whose alias was pasted decomposed.
    'Bru\u0308ssel/Br\u00fcssel.md': post('title: All of Brussels'),
    'Bru\u0308ssel/Grand Place.md': post('tags: []'),
    'Posts/Aliased.md': post('aliases: [Le Cafe\u0301]'),
    // Text pasted decomposed (from a PDF, a highlight import) in a note a Mac named.
    'Posts/Vie\u0302t.md': post('tags: []', '## U\u0308berblick\n\nDi\u0323nh da\u0323ng the\u0309.'),
  });
  const settings = defaultSettings();
  settings.collections.enabled = true;
  settings.folders = { ...settings.folders, templates: 'Mod\u00e8les' };
  const env = { siteName: null, siteTagline: null, homeNote: null, siteFooter: null, siteLang: null, publicLayout: null };
  const store = new VaultStore({ vaultDir: vault, dataDir: null, useGit: false });
  await store.loadAll();
  model = deriveSiteModel(store.records.values(), modelSettings(siteSettingsOf(settings, env), { excludeTags: ['s\u00e9cret'] }));
});
afterAll(cleanupTempDirs);

describe('a tag or a folder written in NFC and in NFD', () => {
  it('is one topic, at one NFC address, labelled by its tag page named in NFD', () => {
    const topics = model.topics.topics.filter((t) => t.key.normalize('NFC') === NFC);
    expect(topics).toHaveLength(1);
    const [topic] = topics;
    expect(topic!.key).toBe(NFC);
    expect(topic!.address).toBe(`/topic/${NFC}`);
    expect(topic!.label).toBe('All my CVs');
    expect(topic!.posts.map((p) => p.path).sort()).toEqual(['Posts/Pasted.md', 'Posts/Typed.md']);
  });

  it('is one tag of a note that writes it both ways, and an excluded tag in either form stays excluded', () => {
    const both = model.posts.find((p) => p.path === 'Posts/Both.md')!;
    expect(both.tags).toEqual(['caf\u00e9', 's\u00e9cret']);
    expect(model.topics.byKey.has('caf\u00e9')).toBe(true);
    expect(model.topics.topics.some((t) => t.key.normalize('NFC') === 's\u00e9cret')).toBe(false);
  });

  it('gathers both spellings in the collection its tag page declares', () => {
    const collection = model.collections.find((c) => c.tag === 'R\u00e9sum\u00e9');
    expect(collection!.tag).toBe('R\u00e9sum\u00e9');
    expect(collection!.title).toBe('All my CVs');
    expect(collection!.members.map((p) => p.path).sort()).toEqual(['Posts/Pasted.md', 'Posts/Typed.md']);
  });

  it('matches a Bases filter written in the other form', () => {
    const hasTag = (tags: string[], src: string) =>
      new RowEvaluator({ properties: {}, file: { name: 'N.md', basename: 'N', path: 'N.md', folder: '', ext: 'md', ctime: null, mtime: 0, size: 1, tags, links: [] } }, new Map(), 0, null).value(parseExpression(src));
    const typed = model.posts.find((p) => p.path === 'Posts/Typed.md')!;
    expect(hasTag(typed.tags, `file.hasTag("${NFD}")`)).toBe(true);
    expect(hasTag([NFD], `file.hasTag("${NFC}")`)).toBe(true);
  });

  it('a base reads paths composed, as Obsidian gives them: a folder named in NFD is in inFolder("Café")', () => {
    const menu = rowOf(model.posts.find((p) => p.name === 'Menu')!);
    const value = (src: string) => new RowEvaluator(menu, new Map(), 0, null).value(parseExpression(src));
    expect(value('file.inFolder("Caf\u00e9")')).toBe(true);
    expect(value('file.inFolder("Cafe\u0301")')).toBe(true);
    expect(value('file.folder == "Caf\u00e9"')).toBe(true);
    expect(value('file.path')).toBe('Caf\u00e9/Menu.md');
  });

  it('a folder named in NFD is the folder the settings or a collection name in NFC', () => {
    expect(model.collections.find((c) => c.tag === 'Kitchen')!.members.map((p) => p.path)).toEqual(['Cafe\u0301/Menu.md']);
    // The templates folder's notes are templates, not posts, however the folder's name is stored.
    expect(model.posts.map((p) => p.path)).not.toContain('Mode\u0300les/New post.md');
  });

  it('a note\'s text and title from its file name are composed: its heading\'s anchor keeps the accent a typed link gives', () => {
    const note = model.visible.find((n) => n.path === 'Posts/Vie\u0302t.md')!;
    expect(note.title).toBe('Vi\u00eat');
    expect(note.headings.map((h) => [h.text, h.id])).toEqual([['\u00dcberblick', '\u00fcberblick']]);
    expect(note.body).toContain('\u1ecbnh d\u1ea1ng th\u1ebb');
  });

  it('a folder note and an alias are found whichever form their names take', () => {
    const note = model.visible.find((n) => n.path === 'Bru\u0308ssel/Br\u00fcssel.md')!;
    expect(isFolderNote(note)).toBe(true);
    expect(folderNotesOf(model.visible).get('Bru\u0308ssel')).toBe(note);
    expect(model.resolver.resolve('Le Caf\u00e9', null)?.path).toBe('Posts/Aliased.md');
  });
});
