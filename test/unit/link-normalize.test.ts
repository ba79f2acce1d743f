// Link addresses and bare URLs' texts come out as markdown-it's own normalization gives them
// (shared/note/link-normalize.ts answers only the plain web addresses it would give back as
// written): over known tricky addresses and 60,000 made of URL-like pieces, both functions
// agree with markdown-it's, and the fast answer is taken for the common case.
import MarkdownIt from 'markdown-it';
import { describe, expect, it } from 'vitest';
import { guardLinkNormalize } from '../../shared/note/link-normalize.ts';
import { seeded } from '../helpers/seeded.ts';

const KNOWN = [
  'https://example.com/a?b=c#d', 'http://localhost:3000/x', 'HTTP://Example.COM/Path', 'https://example.com', 'https://example.com/',
  'https://xn--e1afmkfd.xn--p1ai/x', 'https://пример.рф/путь', 'https://example.com/a%20b', 'https://example.com/a b', 'https://example.com/%zz',
  'https://user:pass@example.com/', 'https://example.com:99999/', 'http://[::1]/', 'https://example.com/[x]', 'https://ex_ample.com/',
  'https://-example-.com/', 'https://a..b/', 'https://example.com/é', 'https://example.com/"q"', 'https://example.com/<x>', 'https://example.com/\\x',
  'https://example.com/`x`', 'https://example.com/^x', 'https://example.com/{x}', 'https://example.com/|x', 'javascript:alert(1)', '//example.com/x',
  'Note.md', 'folder/Some Note.md', '#heading', 'mailto:someone@example.com', 'https://example.com/@user', 'https://example.com?q=a@b',
  `https://${'a'.repeat(64)}.com/`, `https://${Array.from({ length: 12 }, () => 'ab').join('.')}/`, 'https://example.com/' + 'x'.repeat(3000),
  ' https://example.com/ ', 'https://example.com/\u0000', 'https://EXAMPLE.com:8080/A/B?C=D&E=F#G', 'https://example.com/a;b=c,d(e)*f+g$h!i~j\'k',
];

describe("markdown-it's link normalization with plain addresses answered at once", () => {
  it('gives what markdown-it gives, for every address', () => {
    const plain = new MarkdownIt({ linkify: true });
    const guarded = new MarkdownIt({ linkify: true });
    guardLinkNormalize(guarded);
    const pieces = ['https://', 'http://', 'HTTPS://', '//', 'example', '.com', '.', 'xn--', 'рф', 'é', '%', '%41', '%zz', ':', '8080', '@', '/', '?', '#', '=', '&', ' ', '[', ']', '_', '-', 'A', 'z', '9', '"', "'", '<', '>', '\\', '~', '(', ')', '*', '+', ',', ';', '$', '!', '\u00a0', '\t'];
    const next = seeded(11);
    const urls = [...KNOWN];
    for (let i = 0; i < 60_000; i++) urls.push(pieces[next(5)]! + Array.from({ length: 1 + next(10) }, () => pieces[next(pieces.length)]).join(''));
    for (const url of urls) {
      expect(guarded.normalizeLink(url), JSON.stringify(url)).toBe(plain.normalizeLink(url));
      expect(guarded.normalizeLinkText(url), JSON.stringify(url)).toBe(plain.normalizeLinkText(url));
    }
  });

  it('renders notes the same, links and bare URLs alike', () => {
    const plain = new MarkdownIt({ linkify: true, html: true });
    const guarded = new MarkdownIt({ linkify: true, html: true });
    guardLinkNormalize(guarded);
    const note = KNOWN.map((u, i) => (i % 2 ? `See [this](${u}) now.` : `Bare ${u} here.`)).join('\n\n');
    expect(guarded.render(note)).toBe(plain.render(note));
  });

  it('answers the common address without markdown-it', () => {
    const md = new MarkdownIt({ linkify: true });
    let asked = 0;
    const original = md.normalizeLink.bind(md);
    md.normalizeLink = (url: string) => (asked++, original(url));
    guardLinkNormalize(md);
    expect(md.normalizeLink('https://docs.example.org/guide/start?lang=en#install')).toBe('https://docs.example.org/guide/start?lang=en#install');
    expect(asked).toBe(0);
    md.normalizeLink('https://пример.рф/');
    expect(asked).toBe(1);
  });
});
