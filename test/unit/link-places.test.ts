// Where a note's links are (shared/note/link-places.ts): a rename rewrites exactly the links the
// renderer reads (the note's facts, which the site's link index and Site health read), and the
// backlinks read the same places. A reviewer renamed Target.md and found `[[Target]]` rewritten
// inside code, while `[t](<Target.md>)` and `[ref]: Target.md` were left pointing at nothing.
import { describe, expect, it } from 'vitest';
import { fileLinkMapper } from '../../admin/vault/rename.ts';
import { rewriteNoteLinks } from '../../shared/markdown-links.ts';
import { linkSnippets } from '../../shared/model/backlinks.ts';
import type { NoteRecord } from '../../shared/model/note-record.ts';
import { analyzeNote } from '../../shared/note/analyze.ts';
import { linkPlaces } from '../../shared/note/link-places.ts';
import type { VaultPath } from '../../shared/vault-path.ts';
import { seeded } from '../helpers/seeded.ts';

const toTwo = fileLinkMapper('Target.md' as VaultPath, 'Sub Dir/Target Two.md' as VaultPath, new Set());
const rename = (text: string, map = toTwo) => rewriteNoteLinks(text, 'Linker.md', map);
/** The note targets and files the renderer's facts record, compared as a link key. */
const key = (t: string) => t.replace(/\.md$/i, '').toLowerCase();
const factTargets = (body: string) => {
  const facts = analyzeNote(body);
  return new Set([...facts.links, ...facts.files, ...facts.transclusions.map((t) => t.target)].map(key));
};
const placeTargets = (body: string) =>
  new Set(
    linkPlaces(body, false)
      .filter((p) => p.kind !== 'definition')
      .map((p) => key(p.kind === 'wiki' ? p.target.trim() : decodeURIComponent(p.address.replace(/#.*$/, '')))),
  );

describe('a rename leaves the links in code alone, as the renderer does', () => {
  it.each([
    ['a code span', 'See `[[Target]]` here.'],
    ['a code span of two backticks holding one', 'See ``a ` [[Target]] [t](Target.md)`` here.'],
    ['a code span of three backticks', 'See ```[[Target]]``` here.'],
    ['a ``` fence', 'Text\n\n```\n[[Target]] [t](Target.md)\n```\n'],
    ['a ~~~ fence with a language', '~~~md\n[t](<Target.md>)\n~~~\n'],
    ['a fence holding a shorter fence', '````\n```\n[[Target]]\n```\n````\n'],
    ['a fence in a list item', '- item\n\n  ```\n  [[Target]]\n  ```\n'],
    ['indented code', 'Para.\n\n    [[Target]] and [t](Target.md)\n'],
    ['indented code in a quote', '>     [[Target]] and [t](Target.md)\n'],
    ['indented code in a list item, on its marker\'s line', '-     [[Target]]\n\n1.\t\t[t](Target.md)\n'],
    ['a line an unclosed `$$` in a list item holds', '2) $$\n   [[Target]]\n'],
    ['inline and block math', 'So $[[Target]]$ and\n\n$$\n[t](Target.md)\n$$\n'],
    ['a raw HTML block', '<div>\n[[Target]]\n</div>\n'],
    ['a reference definition inside a fence', '[r][r]\n\n```\n[r]: Target.md\n```\n'],
    ['a definition line that continues a paragraph', 'Para\n[r]: Target.md\n'],
    ['an escaped bracket', 'Not \\[[Target]] nor !\\[[Target]] nor \\[t](Target.md)'],
    ['a table row, split at an unescaped `|` into two cells', '| a | b |\n|---|---|\n| [[Target|shown]] | [t|u](Target.md) |\n'],
    ['a table cell past the header\'s columns', '| a |\n|---|\n| x | [[Target]] [t](Target.md) |\n'],
    ['a footnote the note never refers to', 'Text[^1].\n\n[^1]: Shown.\n[^9]: See [[Target]].\n'],
    ['the first of two definitions of one footnote', 'Text[^1].\n\n[^1]: See [[Target]].\n[^1]: The one shown.\n'],
  ])('in %s', (_, text) => {
    expect(factTargets(text).has('target')).toBe(false);
    expect(rename(text)).toBe(text);
  });

  it('rewrites a link on the line that ends a list item holding an unclosed `$$`', () => {
    expect(rename('2) $$\n#    [[Target]]\n')).toBe('2) $$\n#    [[Target Two]]\n');
    expect(rename('- one\n\t$$\n\tx [[Target]]\n- two [[Target]]\n')).toBe('- one\n\t$$\n\tx [[Target]]\n- two [[Target Two]]\n');
  });

  it('rewrites a link right after code on the same line, and one after an unclosed backtick', () => {
    expect(rename('`code`[[Target]] ``x``[t](Target.md) `[[Target]]`')).toBe('`code`[[Target Two]] ``x``[t](Target%20Two.md) `[[Target]]`');
    expect(rename('A `` lone run [[Target]] `')).toBe('A `` lone run [[Target Two]] `');
    expect(rename('```\n[[Target]]\n```\nAfter [[Target]]')).toBe('```\n[[Target]]\n```\nAfter [[Target Two]]');
  });

  it('rewrites links in the frontmatter, and in a %% comment, as Obsidian does', () => {
    expect(rename('---\nrelated: "[[Target]]"\nnote: `x`\n---\n`[[Target]]`\n')).toBe('---\nrelated: "[[Target Two]]"\nnote: `x`\n---\n`[[Target]]`\n');
    expect(rename('Seen %% [[Target]] %% and `%% [[Target]] %%`')).toBe('Seen %% [[Target Two]] %% and `%% [[Target]] %%`');
  });
});

describe('a rename rewrites every link the renderer reads', () => {
  // ttrpg-convert-cli links every note from the vault's root: `[Azurite](/compendium/items/azurite.md)`.
  it('a path from the vault\'s root, kept rooted; a site path is no vault link', () => {
    expect(rename('[a](/Target.md) [b](/Target.md#Part) [c](/topic/x)')).toBe('[a](/Sub%20Dir/Target%20Two.md) [b](/Sub%20Dir/Target%20Two.md#Part) [c](/topic/x)');
    expect(factTargets('[a](/Target.md) [c](/topic/x) [d](/about)')).toEqual(new Set(['/target']));
  });

  it('a destination in <>, kept in <> with its spaces', () => {
    expect(rename('[a](<Target.md>) and [b](<Target.md#Part> "t")')).toBe('[a](<Target Two.md>) and [b](<Target Two.md#Part> "t")');
    const sub = fileLinkMapper('Sub Dir/Target.md' as VaultPath, 'Other Dir/Target 3.md' as VaultPath, new Set());
    expect(rename('[c](<Sub Dir/Target.md>) ![d](<Sub Dir/Target.md>)', sub)).toBe('[c](<Other Dir/Target 3.md>) ![d](<Other Dir/Target 3.md>)');
  });

  it('a link whose text holds brackets or a picture, an escaped backslash before a link, an escaped `!` before one', () => {
    expect(rename('[see [1]](Target.md) [![pic](Target.md)](Target.md) \\\\[[Target]] \\![[Target]]')).toBe(
      '[see [1]](Target%20Two.md) [![pic](Target%20Two.md)](Target%20Two.md) \\\\[[Target Two]] \\![[Target Two]]',
    );
    // A link inside a link's text is the link; the outer is text.
    expect(rename('[a [b](Target.md)](Other.md)')).toBe('[a [b](Target%20Two.md)](Other.md)');
  });

  it('a table cell\'s alias behind an escaped `|`, and a footnote the note refers to', () => {
    expect(rename('| a |\n|---|\n| [[Target\\|shown]] |\n')).toBe('| a |\n|---|\n| [[Target Two\\|shown]] |\n');
    expect(rename('Text.\n\n[^1]: See [[Target|it]].\n\nMore[^1].\n')).toBe('Text.\n\n[^1]: See [[Target Two|it]].\n\nMore[^1].\n');
  });

  it('a reference definition, in a quote or in <>, its title kept', () => {
    expect(rename('[ref][ref] and [x][y]\n\n[ref]: Target.md "Title"\n> [y]: <Target.md>\n')).toBe(
      '[ref][ref] and [x][y]\n\n[ref]: Target%20Two.md "Title"\n> [y]: <Target Two.md>\n',
    );
    expect(factTargets('[ref][ref]\n\n[ref]: Target.md\n').has('target')).toBe(true);
  });
});

describe('the links a rename rewrites are the links the note records', () => {
  const note = [
    '# Varied [[A1]]',
    '',
    'Text [[A2|shown]] and ![[A3]] and [md](A4.md#Part) and ![pic](A5.png) and [angle](<A 6.md>).',
    'Code `[[C1]]` then [[A7]] and ``x ` [m](C2.md)`` then [ref][r8].',
    '',
    '- [ ] a task [[A9#Heading]]',
    '> [!note] A callout [[A10]]',
    '> quoted [q](A11.md)',
    '',
    '| a | b |',
    '|---|---|',
    '| [[A12\\|cell]] | `[[C3]]` |',
    '',
    '```js',
    '[[C4]] [f](C5.md)',
    '```',
    '',
    '~~~',
    '[[C6]]',
    '~~~',
    '',
    '    [[C7]] indented',
    '',
    'Math $[[C8]]$ and a footnote[^1].',
    '',
    '<div>',
    '[[C9]]',
    '</div>',
    '',
    'Escaped \\[[C10]] and [see [1]](A15.md) and [![pic](A16.png)](A17.md).',
    '',
    '[^1]: Footnote with [[A13]].',
    '',
    '[r8]: A14.md',
    '',
  ].join('\n');
  const recorded = new Set(['a1', 'a2', 'a3', 'a4', 'a5.png', 'a 6', 'a7', 'a9', 'a10', 'a11', 'a12', 'a13', 'a14', 'a15', 'a16.png', 'a17']);

  it('the places read are the facts the renderer records (a definition stands for its uses), and no link in code', () => {
    expect(factTargets(note)).toEqual(recorded);
    expect(placeTargets(note)).toEqual(new Set([...recorded].filter((t) => t !== 'a14')));
  });

  it('renaming each target rewrites the note exactly when the facts record a link to it', () => {
    const targets = ['A1', 'A2', 'A3', 'A4', 'A5.png', 'A 6', 'A7', 'A9', 'A10', 'A11', 'A12', 'A13', 'A14', 'A15', 'A16.png', 'A17'];
    targets.push(...['C1', 'C2', 'C3', 'C4', 'C5', 'C6', 'C7', 'C8', 'C9', 'C10']);
    const rewritten = targets.filter((t) => rewriteNoteLinks(note, 'Varied.md', (written) => (key(written) === key(t) ? `${t} renamed` : null)) !== note);
    expect(new Set(rewritten.map(key))).toEqual(recorded);
  });
});

describe('the places are where the parser reads a link, and nowhere else', () => {
  // Texts made of what decides it: quote and list markers, tabs and spaces before a line's
  // text, code, math, raw HTML, fences and blocks that swallow lines; each link to a target of
  // its own. The renderer's facts say which it reads. Code in a quote (`>     [[x]]`) once
  // passed for text: the check for "nothing here can hide a link" looked for indentation at a
  // line's start only. A table row's `|` and a footnote the note never refers to hid links
  // the same way (367 of 4,853 generated links disagreed).
  const next = seeded(11);
  const random = () => next(1000) / 1000;
  const pick = <T,>(xs: readonly T[]): T => xs[next(xs.length)]!;
  const PREFIX = ['', '', '', '>', '> ', '- ', '-', '* ', '+\t', '1. ', '2) ', '  ', '>>', '- > ', '> [!note] ', '# ', '| ', '\t- ', '[^1]: ', '[^2]: '];
  const GAP = ['', '', ' ', '  ', '   ', '    ', '     ', '\t', ' \t', '\t\t', '   \t'];
  const AROUND: [string, string][] = [['', ''], ['', ''], ['`', '`'], ['``', '``'], ['$', '$'], ['<span>', '</span>'], ['**', '**'], ['==', '=='], ['[', ']'], ['~~', '~~'], ['%%', '%%'], ['', ' [^1]'], ['| ', ' |'], ['| x | ', ' |']];
  const LINE = ['```', '~~~', '$$', '<div>', '</div>', '---', '<!--', '-->', '| a | b |', '|---|---|', '| a |', '|---|'];

  it('in 2,000 generated texts, each link to a target is a place exactly when the renderer reads it', () => {
    const wrong: string[] = [];
    for (let k = 0; k < 2000; k++) {
      const lines: string[] = [];
      let n = 0;
      for (let i = 1 + Math.floor(random() * 6); i > 0; i--) {
        const r = random();
        if (r < 0.2) lines.push('');
        else if (r < 0.3) lines.push(pick(PREFIX) + pick(LINE));
        else {
          const [open, close] = pick(AROUND);
          const link = pick([`[[T${++n}]]`, `[t](T${n}.md)`, `[[T${n}|shown]]`, `[[T${n}\\|shown]]`, `[a|b](T${n}.md)`]);
          lines.push(pick(PREFIX) + pick(PREFIX) + pick(GAP) + (random() < 0.3 ? 'word ' : '') + open + link + close + (random() < 0.2 ? ' tail' : ''));
        }
      }
      const text = lines.join('\n') + '\n';
      const read = factTargets(text);
      const places = placeTargets(text);
      for (let t = 1; t <= n; t++) if (read.has(`t${t}`) !== places.has(`t${t}`)) wrong.push(`T${t} in ${JSON.stringify(text)}`);
    }
    expect(wrong.slice(0, 5)).toEqual([]);
  });
});

describe('"Linked from" reads the same places', () => {
  const record = (body: string) => ({ body, data: {} }) as unknown as NoteRecord;
  const snippets = (body: string) => linkSnippets(record(body), {}, (t) => (key(t) === 'target' ? ('Target.md' as VaultPath) : null));

  it('a line whose only link is in code is no sentence of a link; the real link is', () => {
    expect(snippets('Write `[[Target]]` for a link.\n\n```\n[[Target]]\n```\n\n    [[Target]]\n\nThe [[Target]] itself.').get('Target.md' as VaultPath)).toBe(
      'The \u2068Target\u2069 itself.',
    );
    expect(snippets('See [it](<Target.md>) here.').get('Target.md' as VaultPath)).toBe('See \u2068it\u2069 here.');
  });
});

describe('the documents a page embeds are read at the same places', () => {
  it('`![[B.base]]` written in code is no embed of the page', async () => {
    const { embeddedDocuments } = await import('../../site/plan/documents.ts');
    const ctx = { attachments: { resolve: (target: string) => target } };
    const note = { body: 'Real: ![[A.base]]\n\nWrite `![[B.base]]` to embed one.\n\n```\n![[C.canvas]]\n```\n', embeds: ['A.base'] };
    expect(embeddedDocuments(ctx as never, note as never)).toEqual(['A.base']);
  });

  it("a canvas text node's `[[Note]]` in code is text: not a note the canvas page reads, as the node draws it", async () => {
    const { canvasNotes } = await import('../../site/plan/canvas-view.ts');
    const notes = new Map(['real', 'inline', 'fenced', 'indented'].map((name) => [name, { path: `${name}.md` }]));
    const ctx = { model: { resolver: { resolve: (target: string) => notes.get(target.toLowerCase()) ?? null }, isVisible: () => true } };
    const text = 'See [[Real|the real one]]. Write `[[Inline]]` to link.\n\n```\n[[Fenced]]\n```\n\n    [[Indented]]\n';
    const canvas = { nodes: [{ id: 'a', type: 'text', text, x: 0, y: 0, width: 100, height: 100 }], edges: [] };
    expect(canvasNotes(ctx as never, canvas as never, { folder: '' } as never).map((n) => n.path)).toEqual(['real.md']);
  });
});

describe("the admin's Backlinks read the same places", () => {
  it("lists the lines that link, a property's among them (as Obsidian counts it), not the ones that only show a link in code", async () => {
    const { indexNote } = await import('../../admin/search/note-entry.ts');
    const text = '---\nrelated: "[[Target]]"\n---\nWrite `[[Target]]`.\n\n```\n[[Target]]\n```\n\n    [t](Target.md)\n\nSee [t](<Target.md#Part>) and [r][r].\n\n[r]: Target.md\n';
    const { links } = indexNote('Linker.md' as VaultPath, text, 0);
    expect(links.map((l) => [l.line, l.target, l.heading])).toEqual([
      [2, 'Target', null],
      [12, 'Target.md', 'Part'],
      [14, 'Target.md', null],
    ]);
  });
});
