// CONTRACT §7: what is derived from a note's text (its word count, its plain text for
// excerpts, descriptions and the feed) and the admin's revision view read it as the
// published article does.
import { describe, expect, it } from 'vitest';
import { previewHtml, type Links } from '../../admin/ui/src/render/preview-document.ts';
import { notePreview } from '../../admin/ui/server/preview.ts';
import { analyzeNote } from '../../shared/note/analyze.ts';
import { buildRecord } from '../../shared/model/note-record.ts';
import type { VaultPath } from '../../shared/vault-path.ts';
import { publicMarkdown } from '../../shared/note/comments.ts';
import { countWords, excerptOf } from '../../shared/note/excerpt.ts';
import { renderNoteHtml, type RenderLinks } from '../../shared/note/markdown.ts';
import { texText } from '../../shared/note/plain-text.ts';
import { publicText } from '../../shared/note/public-text.ts';

/** The count a published note really carries (note-record.ts: one parse of its public Markdown). */
const publishedWords = (body: string) => analyzeNote(publicMarkdown(body)).words;

describe('the word count of a published note', () => {
  it('counts the prose and leaves out %% comments, block ids, # marks, embeds and code', () => {
    const body = [
      '# Heading here',
      '',
      'One two three. ^block-id',
      '',
      'Words %% four secret words %% after.',
      '',
      '%%',
      'A whole private block of many words',
      '%%',
      '',
      '#tagged and # alone',
      '',
      '![[Other note]] ![[pic.png]]',
      '',
      '```js',
      'const codeWords = 1;',
      '```',
      '',
      '    indented code words',
      '',
      '- item ^item-id',
    ].join('\n');
    // Heading here (2), One two three (3), Words after (2), tagged and alone (3), item (1).
    expect(publishedWords(body)).toBe(11);
    // The same as the count made from the public blocks (the admin's and a .md without facts).
    expect(countWords(body)).toBe(11);
  });

  it('a comment holding a whole section leaves none of its words', () => {
    expect(publishedWords('Kept.\n\n%%\n## Secret heading\n\nSecret text here.\n%%')).toBe(1);
  });
});

describe('inline script and style elements are code, not prose', () => {
  it('their text is in no excerpt, word count or search text; the words around them are', () => {
    const body = 'Raw html: <script>alert(10)</script>just <style>p { color: red }</style>words <b>bold</b>.';
    const facts = analyzeNote(body, 'A note');
    expect(facts.excerpt).toBe('Raw html: just words bold.');
    expect(facts.text).not.toMatch(/alert|color/);
    expect(facts.words).toBe(5);
    expect(countWords(body)).toBe(5);
  });
});

describe("a note's banner (og:image, cards) when none is named", () => {
  const banner = (body: string, front = '') => buildRecord({ path: 'N.md' as VaultPath, text: `---\npublish: true\n${front}---\n${body}`, createdMs: null, fileMs: 0 }).banner;
  it('is the first image the note shows, never one it only links to', () => {
    expect(banner('See [the chart](chart.png) and [[diagram.png]].\n\n![[shown.png]] ![](later.jpg)')).toBe('shown.png');
    expect(banner('First ![](first.webp) then ![[second.png]]')).toBe('first.webp');
    expect(banner('Only [a link](linked.png) and [[also-linked.gif]]; ![[a note]] is no image.')).toBeNull();
  });
  it('a named banner wins', () => {
    expect(banner('![[shown.png]]', 'cover: "[[cover.jpg]]"\n')).toBe('cover.jpg');
  });
  // A probe of blogs brought from Hugo, Ghost and Jekyll: their themes' picture keys gave no og:image and a bare card.
  it('is read where the blogs people bring keep it: Hugo themes, Ghost, Jekyll\'s Minimal Mistakes', () => {
    expect(banner('![[shown.png]]', 'featured_image: /images/gohugo-default-sample-hero-image.jpg\n')).toBe('/images/gohugo-default-sample-hero-image.jpg');
    expect(banner('Text.', 'cover:\n  image: images/cover.png\n  alt: A cover\n')).toBe('images/cover.png');
    expect(banner('Text.', 'images:\n  - https://example.org/a.jpg\n  - b.jpg\n')).toBe('https://example.org/a.jpg');
    expect(banner('Text.', 'feature_image: https://example.org/ghost.jpg\n')).toBe('https://example.org/ghost.jpg');
    expect(banner('Text.', 'header:\n  overlay_filter: 0.5\n  teaser: /assets/teaser.jpg\n')).toBe('/assets/teaser.jpg');
    // Obsidian's own keys first, whatever else the note holds.
    expect(banner('Text.', 'featured_image: old.jpg\nbanner: "[[new.png]]"\n')).toBe('new.png');
    expect(banner('Text.', 'cover:\n  alt: no picture\n')).toBeNull();
  });
});

describe('inline math in plain text is read, not TeX', () => {
  it('commands become what they mean or go; fractions read a/b', () => {
    expect(texText('\\frac{a}{b}')).toBe('a/b');
    expect(texText('\\alpha + \\beta \\le \\infty')).toBe('α + β ≤ ∞');
    expect(texText('\\text{km} \\cdot \\mathrm{h}^{-1}')).toBe('km · h^-1');
    expect(texText('x^2')).toBe('x^2');
  });

  it('in the excerpt (meta description, feed) and the search text, no backslash command is left', () => {
    const body = 'The ratio $\\frac{a}{b}$ is near $\\pi \\approx 3.14$ for $x \\in \\mathbb{R}$.';
    expect(excerptOf(body)).toBe('The ratio a/b is near π ≈ 3.14 for x ∈ R.');
    const facts = analyzeNote(publicMarkdown(body), 'T');
    expect(facts.excerpt).toBe('The ratio a/b is near π ≈ 3.14 for x ∈ R.');
    expect(facts.text).not.toMatch(/\\[a-z]/i);
    expect(publicText(body)).not.toMatch(/\\[a-z]/i);
  });
});

describe('the admin’s revision view renders as the article does', () => {
  it('a note with a callout and %% comments: the same HTML as the shared renderer', () => {
    const body =
      '# A revision\n\nIntro with a %% private remark %% and [[Other]].\n\n' +
      '> [!warning]- Careful **now** with [[Other]]\n> Inside %% also private %% the callout. ^c1\n\n' +
      '%%\nA whole private block\n%%\n\nEnding with ==a mark== and $x^2$.\n';
    const text = `---\ntitle: A revision\npublish: true\n---\n${body}`;
    const adminLinks: Links = { note: (t) => (t === 'Other' ? '/admin/note/Other' : null), attachment: () => null };
    const shared: RenderLinks = {
      note: (t) => (t === 'Other' ? { href: '/admin/note/Other', title: t } : null),
      attachment: () => null,
    };
    const revision = notePreview('Folder/A revision.md' as VaultPath, text);
    const html = previewHtml({ ...revision, stylesheets: null }, adminLinks);
    expect(revision.title).toBe('A revision');
    expect(html).toBe(renderNoteHtml(body, 'A revision', shared));
    expect(html).toContain('data-callout="warning"');
    expect(html).not.toContain('private');
  });

  it('a drawing’s own note previews as its exported picture, named as the plugin names it, as its page shows it', () => {
    const drawing = notePreview('Drawings/Plan.excalidraw.md' as VaultPath, '---\nexcalidraw-plugin: parsed\n---\n# Text Elements\nSCENE-TEXT ^abc\n');
    expect(drawing.title).toBe('Plan');
    expect(drawing.prepared.slots).toEqual([{ kind: 'wiki', meta: { target: 'Drawings/Plan.excalidraw', subpath: [], alias: null, embed: true } }]);
    expect(drawing.prepared.html).not.toContain('SCENE-TEXT');
  });
});

// A Kanban card's lines and a table cell's are joined by `<br>`: the words either side were glued (`diveinvesting`), in the search index, the excerpt and the word count.
describe('words either side of an inline <br> or block tag', () => {
  it('stay two words in the text, the excerpt and the count', () => {
    const facts = analyzeNote(publicMarkdown('- [ ] **(2 hours)**<br>Investopedia deep-dive<br>#investing\n\n| a |\n|---|\n| Gym<br>Groceries<br/>Laundry |\n'), 'T');
    expect(facts.text).toContain('deep-dive\ninvesting');
    expect(facts.text).toContain('Gym\nGroceries\nLaundry');
    expect(facts.excerpt).toBe('(2 hours) Investopedia deep-dive investing');
    expect(facts.words).toBe(9);
    expect(countWords('Gym<br>Groceries<br>Laundry')).toBe(3);
  });
});
