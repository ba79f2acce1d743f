// Bare addresses link as GitHub Flavored Markdown links them (shared/note/bare-links.ts): a URL
// with its scheme, a `www.` host, an email address, and never a bare domain such as a file name.
// The URLs are found exactly where linkify-it's own validator finds them.
import MarkdownIt from 'markdown-it';
import { describe, expect, it } from 'vitest';
import { commentHtml, linkCount } from '../../shared/comments/markdown.ts';
import { markdown } from '../../shared/note/md.ts';
import { linkBareAddresses } from '../../shared/note/bare-links.ts';
import { seeded } from '../helpers/seeded.ts';

const render = (text: string) => markdown().render(text, {});
const links = (html: string) => [...html.matchAll(/<a href="([^"]*)"[^>]*>([^<]*)<\/a>/g)].map((m) => [m[1], m[2]]);

/** linkify-it as it comes, without fuzzy links: what ours must equal on every text without `www.`. */
function stock(): MarkdownIt {
  const md = new MarkdownIt({ linkify: true });
  md.linkify.set({ fuzzyLink: false });
  return md;
}

function ours(options: { passOver?: boolean } = {}): MarkdownIt {
  const md = new MarkdownIt({ linkify: true });
  linkBareAddresses(md, options);
  return md;
}

/**
 * linkify-it as it comes, with GFM's `www.` links read as they were first made here: the text
 * after `www.` appended to `//www.` and read by linkify-it's `http:` expression.
 */
function stockWithWww(): MarkdownIt {
  const md = stock();
  const re = md.linkify.re as unknown as Record<string, string>;
  const http = new RegExp(`^\\/\\/${re.src_auth}${re.src_host_port_strict}${re.src_path}`, 'i');
  md.linkify.add('www.', {
    validate: (text, pos) => Math.max(0, (http.exec('//www.' + text.slice(pos))?.[0].length ?? 0) - '//www.'.length),
    normalize: (match) => {
      match.url = `http://${match.url}`;
    },
  });
  return md;
}

/** Texts of link-like pieces, `count` of them, the same every run. */
function linkLikeTexts(count: number, seed: number, extra: string[] = []): string[] {
  const pieces = ['https://', 'http://', 'ftp://', 'mailto:', '//', 'example', '.', 'com', 'org', 'md', ':', '8080', '@', '/', 'a', '?q=1', '#x', '(', ')', '[', ']', ',', '!', '-', '_', "'", '"', ' ', '\n', 'рф', 'xn--e1afmkfd', '%20', '*', '~', ...extra];
  const next = seeded(seed);
  const texts = ['https://example.com/a?b=c#d', '(https://x.y)', '<https://example.com>', 'http://[::1]/', 'https://user:pw@host.example/p', 'https://пример.рф/путь', 'see https://x.org/a_(b)_c.'];
  const starts = ['', 'https://example.com', 'see http://a.b', 'ftp://x.org/', ...extra];
  for (let i = 0; i < count; i++) texts.push(starts[next(starts.length)] + Array.from({ length: 1 + next(10) }, () => pieces[next(pieces.length)]).join(''));
  return texts;
}

describe('bare addresses', () => {
  it('link with their scheme, as a www. host or as an email address', () => {
    expect(links(render('See https://example.com/a?b=c#d.'))).toEqual([['https://example.com/a?b=c#d', 'https://example.com/a?b=c#d']]);
    expect(links(render('go to www.example.com/path now'))).toEqual([['http://www.example.com/path', 'www.example.com/path']]);
    expect(links(render('(WWW.Example.org).'))).toEqual([['http://WWW.Example.org', 'WWW.Example.org']]);
    expect(links(render('write to someone@example.com or mailto:other@example.org'))).toEqual([
      ['mailto:someone@example.com', 'someone@example.com'],
      ['mailto:other@example.org', 'mailto:other@example.org'],
    ]);
    expect(links(render('ftp://files.example.org and http://localhost:3000/x'))).toEqual([
      ['ftp://files.example.org', 'ftp://files.example.org'],
      ['http://localhost:3000/x', 'http://localhost:3000/x'],
    ]);
  });

  it('never link a bare domain: file names stay text', () => {
    for (const text of ['README.md', 'Edit config.py, then install.sh', 'lib.rs and main.ts', 'example.com', 'v2.io', 'sub.domain.co.uk/path', 'localhost:8080', '127.0.0.1', 'www.', 'e.g. this', 'x_www.example.com']) {
      expect(render(text), text).not.toContain('<a ');
    }
  });

  it('find every URL as linkify-it does (known links and 5,000 texts made of link-like pieces)', () => {
    const theirs = stock();
    const mine = ours();
    let linked = 0;
    for (const text of linkLikeTexts(5_000, 11)) {
      const html = mine.render(text);
      expect(html, JSON.stringify(text)).toBe(theirs.render(text));
      if (html.includes('<a ')) linked++;
    }
    expect(linked).toBeGreaterThan(2_500);
  });

  it('link www. hosts among other links, emails and each other as linkify-it with a www. schema does', () => {
    const theirs = stockWithWww();
    const mine = ours();
    const every = ours({ passOver: false });
    let linked = 0;
    for (const text of linkLikeTexts(8_000, 12, ['www.', 'www.', 'me@', 'x@www.', '//www.', 'WWW.'])) {
      const html = mine.render(text);
      expect(html, JSON.stringify(text)).toBe(theirs.render(text));
      expect(html, JSON.stringify(text)).toBe(every.render(text));
      if (html.includes('<a ')) linked++;
    }
    expect(linked).toBeGreaterThan(4_000);
  });

  // linkify-it reads every candidate of a text to the end of its address before it keeps the
  // first of each overlapping run: a 200 KB note of `www.www.…` took two minutes to parse.
  it('read a run of addresses inside one address once, not once a candidate', () => {
    const mine = ours();
    for (const [text, links] of [
      ['www.'.repeat(50_000), 1],
      ['//a.b/'.repeat(30_000), 1],
      ['x@www.'.repeat(30_000), 15_000],
      ['me@' + 'www.'.repeat(50_000), 1],
    ] as const) {
      const started = performance.now();
      const html = mine.render(text);
      expect(performance.now() - started, text.slice(0, 12)).toBeLessThan(5_000);
      expect(html.split('<a ').length - 1, text.slice(0, 12)).toBe(links);
    }
  });

  it('make a comment no links from file names (they counted against its limit of three)', () => {
    const body = 'Edit README.md, main.py and lib.rs; then see www.example.com';
    expect(linkCount(body)).toBe(1);
    expect(links(commentHtml(body))).toEqual([['http://www.example.com', 'www.example.com']]);
  });
});
