// CONTRACT §12: an edit in the garden re-renders only what depends on it. The explorer is
// one shared fragment (`/_service/nav`) every page includes when served: adding a note
// renders that fragment, the full explorer page (`/folder`), its folder's page and the new
// page, never the other notes' pages; a text edit renders no folder page (it shows no text). A page's backlinks
// are part of its signature: it renders again exactly when its list or a sentence changes.
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { childEnv, PROJECT_DIR } from '../helpers/server.ts';
import { fixtureScript } from '../helpers/fixture-process.ts';
import { cleanupTempDirs, tempDir } from '../helpers/tmp.ts';

afterAll(cleanupTempDirs);

type Steps = Record<string, { rendered: string[]; navChanged: boolean }>;
let steps: Steps;

beforeAll(async () => {
  const root = await tempDir('vs-garden-edits-');
  const out = execFileSync(process.execPath, [fixtureScript('garden-edits'), path.join(root, 'vault'), path.join(root, 'out')], {
    cwd: PROJECT_DIR,
    env: childEnv({}),
    encoding: 'utf8',
    timeout: 120_000,
  });
  steps = JSON.parse(out.trim().split('\n').pop()!) as Steps;
}, 150_000);

/** The pages a step rendered, without the site-wide outputs every change touches (feed, sitemap, search files). */
const pagesOf = (name: string) => steps[name]!.rendered.filter((a) => !/^\/(?:feed\.xml|sitemap\.xml|search\.json|_s\/)/.test(a));

describe('CONTRACT §12: an edit re-renders exactly the pages that depend on it', () => {
  it("a new note renders its page, its folder's page (which lists it), the explorer fragment and the full explorer page, no other note", () => {
    expect(pagesOf('add a note')).toEqual(['/Loose', '/Loose/Another', '/_service/nav', '/folder']);
    expect(steps['add a note']!.navChanged).toBe(true);
  });

  it('a text edit renders the note alone: not the explorer, nor the notes linking it (their anchors read its headings, which stayed)', () => {
    expect(pagesOf("edit a note's text")).toEqual(['/Guide/Advanced/Tuning']);
    expect(steps["edit a note's text"]!.navChanged).toBe(false);
  });

  it("a folder note's new title renders the explorer and the pages whose breadcrumbs or links show it (a folder page's among them)", () => {
    expect(pagesOf('retitle a folder note')).toEqual(['/', '/Guide/Advanced', '/Guide/Advanced/Configure', '/Guide/Advanced/Tuning', '/Guide/Guide', '/Guide/Install', '/_service/nav', '/folder']);
  });

  it('a draft edited renders nothing', () => {
    expect(steps['edit a draft']!.rendered).toEqual([]);
  });

  it('a new sentence around a link renders the linked page (its backlink) beside the note', () => {
    // Install lists Configure as a backlink, with the sentence around the link.
    expect(pagesOf('edit the sentence around a link')).toEqual(['/Guide/Advanced/Configure', '/Guide/Install']);
  });

  it('an edit away from the link leaves the linked page as it was', () => {
    expect(pagesOf('edit a linking note away from its link')).toEqual(['/Guide/Advanced/Configure']);
  });

  it('a new heading in a linked note renders the notes linking it too (a link may name a heading)', () => {
    expect(pagesOf('give a linked note a heading')).toEqual(['/Guide/Advanced/Tuning', '/Guide/Install']);
  });

  it("an edit of a note's properties renders its page; a property linking another note is a link, as in Obsidian: that note's page (a new backlink) and the graph drawing both", () => {
    // Install's graph holds Tuning and API: the new link is a line between them.
    expect(pagesOf("edit a note's properties")).toEqual(['/Guide/Advanced/Tuning', '/Guide/Install', '/Reference/API']);
  });

  it("a draft published renders its page, its folder's new page, the explorer and the page it links to (a new backlink)", () => {
    expect(pagesOf('publish a draft that links a note')).toEqual(['/Drafts', '/Drafts/Secret', '/Guide/Install', '/_service/nav', '/folder']);
  });
});
