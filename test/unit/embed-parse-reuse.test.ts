// An embedded note is parsed once and its parse serves every page embedding it
// (markdown.ts embedParse): what one page changes for itself (free heading ids, dropped
// block ids, footnote ids) never reaches another page's copy.
import { describe, expect, it, vi } from 'vitest';
import { analyzeNote } from '../../shared/note/analyze.ts';
import { embedParsesKept, forgetEmbedParses, keepReadParses, renderEmbedHtml, renderNoteHtml, type EmbedFrame, type RenderLinks } from '../../shared/note/markdown.ts';
import { markdown } from '../../shared/note/md.ts';

const EMBEDDED = '## Shared\n\nA line ^blk\n\nText[^1]\n\n[^1]: the note\n';

const links: RenderLinks = {
  note: (t) => (t === 'Other' ? { href: '/Other', title: 'Other' } : null),
  attachment: () => null,
  // With the memo key a site page gives: what is numbered or renamed per page must still be the page's own.
  embed: (ref, frame) => renderEmbedHtml(EMBEDDED, ref, links, frame, { href: '/Other', title: 'Other' }, 'Other.md'),
};

const ids = (html: string) => [...html.matchAll(/ id="([^"]+)"/g)].map((m) => m[1]);

describe('an embedded note parsed once, rendered per page', () => {
  it('each page takes its own free ids, and the next page starts from the note as written', () => {
    const page = renderNoteHtml('## Shared\n\n![[Other]]\n\n![[Other]]\n', 'Page', links);
    const pageIds = ids(page);
    // The page's heading, then each embed's: a free heading id each, the block id once only.
    expect(pageIds.filter((id) => id!.startsWith('shared'))).toEqual(['shared', 'shared-1', 'shared-2']);
    expect(pageIds.filter((id) => id === '^blk')).toHaveLength(1);
    // Footnotes of each embed are the embed's own.
    expect(page).toMatch(/fn-e1-1/);
    expect(page).toMatch(/fn-e2-1/);
    const alone = renderNoteHtml('![[Other]]\n', 'Elsewhere', links);
    expect(ids(alone)).toContain('shared');
    expect(ids(alone)).toContain('^blk');
  });

  it('a section or a block of the note, after the whole note, comes from the note as written', () => {
    const frame: EmbedFrame = { ids: new Set(['shared', '^blk']), stack: [], count: 0 };
    renderEmbedHtml(EMBEDDED, { target: 'Other', subpath: [], alias: null }, links, frame, { href: '/Other', title: 'Other' });
    const fresh: EmbedFrame = { ids: new Set(), stack: [], count: 0 };
    const section = renderEmbedHtml(EMBEDDED, { target: 'Other', subpath: ['Shared'], alias: null }, links, fresh, { href: '/Other', title: 'Other' })!;
    expect(ids(section)).toEqual(expect.arrayContaining(['shared', '^blk']));
    const block = renderEmbedHtml(EMBEDDED, { target: 'Other', subpath: ['^blk'], alias: null }, links, { ids: new Set(), stack: [], count: 0 }, { href: '/Other', title: 'Other' })!;
    expect(block).toContain('id="^blk"');
  });
});

describe('an embed that reads nothing of its page is rendered once a pass', () => {
  const PLAIN = '## Plain\n\nSee [[Other]] and [[Other|again]].\n\nA line ^plainblk\n';
  const NESTED = 'Before\n\n![[Plain]]\n';
  let resolved = 0;
  const plainLinks: RenderLinks = {
    note: (t) => {
      resolved++;
      return t === 'Other' ? { href: '/Other', title: 'Other' } : null;
    },
    attachment: () => null,
    embed: (ref, frame) =>
      ref.target === 'Plain'
        ? renderEmbedHtml(PLAIN, ref, plainLinks, frame, { href: '/Plain', title: 'Plain' }, 'Plain.md')
        : renderEmbedHtml(NESTED, ref, plainLinks, frame, { href: '/Nested', title: 'Nested' }, 'Nested.md'),
  };
  const embedOf = (html: string) => html.slice(html.indexOf('<div class="s-embed'));

  it("its other pages take the first page's render; a page its ids would collide with renders its own", () => {
    forgetEmbedParses();
    resolved = 0;
    const first = renderNoteHtml('Intro\n\n![[Plain]]\n', 'One', plainLinks);
    const once = resolved;
    expect(once).toBeGreaterThan(0);
    const second = renderNoteHtml('Another intro\n\n![[Plain]]\n', 'Two', plainLinks);
    expect(resolved).toBe(once);
    expect(embedOf(second)).toBe(embedOf(first));
    expect(ids(second)).toEqual(expect.arrayContaining(['plain', '^plainblk']));
    // The page holds a heading and a block id of the same names: a free heading id, the block id dropped.
    const third = renderNoteHtml('## Plain\n\nMine ^plainblk\n\n![[Plain]]\n', 'Three', plainLinks);
    expect(resolved).toBeGreaterThan(once);
    expect(ids(third).filter((id) => id === '^plainblk')).toHaveLength(1);
    expect(ids(third)).toContain('plain-1');
    // A later page still gets the note's own ids, as a fresh render gives them.
    const fourth = renderNoteHtml('![[Plain]]\n', 'Four', plainLinks);
    expect(embedOf(fourth)).toBe(embedOf(first));
    // The next pass renders again (the notes it links to may have moved).
    forgetEmbedParses();
    const before = resolved;
    renderNoteHtml('![[Plain]]\n', 'Five', plainLinks);
    expect(resolved).toBeGreaterThan(before);
  });

  it('an embed holding an embed is rendered on each page, each counted against its budget', () => {
    forgetEmbedParses();
    resolved = 0;
    const page = renderNoteHtml('![[Nested]]\n\n![[Nested]]\n', 'Six', plainLinks);
    // Each Nested embed holds a Plain embed: two of each, the second Plain with a free heading id.
    expect(page.match(/data-embed="Nested"/g)).toHaveLength(2);
    expect(page.match(/data-embed="Plain"/g)).toHaveLength(2);
    expect(ids(page)).toEqual(expect.arrayContaining(['plain', 'plain-1']));
  });
});

describe("an edit's pass embeds a note it read from the parse made as it was read", () => {
  const BODY = '## Read\n\nSee [[Other]].\n\nA line ^readblk\n\nText[^1]\n\n[^1]: its note\n';
  const ref = { target: 'Read', subpath: [], alias: null };
  const embed = () => renderEmbedHtml(BODY, ref, links, { ids: new Set(), stack: [], count: 0 }, { href: '/Read', title: 'Read' }, 'Read.md');

  it('is parsed once, and embedded as a parse of its own would embed it', () => {
    forgetEmbedParses();
    const fresh = embed();
    forgetEmbedParses();
    keepReadParses();
    analyzeNote(BODY, 'Read');
    const parse = vi.spyOn(markdown(), 'parse');
    try {
      expect(embed()).toBe(fresh);
      expect(parse).not.toHaveBeenCalled();
    } finally {
      parse.mockRestore();
      forgetEmbedParses();
    }
  });

  it('keeps nothing outside such a pass: a whole build reads every note, and the pass over lets go of what it kept', () => {
    forgetEmbedParses();
    analyzeNote(BODY, 'Read');
    expect(embedParsesKept()).toBe(0);
    keepReadParses();
    analyzeNote(BODY, 'Read');
    expect(embedParsesKept()).toBe(1);
    forgetEmbedParses();
    analyzeNote(BODY + 'More.\n', 'Read');
    expect(embedParsesKept()).toBe(0);
  });
});
