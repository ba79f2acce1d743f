// An embedded note is parsed once and its parse serves every page embedding it
// (markdown.ts embedParse): what one page changes for itself (free heading ids, dropped
// block ids, footnote ids) never reaches another page's copy.
import { describe, expect, it } from 'vitest';
import { renderEmbedHtml, renderNoteHtml, type EmbedFrame, type RenderLinks } from '../../shared/note/markdown.ts';

const EMBEDDED = '## Shared\n\nA line ^blk\n\nText[^1]\n\n[^1]: the note\n';

const links: RenderLinks = {
  note: (t) => (t === 'Other' ? { href: '/Other', title: 'Other' } : null),
  attachment: () => null,
  embed: (ref, frame) => renderEmbedHtml(EMBEDDED, ref, links, frame, { href: '/Other', title: 'Other' }),
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
