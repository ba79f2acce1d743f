// `[[Note#^` suggestions: the blocks a note holds, and an id added to one where the renderer
// gives it to that block and changes nothing else (shared/note/obsidian/block-list.ts).
import { describe, expect, it } from 'vitest';
import { renderNoteHtml, type RenderLinks } from '../../shared/note/markdown.ts';
import { newBlockId, noteBlocks, sameBlock, withBlockId, type BlockKind } from '../../shared/note/obsidian/block-list.ts';
import { parseFrontmatter } from '../../shared/note/frontmatter.ts';
import { seeded } from '../helpers/seeded.ts';

const links: RenderLinks = { note: (t) => ({ href: `/${t}`, title: t, headings: [] }), attachment: () => null, tag: (t) => `/topic/${t}` };
const render = (text: string) => renderNoteHtml(parseFrontmatter(text, 'n.md').body, 'Title', links);

/** Blocks of every kind, some with ids, some written right against the next block. */
const PIECES = [
  'A plain paragraph.',
  'A paragraph\nof two lines with a [[Link]].',
  'Ends with a hard break  ',
  'Has an id already ^has-id',
  '- one\n- two\n  - nested\n- three',
  '1. first\n2. second ^num',
  '- item with more\n  indented text after it',
  '- [ ] a task\n- [x] done',
  '> A quote\n> of two lines',
  '> [!note] A callout\n> Its body.',
  '| a | b |\n|---|---|\n| 1 | 2 |',
  '```js\nconst x = 1;\n```',
  '    indented code',
  '$$\nx^2\n$$',
  '# A heading',
  '---',
  'Text with #tag and $x$ math.',
  '> - a list in a quote\n> - another',
  '```\nfenced\n```\n^code-id',
  'مقطع عربي بين الفقرات.',
];

function corpus(): string[] {
  const next = seeded(7);
  const notes = [PIECES.join('\n\n'), `---\ntitle: T\ntags: [a]\n---\n${PIECES.join('\n\n')}`, PIECES.join('\r\n\r\n'), `---\r\ntitle: T\r\n---\r\n${PIECES.join('\r\n\r\n')}`];
  for (let n = 0; n < 150; n++) {
    const parts: string[] = [];
    for (let k = 0, count = 2 + next(6); k < count; k++) parts.push(PIECES[next(PIECES.length)]!);
    // Mostly a blank line between blocks; sometimes none, where the blocks allow it.
    notes.push((next(2) ? '---\npublish: true\n---\n' : '') + parts.reduce((a, p) => a + (next(4) ? '\n\n' : '\n') + p));
  }
  return notes;
}

const TAG: Record<BlockKind, RegExp> = { paragraph: /^<p\b/, item: /^<li\b/, quote: /^<(blockquote|div)\b/, table: /^<table\b/, code: /^<(pre|div)\b/, math: /^<(span|div|p)\b/ };

describe('the blocks of a note', () => {
  it('lists each paragraph, item, quote, table and code block with its id; no heading or rule', () => {
    const blocks = noteBlocks(`---\ntitle: T\n---\n${PIECES.slice(0, 12).join('\n\n')}`);
    expect(blocks.map((b) => [b.kind, b.id, b.text])).toEqual([
      ['paragraph', null, 'A plain paragraph.'],
      ['paragraph', null, 'A paragraph of two lines with a [[Link]].'],
      ['paragraph', null, 'Ends with a hard break'],
      ['paragraph', 'has-id', 'Has an id already'],
      ['item', null, 'one'],
      ['item', null, 'two'],
      ['item', null, 'nested'],
      ['item', null, 'three'],
      ['item', null, 'first'],
      ['item', 'num', 'second'],
      ['item', null, 'item with more'],
      ['item', null, 'a task'],
      ['item', null, 'done'],
      ['quote', null, 'A quote'],
      ['quote', null, 'A callout'],
      ['table', null, 'a | b'],
      ['code', null, 'const x = 1;'],
    ]);
    // Lines count from the file's first, frontmatter included.
    expect(blocks[0]!.line).toBe(3);
  });

  it('an id added to any block lands on that block, as the site renders it, and nothing else changes', () => {
    let tried = 0;
    const kinds = new Set<BlockKind>();
    for (const text of corpus()) {
      const before = render(text);
      const blocks = noteBlocks(text);
      blocks.forEach((block, n) => {
        if (block.id) return;
        const id = 'zz9new';
        const changed = withBlockId(text, block, id);
        const html = render(changed);
        const at = html.indexOf(` id="^${id}"`);
        expect(at, `${block.kind} "${block.text}" in:\n${text}\n---\n${changed}`).toBeGreaterThan(0);
        expect(html.indexOf(` id="^${id}"`, at + 1)).toBe(-1);
        const element = html.slice(html.lastIndexOf('<', at), at);
        expect(element, `${block.kind} "${block.text}" in:\n${changed}`).toMatch(TAG[block.kind]);
        expect(html.replace(` id="^${id}"`, '')).toBe(before);
        // Listed again: the same blocks, this one now with its id.
        expect(noteBlocks(changed).map((b) => [b.kind, b.text, b.id])).toEqual(blocks.map((b, m) => [b.kind, b.text, m === n ? id : b.id]));
        tried++;
        kinds.add(block.kind);
      });
    }
    expect(tried).toBeGreaterThan(700);
    expect([...kinds].sort()).toEqual(['code', 'item', 'math', 'paragraph', 'quote', 'table']);
  });

  it('a block listed from an earlier text is found again: at its place, else as the one block of its kind and text', () => {
    const text = 'Intro.\n\nThe one to cite.\n\n- item\n- item\n';
    const [, cite, item] = noteBlocks(text);
    expect(sameBlock(text, cite!)).toEqual(cite);
    // Lines written above it: found by its text, at its new line.
    const moved = sameBlock(`New first line.\n\n${text}`, cite!);
    expect(moved).toMatchObject({ kind: 'paragraph', text: 'The one to cite.', line: cite!.line + 2 });
    // Two items alike, moved: which one was meant cannot be told.
    expect(sameBlock(`New.\n\n${text}`, item!)).toBeNull();
    // Its text changed: gone.
    expect(sameBlock(text.replace('one to cite', 'other'), cite!)).toBeNull();
  });

  it('a new id is six lowercase letters and digits, none the note has', () => {
    const taken = new Set(Array.from({ length: 2000 }, () => newBlockId([])));
    for (const id of taken) expect(id).toMatch(/^[a-z0-9]{6}$/);
    expect(taken.size).toBeGreaterThan(1990);
    expect(newBlockId(['abc123', null])).not.toBe('abc123');
  });
});
