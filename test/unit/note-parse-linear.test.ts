// A vault file is hostile input: one note must not hold the builder for minutes. Each note
// below took seconds to minutes to read, in an expression or a plugin rule that read the
// rest of the note once from each of thousands of places (shared/note: bare-links.ts,
// footnote-tail.ts, plain-text.ts, fields.ts, headings.ts, title.ts, frontmatter.ts,
// raw-islands.ts, obsidian/task-lists.ts; site/plan/documents.ts). Each
// is sized so that the old reading takes several seconds; read once per character, it takes
// a few tens of milliseconds.
import { describe, expect, it } from 'vitest';
import { buildRecord } from '../../shared/model/note-record.ts';
import type { VaultPath } from '../../shared/vault-path.ts';

const body = (text: string) => `---\npublish: true\ndate: 2026-01-01\n---\n${text}\n`;

/** Each note, and what it cost before (measured on the development machine). */
const hostile: [string, string][] = [
  ['`www.` 50,000 times (2 minutes)', body('www.'.repeat(50_000))],
  ['`//a.b/` 30,000 times (8.8 s)', body('//a.b/'.repeat(30_000))],
  ['`<!--` 50,000 times (10.5 s)', body('<!--'.repeat(50_000))],
  ['`<style>` 50,000 times (9.1 s)', body('<style>'.repeat(50_000))],
  ['20,000 `<style>x</style>` in a block of raw HTML (7.8 s)', body(`<div>${'<style>x</style>'.repeat(20_000)}`)],
  ['`{{` 50,000 times (3.6 s)', body('{{'.repeat(50_000))],
  ['`<%` 150,000 times (6.8 s)', body('<%'.repeat(150_000))],
  ['a heading of 100,000 spaces then a letter (13.8 s)', body(`# a${' '.repeat(100_000)}b`)],
  ['a heading of 50,000 spaces and tabs (as the first line, the title)', body(`# a${' \t'.repeat(50_000)}b\n\ntext`)],
  ['an id and a title of 100,000 spaces then a letter (7 s)', `---\npublish: true\nid: a${' '.repeat(100_000)}b\ntitle: t${' '.repeat(100_000)}x\ndate: 2026-01-01\n---\nbody\n`],
  ['a list of 20,000 tasks (6 s)', body('- [ ] t\n'.repeat(20_000))],
  ['a block id after 100,000 spaces in a paragraph, and in a raw HTML block', body(`a${' '.repeat(100_000)}b ^id\n\n<div>\nx${'\n'.repeat(50_000)}y\n</div> ^html`)],
  ['a template field line of 100,000 spaces, and a fence of 100,000 backticks, each holding a line separator', body(`a:: ${' '.repeat(100_000)}x\u2028y\n\n${'`'.repeat(100_000)}\u2028x`)],
  ['10,000 footnotes (4.4 s)', body(`${Array.from({ length: 10_000 }, (_, i) => `x[^${i}]`).join('\n')}\n\n${Array.from({ length: 10_000 }, (_, i) => `[^${i}]: y`).join('\n')}`)],
];

describe('a note is read in time proportional to its length', () => {
  for (const [name, text] of hostile) {
    it(name, () => {
      const started = performance.now();
      const record = buildRecord({ path: 'Hostile.md' as VaultPath, text, createdMs: null, fileMs: 0, searchText: true });
      expect(performance.now() - started).toBeLessThan(2_000);
      expect(record.publish).toBe(true);
    });
  }
});

describe("a note's ```base blocks are found in time proportional to its length", () => {
  it('20,000 opening fences with no closing fence (3.6 s), 20,000 whole blocks, and a line of 100,000 backticks (12 s at 95 KB)', async () => {
    const { baseBlocks } = await import('../../site/plan/documents.ts');
    for (const [text, blocks] of [
      // The first opens a fence the rest are the text of, to the end (CommonMark): one base.
      ['```base\n'.repeat(20_000), 1],
      ['```base\nfilters: x\n```\n'.repeat(20_000), 20_000],
      [`${'`'.repeat(100_000)}x\n`, 0],
    ] as const) {
      const started = performance.now();
      const found = baseBlocks({ body: text } as never);
      expect(performance.now() - started).toBeLessThan(2_000);
      expect(found).toHaveLength(blocks);
    }
  });
});

describe("the admin's index of a note is made in time proportional to its length", () => {
  it('a line of 40,000 `[a](b` after a `](` (4 s), and one of 80,000 `[` (2.7 s)', async () => {
    const { indexNote } = await import('../../admin/search/note-entry.ts');
    for (const line of [`](${'[a](b'.repeat(40_000)}`, `](${'['.repeat(80_000)}`]) {
      const started = performance.now();
      indexNote('Hostile.md' as VaultPath, body(`${line}\n[[Kept]] and [a [b](Other.md)`), 0);
      expect(performance.now() - started).toBeLessThan(2_000);
    }
    const { links } = indexNote('Hostile.md' as VaultPath, body('[[Kept]] and [a [b](Other.md#Part)'), 0);
    expect(links.map((l) => [l.target, l.heading])).toEqual([
      ['Kept', null],
      ['Other.md', 'Part'],
    ]);
  });
});

describe('the sentences around links ("Linked from") are found in time proportional to the note', () => {
  it('a line of 20,000 links (an index written as one paragraph: 3.5 s), and lines of thousands of `[a](b` that begin no link', async () => {
    const { linkSnippets } = await import('../../shared/model/backlinks.ts');
    const resolve = (target: string) => (target ? (`${target}.md` as VaultPath) : null);
    const index = Array.from({ length: 20_000 }, (_, i) => `[[N${i}]]`).join(', ');
    for (const text of [index, `](${'[a](b'.repeat(40_000)} [[X]]`, `[a](${'b](c'.repeat(40_000)} [[X]]`]) {
      const started = performance.now();
      const snippets = linkSnippets({ body: text, data: {} } as never, {}, resolve);
      expect(performance.now() - started).toBeLessThan(2_000);
      expect(snippets.size).toBeGreaterThan(0);
    }
    // The link's own sentence, cut around it.
    const snippets = linkSnippets({ body: index, data: {} } as never, {}, resolve);
    expect(snippets.get('N10000.md' as VaultPath)).toMatch(/^….*\u2068N10000\u2069.*…$/);
  });
});

describe("a rename finds a note's links in time proportional to its length", () => {
  it('a line of 100,000 spaces, 40,000 `[a](<b`, 20,000 lines `[a]: <b`, 20,000 code spans beside links, an alias beside a line of 50,000 `- ` or `[^`', async () => {
    const { rewriteNoteLinks } = await import('../../shared/markdown-links.ts');
    const map = (target: string) => (target === 'X' ? 'Y' : null);
    for (const text of [`${' '.repeat(100_000)}x\n[[X]]`, `](${'[a](<b'.repeat(40_000)}\n[[X]]`, `${'[a]: <b\n'.repeat(20_000)}\n[[X]]`, '`c` [[X]] '.repeat(20_000), `[[X|x]]\n${'- '.repeat(50_000)}x\n`, `[[X|x]]\n${' \t'.repeat(50_000)}x\n`, `[[X]] ${'[^'.repeat(50_000)}\n`]) {
      const started = performance.now();
      expect(rewriteNoteLinks(text, 'Hostile.md', map)).toMatch(/\[\[Y[\]|]/);
      expect(performance.now() - started).toBeLessThan(2_000);
    }
  });
});
