// spec D.7, Feed content: the full article in a feed has every link absolute.
import { describe, expect, it } from 'vitest';
import { imageTagHtml } from '../../shared/note/picture.ts';
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

  it("a picture's smaller copies (its srcset, as the renderer writes one) become absolute too", () => {
    const view = { src: '/Posts/photo.png', width: 2400, height: 1200, webp: [400, 800, 1600].map((w) => ({ url: `/_img/photo-${w}.webp`, width: w })) };
    const html = absoluteLinks(imageTagHtml(view as never, { alt: 'A photo', width: null, height: null } as never), BASE, '/Posts/My-note');
    expect(html).toContain(`srcset="${BASE}/_img/photo-400.webp 400w, ${BASE}/_img/photo-800.webp 800w, ${BASE}/_img/photo-1600.webp 1600w"`);
    expect(html).toContain(`src="${BASE}/Posts/photo.png"`);
    expect(absoluteLinks('<img src="/a.png" srcset="https://cdn.example/a.png 1x, /a-2x.png 2x, pics/a-3x.png 3x">', BASE, '/Posts/My-note')).toBe(
      `<img src="${BASE}/a.png" srcset="https://cdn.example/a.png 1x, ${BASE}/a-2x.png 2x, ${BASE}/Posts/pics/a-3x.png 3x">`,
    );
  });
});
