// Bare URLs link as linkify-it finds them (shared/note/link-pretest.ts skips its long
// pretest only for texts that can hold no link): whatever the guard answers "no" for,
// linkify-it's own pretest answers "no" too, and every note renders as it did.
import MarkdownIt from 'markdown-it';
import { describe, expect, it } from 'vitest';
import { guardLinkPretest } from '../../shared/note/link-pretest.ts';
import { seeded } from '../helpers/seeded.ts';

const LINKS = [
  'https://example.com/a?b=c#d', 'http://localhost:3000/x', 'ftp://files.example.org', 'mailto:someone@example.com',
  'someone@example.com', 'www.example.com', 'example.com', 'see example.org.', 'sub.domain.co.uk/path', '//example.com/x',
  'localhost:8080', '127.0.0.1', 'http://127.0.0.1:8080', 'пример.рф', 'xn--e1afmkfd.xn--p1ai', 'a.io', '(https://x.y)',
  '<https://example.com>', 'http://[::1]/', 'example.com:8080/path', 'go to www.example.com now', 'user.name+tag@mail.example.co',
];
const PROSE = [
  'Plain words. Then more words.', 'A sentence ends here.\nAnother line.', 'Nothing to link at all', 'Ellipsis… and dots . . .',
  'Numbers 1 2 3 and a period.', '', ' ', 'e.g. this', 'etc. and so on', 'Note: a colon', 'at @ sign', 'Version 1.2.3',
];

function pair(): { plain: MarkdownIt; guarded: MarkdownIt } {
  const plain = new MarkdownIt({ linkify: true });
  const guarded = new MarkdownIt({ linkify: true });
  guardLinkPretest(guarded);
  return { plain, guarded };
}

describe('the pretest of bare links', () => {
  it('answers "no" only where linkify-it would (known links, prose, and 20,000 texts made of link-like pieces)', () => {
    const { plain, guarded } = pair();
    const pieces = ['.', ':', '@', '/', '//', 'www', 'com', 'org', 'localhost', '1', '127', ' ', '\n', 'x', 'рф', 'http', 'mailto', '-', '_', '…', '#', '?'];
    const next = seeded(7);
    const texts = [...LINKS, ...PROSE];
    for (let i = 0; i < 20_000; i++) texts.push(Array.from({ length: 1 + next(8) }, () => pieces[next(pieces.length)]).join(''));
    let skipped = 0;
    for (const text of texts) {
      const fast = guarded.linkify.pretest(text);
      if (!fast) skipped++;
      expect(fast || !plain.linkify.pretest(text), JSON.stringify(text)).toBe(true);
    }
    for (const link of LINKS) expect(guarded.linkify.pretest(link), link).toBe(true);
    // It does answer at once for most texts (else it would not be worth having).
    expect(skipped).toBeGreaterThan(texts.length / 4);
  });

  it('renders a note with every kind of bare link and plain prose exactly as linkify-it alone does', () => {
    const { plain, guarded } = pair();
    const note = [...LINKS, ...PROSE].map((t, i) => `${i % 3 === 0 ? '- ' : ''}${t}`).join('\n\n');
    const html = guarded.render(note);
    expect(html).toBe(plain.render(note));
    expect(html).toContain('<a href="http://www.example.com">www.example.com</a>');
    expect(html).toContain('<a href="mailto:someone@example.com">someone@example.com</a>');
  });
});
