// "Copy Obsidian URL" gives `obsidian://open?vault=My%20Vault&file=Other%20note`: in a published
// note it asked every reader's browser to open an app and a vault they do not have.
import { describe, expect, it } from 'vitest';
import { analyzeNote } from '../../shared/note/analyze.ts';
import { renderNoteHtml, type RenderLinks } from '../../shared/note/markdown.ts';

const links: RenderLinks = {
  note: (t) => (t === 'Folder/Other note' ? { href: '/Folder/Other-note', title: 'Other note' } : null),
  attachment: () => null,
};
const render = (body: string) => renderNoteHtml(body, 'Title', links);

describe('an obsidian://open link', () => {
  it("leads to the note it opens when that note is published, and is counted among the note's links", () => {
    expect(render('[the other](obsidian://open?vault=My%20Vault&file=Folder%2FOther%20note)')).toBe('<p><a href="/Folder/Other-note" class="internal-link">the other</a></p>\n');
    expect(analyzeNote('[the other](obsidian://open?vault=My%20Vault&file=Folder%2FOther%20note)').links).toEqual(['Folder/Other note']);
  });

  it('is its words alone when the note is not published, as a link to it is; other obsidian:// links are left as written', () => {
    expect(render('[secret](obsidian://open?vault=V&file=Private)')).toBe('<p><span class="s-wikilink s-unresolved">secret</span></p>\n');
    expect(render('[vault](obsidian://open?vault=V)')).toBe('<p><a href="obsidian://open?vault=V">vault</a></p>\n');
  });
});
