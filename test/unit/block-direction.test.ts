// Arabic and English in one note (shared/note/block-direction.ts): each block of a note that
// holds Arabic says its own direction by the script most of its words are in; a note without
// Arabic renders as it did.
import MarkdownIt from 'markdown-it';
import { describe, expect, it } from 'vitest';
import { blockDirectionPlugin } from '../../shared/note/block-direction.ts';
import { markdown } from '../../shared/note/md.ts';

const render = (text: string) => markdown().render(text, {});
const dirs = (html: string) => [...html.matchAll(/<(p|h\d|li|th|td)\b([^>]*)>/g)].map((m) => `${m[1]}:${/ dir="(\w+)"/.exec(m[2]!)?.[1] ?? '-'}`);

describe('block direction', () => {
  it('gives each paragraph, heading, list item and table cell of a mixed note its own direction', () => {
    const note = [
      '## Notes on publishing',
      'An English paragraph that links https://obsidian.md/publish.',
      'فقرة عربية فيها رابط https://obsidian.md/publish/getting-started وكلمة `code` واحدة.',
      '- first item\n- عنصر عربي في القائمة',
      '| Feature | الميزة |\n|---|---|\n| Backlinks | الروابط الخلفية |',
      '> اقتباس عربي قصير',
      '## عنوان عربي',
    ].join('\n\n');
    expect(dirs(render(note))).toEqual(['h2:ltr', 'p:ltr', 'p:rtl', 'li:ltr', 'li:rtl', 'th:ltr', 'th:rtl', 'td:ltr', 'td:rtl', 'p:rtl', 'h2:rtl']);
  });

  it('counts words, not addresses or code: an Arabic line with a long URL is right to left; a line of a URL alone says nothing', () => {
    expect(dirs(render('كلمتان فقط https://example.com/a/very/long/path/with/many/english/words'))).toEqual(['p:rtl']);
    expect(dirs(render('عربي\n\nhttps://example.com/only'))).toEqual(['p:rtl', 'p:-']);
  });

  it('leaves a note without Arabic as markdown-it renders it', () => {
    const note = '# Title\n\nA paragraph.\n\n- a\n- b\n\n| x | y |\n|---|---|\n| 1 | 2 |\n';
    const plain = new MarkdownIt();
    const withRule = new MarkdownIt().use(blockDirectionPlugin);
    expect(withRule.render(note)).toBe(plain.render(note));
    expect(render(note)).not.toContain('dir=');
  });
});
