// shared/note/md.ts replaces markdown-it's `normalize` core rule with one that copies a note
// only when it holds a carriage return or a NUL. It must read every note as markdown-it did.
import MarkdownIt from 'markdown-it';
import { describe, expect, it } from 'vitest';
import { markdown } from '../../shared/note/md.ts';

const SAMPLES = ['plain\ntext\n\nand more', 'windows\r\nlines\r\n\r\n# heading\r\n', 'old mac\rlines\r\rpara', 'mixed\r\n\rx\ny\r', 'nul\0here and \0\0', '\r\n\r\n\0', ''];

describe('markdown normalize', () => {
  it("reads \\r\\n, \\r and NUL as markdown-it's own rule does", () => {
    const theirs = new MarkdownIt({ html: true, linkify: true, breaks: true, typographer: false });
    for (const src of SAMPLES) {
      const ours = markdown().parse(src, {});
      const expected = theirs.parse(src, {});
      expect(ours.map((t) => [t.type, t.content, t.map])).toEqual(expected.map((t) => [t.type, t.content, t.map]));
      expect(ours.some((t) => t.content.includes('\r') || t.content.includes('\0'))).toBe(false);
    }
  });
});
