// The texts a note gives that other pages show are bounded at their one owner
// (shared/note/shown-text.ts): a 1 MB title made each page of a garden 1 MB, and 300 links
// from it wrote 639 MB of pages. Each cut is a build warning naming the note and the key.
import { describe, expect, it } from 'vitest';
import { longTextWarnings } from '../../shared/model/build-warnings.ts';
import { buildRecord } from '../../shared/model/note-record.ts';
import { labelFrom } from '../../shared/model/topics.ts';
import { prepareNoteHtml } from '../../shared/note/markdown.ts';
import { cutFrontmatterTexts, descriptionValue, iconValue, MAX_BANNER_LENGTH, MAX_DESCRIPTION_LENGTH, MAX_ICON_LENGTH, MAX_TITLE_LENGTH, nameValue } from '../../shared/note/shown-text.ts';
import { titleOf } from '../../shared/note/title.ts';
import type { VaultPath } from '../../shared/vault-path.ts';

const words = (n: number) => Array.from({ length: n }, (_, i) => `word${i}`).join(' ');
const record = (path: string, text: string) => buildRecord({ path: path as VaultPath, text, createdMs: null, fileMs: 0 });

describe('a title pages show', () => {
  it('is at most MAX_TITLE_LENGTH characters, cut at a word with an ellipsis, whichever gives it', () => {
    const long = words(200_000);
    for (const title of [titleOf({ title: long }, '', 'a.md'), titleOf({}, `# ${long}\n\nBody.`, 'a.md'), titleOf({ title: 'x'.repeat(1_000_000) }, '', 'a.md')]) {
      expect(title.length).toBeLessThanOrEqual(MAX_TITLE_LENGTH + 1);
      expect(title.endsWith('…')).toBe(true);
    }
    expect(long.startsWith(titleOf({ title: long }, '', 'a.md').slice(0, -1) + ' ')).toBe(true);
    // The article keeps the whole heading the cut title came from.
    const body = `# ${words(100)}\n\nBody.\n`;
    expect(prepareNoteHtml(body, titleOf({}, body, 'a.md')).html).toContain(`>${words(100)}<a class="s-anchor"`);
    const short = words(30).slice(0, MAX_TITLE_LENGTH);
    expect(titleOf({ title: short }, '', 'a.md')).toBe(short);
  });

  it('never halves a character, and closes the bidi controls it keeps open', () => {
    const emoji = titleOf({ title: '😀'.repeat(1000) }, '', 'a.md');
    expect(emoji).toBe('😀'.repeat(MAX_TITLE_LENGTH / 2) + '…');
    expect(titleOf({ title: 'a' + '😀'.repeat(1000) }, '', 'a.md')).toBe('a' + '😀'.repeat(MAX_TITLE_LENGTH / 2 - 1) + '…');
    expect(titleOf({ title: `\u202e${'x'.repeat(1000)}` }, '', 'a.md').endsWith('…\u202c')).toBe(true);
  });
});

describe('a frontmatter title or description holding a link', () => {
  it('shows the link\'s words, as a heading holding one does; a text without one is as written', () => {
    expect(titleOf({ title: 'About [[Other|the other]] notes' }, '', 'a.md')).toBe('About the other notes');
    expect(titleOf({ title: 'See [[Other]]' }, '', 'a.md')).toBe('See Other');
    expect(titleOf({ title: 'C* algebras and *stars*' }, '', 'a.md')).toBe('C* algebras and *stars*');
    const record = buildRecord({ path: 'a.md' as VaultPath, text: '---\ndescription: "A note on [[Other|the other]]"\n---\nBody.\n', createdMs: null, fileMs: 0 });
    expect(record.description).toBe('A note on the other');
  });
});

describe('labels, icons, descriptions and banners', () => {
  it('are bounded and one line where pages show them', () => {
    expect(nameValue(`${words(100_000)}\n${words(10)}`)!.length).toBeLessThanOrEqual(MAX_TITLE_LENGTH + 1);
    expect(nameValue('Two\nlines')).toBe('Two lines');
    expect(labelFrom({ data: { labels: { en: words(100_000) } } }, 'en')!.length).toBeLessThanOrEqual(MAX_TITLE_LENGTH + 1);
    expect(labelFrom({ data: { label_ar: 'ق'.repeat(100_000) } }, 'ar')!.length).toBeLessThanOrEqual(MAX_TITLE_LENGTH + 1);
    expect(descriptionValue(words(100_000))!.length).toBeLessThanOrEqual(MAX_DESCRIPTION_LENGTH + 1);
    expect(iconValue('📚'.repeat(10_000))).toBe('📚'.repeat(MAX_ICON_LENGTH / 2));
    expect(iconValue('👨‍👩‍👧‍👦')).toBe('👨‍👩‍👧‍👦');
    const note = record('Long.md', `---\npublish: true\ndescription: ${words(100_000)}\nicon: ${'i'.repeat(100_000)}\nbanner: https://example.org/${'a'.repeat(MAX_BANNER_LENGTH)}.png\n---\n\n![](https://example.org/${'b'.repeat(MAX_BANNER_LENGTH)}.png)\n`);
    expect(note.description!.length).toBeLessThanOrEqual(MAX_DESCRIPTION_LENGTH + 1);
    expect(note.icon).toBe('i'.repeat(MAX_ICON_LENGTH));
    // A banner too long for a card is none; so is a first image as long.
    expect(note.banner).toBeNull();
    expect(record('Img.md', `---\npublish: true\n---\n\n![](${'b/'.repeat(MAX_BANNER_LENGTH / 2)}b.png)\n`).banner).toBeNull();
    expect(record('Img.md', '---\npublish: true\n---\n\n![](b/b.png)\n').banner).toBe('b/b.png');
  });
});

describe('the build warns of each cut text of a published note', () => {
  it('names the key and the bound, and a frontmatter text’s length; a short text gives none', () => {
    const text = `---\npublish: true\ntitle: ${'t'.repeat(300_000)}\nlabels:\n  ar: ${'ق'.repeat(300)}\nlabel_en: ${'l'.repeat(260)}\ndescription: ${'d'.repeat(600)}\nicon: ${'i'.repeat(40)}\ncover: ${'c'.repeat(3000)}\n---\n\nBody.\n`;
    const found = longTextWarnings(record('Long.md', text)).map((w) => [w.kind, w.variant, w.value, w.count, w.max]);
    expect(found).toEqual([
      ['long-text', 'title', 'title', undefined, MAX_TITLE_LENGTH],
      ['long-text', 'description', 'description', 600, MAX_DESCRIPTION_LENGTH],
      ['long-text', 'icon', 'icon', 40, MAX_ICON_LENGTH],
      ['long-text', 'banner', 'cover', 3000, MAX_BANNER_LENGTH],
      ['long-text', 'label', 'label_en', 260, MAX_TITLE_LENGTH],
      ['long-text', 'label', 'labels.ar', 300, MAX_TITLE_LENGTH],
    ]);
    // From a heading, the same.
    expect(longTextWarnings(record('Head.md', `---\npublish: true\n---\n\n# ${words(100_000)}\n`)).map((w) => w.value)).toEqual(['title']);
    // A title that ends in an ellipsis of its own is not measured again, and not named.
    expect(longTextWarnings(record('Dots.md', `---\npublish: true\ntitle: "${'w '.repeat(100)}and so on…"\n---\n`))).toEqual([]);
    expect(cutFrontmatterTexts({ label: words(10), description: words(20), icon: '🌱', banner: 'x.png' })).toEqual([]);
  });
});
