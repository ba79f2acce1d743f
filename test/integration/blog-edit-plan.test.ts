// An edit costs what it touches. An edit that leaves a note's shape as it was
// (its text only) swaps the newer record into the live model and re-plans only the pages
// reading that note; anything else plans the whole site. Either way the live plan must be
// the plan a fresh build makes, after every edit, its warnings the same, and the files the same files.
import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { generateRealisticVault } from '../../scripts/bench/_realistic-vault.ts';
import { generateVault } from '../../scripts/bench/_vault.ts';
import { childEnv, PROJECT_DIR } from '../helpers/server.ts';
import { fixtureScript } from '../helpers/fixture-process.ts';
import { cleanupTempDirs, tempDir, writeFiles } from '../helpers/tmp.ts';

afterAll(cleanupTempDirs);

interface Report {
  pages: number;
  /** The most warnings of links into headings and blocks after an edit. */
  anchorWarnings: number;
  quickPasses: number;
  parsesKept: number;
  kinds: Record<string, number>;
  mismatches: string[];
  differentFiles: string[];
  /** The topic pages (no feeds) the live plan held after each edit. */
  topicPages: string[][];
  /** The garden's folder pages after each edit. */
  folderPages: string[][];
}

/** A generated vault (links, embeds of sections, block ids, tags) plus a home note, twins, a collection, a static page and aliases. */
async function vault(): Promise<string> {
  const dir = await tempDir('vs-edit-plan-');
  // Enough notes for paged lists and topics; more only made each plan longer.
  await generateVault(dir, 120);
  await writeFiles(dir, {
    'Home.md': '---\npublish: true\ntitle: Home\n---\n\nWelcome to the home note. See [[Note 3#Section]].\n\n![[Note 1]]\n',
    'Topics/topic1.md': '---\ncollection: true\ntitle: Topic one\ndescription: The first topic\n---\n',
    'Twins/Hello.md': '---\npublish: true\ntitle: Hello\ndate: 2021-05-01\ntwin: "[[مرحبا]]"\ntags: [twins]\n---\n\nAn English face, linking to [[Note 2]].\n',
    'Twins/مرحبا.md': '---\npublish: true\ntitle: مرحبا\ndate: 2021-05-01\nlang: ar\ntags: [twins]\n---\n\nوجه عربي للمقالة.\n',
    'About.md': '---\npublish: true\npage: true\naliases: [Colophon]\n---\n\nAbout this site. Embeds ![[Note 10#^b10]].\n',
    'Linker.md': '---\npublish: true\ndate: 2022-01-01\n---\n\nLinks to [[Colophon]], [[Note 5#Section]], [[Hub/Note 3]] and embeds ![[Home]].\n',
    // A second Note 3, showing its backlinks: links to the other Note 3 are not its own.
    'Backlinks.base': 'filters: file.hasLink(this.file)\nviews:\n  - type: list\n',
    'Hub/Note 3.md': '---\npublish: true\ntitle: Hub three\ndate: 2022-02-01\n---\n\nThe other Note 3, and the notes linking here:\n\n![[Backlinks.base]]\n',
  });
  return dir;
}

/** A round of the fixture's edits makes every text edit twice and every reshaping edit once, in a seeded order. */
const TEXT_KINDS = ['firstParagraph', 'heading', 'appended', 'embeddedSection'];
const RESHAPING_KINDS = ['retitled', 'publishToggled', 'inlineTag'];
const ROUNDS = 2;
const EDITS = ROUNDS * (2 * TEXT_KINDS.length + RESHAPING_KINDS.length);

/** Every kind of edit was made; most edits change a note's text only, and each of those is applied by the quick pass. */
function expectEditsMet(report: Report): void {
  for (const kind of TEXT_KINDS) expect(report.kinds[kind], kind).toBe(2 * ROUNDS);
  for (const kind of RESHAPING_KINDS) expect(report.kinds[kind], kind).toBe(ROUNDS);
  const textEdits = TEXT_KINDS.reduce((sum, kind) => sum + (report.kinds[kind] ?? 0), 0);
  expect(report.quickPasses).toBeGreaterThan(textEdits / 2);
  expect(report.parsesKept).toBe(0);
}

/** `data`: files the data directory holds before the first build (name → text). `edits`: a count of seeded edits, or a JSON file of scripted ones. */
function run(dir: string, settings: object, edits: number | string, seed: number, data: Record<string, string> = {}): Report {
  const root = path.join(dir, '..', `${path.basename(dir)}-out-${seed}`);
  const settingsFile = path.join(root + '.json');
  mkdirSync(path.join(root, 'data'), { recursive: true });
  for (const [name, text] of Object.entries(data)) writeFileSync(path.join(root, 'data', name), text);
  writeFileSync(settingsFile, JSON.stringify(settings));
  const out = execFileSync(process.execPath, [fixtureScript('edit-sequence'), dir, root, settingsFile, String(edits), String(seed)], {
    cwd: PROJECT_DIR,
    env: childEnv({}),
    encoding: 'utf8',
    timeout: 240_000,
  });
  rmSync(root, { recursive: true, force: true });
  rmSync(settingsFile, { force: true });
  return JSON.parse(out.trim().split('\n').pop()!) as Report;
}

describe('after each edit the live plan is the plan a fresh build makes (issue 12)', () => {
  const layouts: [string, object][] = [
    ['a dashboard with collections', { publishing: { layout: 'blog' }, home: { mode: 'dashboard' }, collections: { enabled: true, showOnHome: true, showInNav: true } }],
    ['a note home page, language filter on', { publishing: { layout: 'blog', languageFilter: true }, home: { mode: 'note' }, homeNote: 'Home' }],
    ['the default layout, folders as categories', { publishing: { layout: 'default' }, homeNote: 'Home', collections: { enabled: true, source: 'folders' } }],
  ];
  for (const [name, settings] of layouts) {
    it(`${name}: every signature and every file agree; text edits take the quick pass`, async () => {
      const report = run(await vault(), settings, EDITS, 7 + name.length);
      expect(report.mismatches).toEqual([]);
      expect(report.differentFiles).toEqual([]);
      expect(report.pages).toBeGreaterThan(100);
      // A heading renamed under an embed: the warnings followed it (compared with a fresh plan's after each edit).
      expect(report.anchorWarnings).toBeGreaterThan(0);
      expectEditsMet(report);
    }, 300_000);
  }
});

describe('the same on a vault shaped like real ones', () => {
  it('200 realistic notes (an index note, a 300 KB note, HTML, aliases, block ids, undated notes): every signature and every file agree', async () => {
    const dir = await tempDir('vs-edit-plan-real-');
    const vault = await generateRealisticVault(dir, 200, 3);
    // The creation times a server remembers on meeting the notes: an edit leaves an undated note's date as it was.
    const created = Object.fromEntries(vault.notes.map((n) => [n.path, Math.round(n.mtimeMs)]));
    const report = run(dir, { publishing: { layout: 'blog' } }, EDITS, 11, { 'created.json': JSON.stringify(created) });
    expect(report.mismatches).toEqual([]);
    expect(report.differentFiles).toEqual([]);
    expect(report.pages).toBeGreaterThan(250);
    expectEditsMet(report);
  }, 300_000);
});

describe('the topics of a nested tag and of the tags it nests in come and go as a fresh build makes them', () => {
  const post = (tags: string, body: string, publish = true) => `---\npublish: ${publish}\ndate: 2023-03-01\ntags: [${tags}]\n---\n\n${body}\n`;
  const steps: [string, string, string | null][] = [
    ['addNested', 'Nested/Deep.md', post('fresh/nested/deep', 'The first words under a nested tag.')],
    ['addSibling', 'Nested/Side.md', post('', 'A sibling, tagged inline #fresh/side here.')],
    ['textOnly', 'Nested/Deep.md', post('fresh/nested/deep', 'Other words under the nested tag.')],
    ['untagged', 'Nested/Side.md', post('', 'The sibling, untagged now.')],
    ['unpublished', 'Nested/Deep.md', post('fresh/nested/deep', 'Other words under the nested tag.', false)],
    ['republished', 'Nested/Deep.md', post('fresh/nested/deep', 'Other words under the nested tag.')],
    ['deleted', 'Nested/Deep.md', null],
  ];
  const fresh = (pages: string[]) => pages.filter((a) => a.startsWith('/topic/fresh'));

  it('adding the last #a/b/c note makes /topic/a and /topic/a/b, an edit of its text reaches them, and removing or unpublishing it takes them away', async () => {
    const dir = await vault();
    // Outside the vault, in a folder of its own that the file's cleanup removes.
    const script = path.join(await tempDir('vs-edit-script-'), 'steps.json');
    writeFileSync(script, JSON.stringify(steps));
    const report = run(dir, { publishing: { layout: 'blog' } }, script, 3);
    expect(report.mismatches).toEqual([]);
    expect(report.differentFiles).toEqual([]);
    const deep = ['/topic/fresh', '/topic/fresh/nested', '/topic/fresh/nested/deep'];
    expect(report.topicPages.map(fresh)).toEqual([deep, [...deep, '/topic/fresh/side'].sort(), [...deep, '/topic/fresh/side'].sort(), deep, [], deep, []]);
    // The text edit kept the note's shape: the quick pass swapped it into every topic listing it.
    expect(report.quickPasses).toBeGreaterThan(0);
  }, 300_000);
});

describe("the garden's folder pages come and go as a fresh build makes them", () => {
  const note = (body: string, publish = true) => `---\npublish: ${publish}\n---\n\n${body}\n`;
  const steps: [string, string, string | null][] = [
    ['firstNote', 'Grove/Saplings/Oak.md', note('The first note of a new folder, two deep.')],
    ['secondNote', 'Grove/Birch.md', note('A second note, one folder up.')],
    ['textOnly', 'Grove/Saplings/Oak.md', note('Other words in the oak.')],
    ['folderNote', 'Grove/Saplings/index.md', note('The saplings folder note.')],
    ['folderNoteGone', 'Grove/Saplings/index.md', null],
    ['unpublished', 'Grove/Saplings/Oak.md', note('Other words in the oak.', false)],
    ['lastUnpublished', 'Grove/Birch.md', note('A second note, one folder up.', false)],
    ['republished', 'Grove/Saplings/Oak.md', note('Other words in the oak.')],
    ['deleted', 'Grove/Saplings/Oak.md', null],
  ];
  const grove = (pages: string[]) => pages.filter((a) => a.startsWith('/Grove'));

  it('publishing the first note of a folder makes its pages, a folder note takes its place, unpublishing or deleting the last takes them away', async () => {
    const dir = await vault();
    // Outside the vault, in a folder of its own that the file's cleanup removes.
    const script = path.join(await tempDir('vs-edit-script-'), 'folders.json');
    writeFileSync(script, JSON.stringify(steps));
    const report = run(dir, { publishing: { layout: 'default' }, homeNote: 'Home' }, script, 5);
    expect(report.mismatches).toEqual([]);
    expect(report.differentFiles).toEqual([]);
    const both = ['/Grove', '/Grove/Saplings'];
    expect(report.folderPages.map(grove)).toEqual([both, both, both, ['/Grove'], both, ['/Grove'], [], both, []]);
    // The text edit kept the note's shape: the quick pass, and no folder page read its text.
    expect(report.quickPasses).toBeGreaterThan(0);
  }, 300_000);
});
