// The admin's note index reads a note's inline tags as the site does (the renderer's parser,
// shared/note/inline-tags.ts): a `#word` inside inline code, a code block, math or an HTML
// comment was counted by the admin's own line scan (and one in a private `%%` comment, which the site removes first), which only knew ``` fences, while the
// site's parser (the note's facts, analyze.ts) reads none of them as tags.
import { describe, expect, it } from 'vitest';
import { indexNote } from '../../admin/search/note-entry.ts';
import { buildRecord } from '../../shared/model/note-record.ts';
import { analyzeNote } from '../../shared/note/analyze.ts';
import type { VaultPath } from '../../shared/vault-path.ts';

const indexTags = (body: string) => indexNote('Note.md' as VaultPath, body, 0).tags;

describe("the admin's tag index reads what the site's parser reads as tags", () => {
  it.each([
    ['inline code', 'Real #kept and `see #code` here.'],
    ['a code span of two backticks', 'Real #kept and ``a ` #code`` here.'],
    ['a ~~~ fence', 'Real #kept\n\n~~~\n#code\n~~~\n'],
    ['indented code', 'Real #kept\n\n    #code\n'],
    ['a fence in a list item', '- #kept\n\n  ```\n  #code\n  ```\n'],
    ['inline math', 'Real #kept and $a #code b$ here.'],
    ['block math', 'Real #kept\n\n$$\n#code\n$$\n'],
    ['an HTML comment on its own lines', 'Real #kept\n\n<!--\n#code\n-->\n'],
    ['an HTML comment inside a line', 'Real #kept and <!-- #code --> here.'],
    ['a raw HTML block', 'Real #kept\n\n<div>\n#code\n</div>\n'],
  ])('none in %s', (_, body) => {
    expect(indexTags(body)).toEqual(['kept']);
    expect(analyzeNote(body).tags).toEqual(['kept']);
  });

  it.each([
    ['a private comment inside a line', 'Real #kept and %% #private %% here.'],
    ['a private comment over lines', 'Real #kept\n\n%%\n#private\n%%\n'],
    ['an unclosed private comment', 'Real #kept\n\n%% #private to the end'],
  ])('none in %s, which the site removes before it reads the note (note-record.ts)', (_, body) => {
    expect(indexTags(body)).toEqual(['kept']);
    expect(buildRecord({ path: 'Note.md' as VaultPath, text: body, createdMs: null, fileMs: 0 }).tags).toEqual(['kept']);
  });

  it('a `%%` in code is text, as on the site: the tag after it counts', () => {
    expect(indexTags('Real #kept and `%%` then #after')).toEqual(['kept', 'after']);
  });

  it('reads the tags the site reads: in a heading, a quote, a footnote, a table; after frontmatter tags', () => {
    const body = '---\ntags: [front]\n---\n## Heading #inHeading\n\n>#quoted\n\nText^[a note #footnoted]\n\n| a |\n| - |\n| #cell |\n';
    const site = analyzeNote(body.replace(/^---[\s\S]*?---\n/, '')).tags;
    expect(site.sort()).toEqual(['cell', 'footnoted', 'inHeading', 'quoted']);
    expect(indexTags(body).sort()).toEqual(['front', ...site].sort());
  });
});
