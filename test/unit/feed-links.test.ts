// spec D.7, Feed content: the full article in a feed has every link absolute.
import { describe, expect, it } from 'vitest';
import { absoluteLinks } from '../../site/plan/plan-feeds.ts';

const BASE = 'https://notes.example';

describe('absoluteLinks', () => {
  it('site addresses, fragments and relative paths become absolute; other URLs stay', () => {
    const html = [
      '<a href="/Posts/Other">x</a>',
      '<img src="/Posts/pic.png" alt="">',
      '<a href="#fn1">1</a>',
      '<a href="sub/page?x=1&amp;y=2#top">r</a>',
      '<a href="../up.html">u</a>',
      '<a href="https://example.org/x">e</a>',
      '<a href="mailto:a@b.c">m</a>',
      '<a href="//cdn.example/x.js">p</a>',
      '<video poster="/Media/p.jpg"></video>',
    ].join('');
    expect(absoluteLinks(html, BASE, '/Posts/My-note')).toBe(
      [
        `<a href="${BASE}/Posts/Other">x</a>`,
        `<img src="${BASE}/Posts/pic.png" alt="">`,
        `<a href="${BASE}/Posts/My-note#fn1">1</a>`,
        `<a href="${BASE}/Posts/sub/page?x=1&amp;y=2#top">r</a>`,
        `<a href="${BASE}/up.html">u</a>`,
        '<a href="https://example.org/x">e</a>',
        '<a href="mailto:a@b.c">m</a>',
        '<a href="//cdn.example/x.js">p</a>',
        `<video poster="${BASE}/Media/p.jpg"></video>`,
      ].join(''),
    );
  });
});
