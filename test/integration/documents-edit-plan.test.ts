// CONTRACT §12: bases and canvases go through the one dependency graph. A base's page (and a
// note holding a ```base block) renders again when a note it reads changes what it shows; a
// canvas's page when a note it names changes title, address or publication; and only those.
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { childEnv, PROJECT_DIR } from '../helpers/server.ts';
import { fixtureScript } from '../helpers/fixture-process.ts';
import { cleanupTempDirs, tempDir } from '../helpers/tmp.ts';

afterAll(cleanupTempDirs);

type Steps = Record<string, { rendered: string[]; removed: string[]; quick: boolean }>;
let steps: Steps;

beforeAll(async () => {
  const root = await tempDir('vs-document-edits-');
  const out = execFileSync(process.execPath, [fixtureScript('document-edits'), path.join(root, 'vault'), path.join(root, 'out')], {
    cwd: PROJECT_DIR,
    env: childEnv({}),
    encoding: 'utf8',
    timeout: 120_000,
  });
  steps = JSON.parse(out.trim().split('\n').pop()!) as Steps;
}, 150_000);

/** The pages a step rendered, without the site-wide outputs a note's edit touches (feeds, search files, its tag's page). */
const pagesOf = (name: string) => steps[name]!.rendered.filter((a) => !/^\/(?:feed\.xml|sitemap\.xml|search\.json|_s\/|topic\/)/.test(a) && !a.endsWith('/feed.xml'));

describe('CONTRACT §12: an edit re-renders exactly the base and canvas pages that show it', () => {
  it("a property the base sorts on renders the note and the base's page, not the note whose block filters it out", () => {
    expect(pagesOf("edit a book's rating (a property the base sorts on)")).toEqual(['/Library/Books/Emma', '/Library/Reading']);
  });

  it("a text edit (the quick pass) renders the base showing the files' sizes, and no other base", () => {
    expect(steps["edit a book's text"]!.quick).toBe(true);
    expect(pagesOf("edit a book's text")).toEqual(['/Library/Books/Middlemarch', '/Library/Lengths']);
  });

  it("a note no base selects renders alone", () => {
    expect(steps['edit an unrelated note’s text']!.quick).toBe(true);
    expect(pagesOf('edit an unrelated note’s text')).toEqual(['/Loose/Unrelated']);
  });

  // A base shows a note by its file's name, as Obsidian does (`file.name`): a new title changes no base but the one showing the file's size.
  it("a new title renders the canvas naming the note, its folder's page, and the base showing its file's size; the bases naming it by file stay", () => {
    expect(pagesOf('retitle a book the canvas shows')).toEqual(['/Library/Books', '/Library/Books/Dune', '/Library/Lengths', '/Maps/Overview', '/_service/nav', '/folder']);
  });

  it('a ```base block in a callout is read as one: a rating it shows renders the note holding it', () => {
    expect(pagesOf("put the Library's base block in a callout")).toEqual(['/Library/Library']);
    expect(pagesOf('rate a finished book again')).toContain('/Library/Library');
  });

  it('a draft edited renders nothing, though the base and canvas name it', () => {
    expect(steps['edit the draft']!.rendered).toEqual([]);
  });

  it("a draft published renders its page, its folder's page, and every base and canvas that now shows it", () => {
    // The unsupported base's table too: what it cannot show costs only its formula's cells.
    expect(pagesOf('publish the draft')).toEqual(['/Library/Books', '/Library/Books/Hidden-Draft', '/Library/Lengths', '/Library/Library', '/Library/Reading', '/Library/Unsupported', '/Maps/Overview', '/_service/nav', '/folder']);
  });

  it("the canvas file's own edit renders its page and, its words changed, the search index's manifest", () => {
    expect(pagesOf('edit the canvas')).toEqual(['/Maps/Overview']);
    expect(steps['edit the canvas']!.rendered).toContain('/search.json');
    expect(steps['edit the canvas']!.rendered).not.toContain('/sitemap.xml');
  });
});

describe('CONTRACT §12: the sitemap and the search index follow the published bases and canvases', () => {
  it("a canvas edit that keeps its words renders its page alone, the search index as it was", () => {
    expect(steps['move a canvas node (its words the same)']!.rendered).toEqual(['/Maps/Overview']);
  });

  it("a base's renamed view renders its page and the search manifest", () => {
    const { rendered } = steps["rename a base's view"]!;
    expect(pagesOf("rename a base's view")).toEqual(['/Library/Reading']);
    expect(rendered).toContain('/search.json');
    expect(rendered).not.toContain('/sitemap.xml');
  });

  it("a note linking the canvas retitled, or the sentence around its link edited, renders the canvas's page (its Linked from); its other text does not", () => {
    expect(pagesOf('retitle the note linking the canvas')).toEqual(expect.arrayContaining(['/Loose/Map-reader', '/Maps/Overview']));
    expect(pagesOf('edit the sentence around the link to the canvas')).toEqual(['/Loose/Map-reader', '/Maps/Overview']);
    expect(pagesOf("edit the linking note's text alone")).toEqual(['/Loose/Map-reader']);
  });

  it('a base no published note links is no page, in no sitemap, in no index', () => {
    expect(steps['add a base no note links']!.rendered).toEqual([]);
  });

  it('linked from a published note, it is a page, in the sitemap and the index; unlinked, it leaves all three', () => {
    const linked = steps['link the new base from a published note']!;
    expect(linked.rendered).toEqual(expect.arrayContaining(['/Library/Shelf', '/Loose/Unrelated', '/sitemap.xml', '/search.json']));
    const unlinked = steps['unlink the base']!;
    expect(unlinked.removed).toContain('/Library/Shelf');
    expect(unlinked.rendered).toEqual(expect.arrayContaining(['/Loose/Unrelated', '/sitemap.xml', '/search.json']));
  });
});
