// An embedded image's markup (shared/note/picture.ts): the shown size keeps the original's
// proportions whatever the author gave, the srcset's `sizes` is the column or the author's
// width, only the page's first image near the top loads at once, and the sanitiser a note
// with raw HTML goes through keeps every attribute.
import { describe, expect, it } from 'vitest';
import { imageTagHtml, type ImageView } from '../../shared/note/picture.ts';
import { sanitizeNoteHtml } from '../../shared/note/sanitize.ts';
import type { EmbedFrame } from '../../shared/note/env.ts';

const made: ImageView = {
  src: '/a%20b.png',
  width: 1600,
  height: 1000,
  webp: [
    { url: '/_img/k/320.webp', width: 320 },
    { url: '/_img/k/640.webp', width: 640 },
  ],
};
const frame = (at: number): EmbedFrame => ({ ids: new Set(), stack: [], count: 0, at });

describe('imageTagHtml', () => {
  it('gives the original size, or the author\'s with the other side in proportion', () => {
    expect(imageTagHtml(made, { alt: 'x' })).toContain('width="1600" height="1000"');
    expect(imageTagHtml(made, { alt: 'x', width: '300' })).toContain('width="300" height="188"');
    expect(imageTagHtml(made, { alt: 'x', height: '100' })).toContain('width="160" height="100"');
    expect(imageTagHtml(made, { alt: 'x', width: '300', height: '50' })).toContain('width="300" height="50"');
    // Not made yet: the author's size alone, as before.
    expect(imageTagHtml({ src: '/a.png' }, { alt: 'x', width: '300' })).toBe('<img src="/a.png" alt="x" width="300" loading="lazy" decoding="async">');
  });

  it('offers the copies for the column, or for the author\'s narrower width', () => {
    expect(imageTagHtml(made, { alt: 'x' })).toBe(
      '<picture><source type="image/webp" srcset="/_img/k/320.webp 320w, /_img/k/640.webp 640w" sizes="(max-width: 704px) 100vw, 704px">' +
        '<img src="/a%20b.png" alt="x" width="1600" height="1000" loading="lazy" decoding="async"></picture>',
    );
    expect(imageTagHtml(made, { alt: 'x', width: '300' })).toContain('sizes="(max-width: 300px) 100vw, 300px"');
    // A feed's view has no copies: a plain image with its size.
    expect(imageTagHtml({ src: '/a.png', width: 10, height: 20 }, { alt: '"q"' })).toBe('<img src="/a.png" alt="&quot;q&quot;" width="10" height="20" loading="lazy" decoding="async">');
  });

  it('loads at once only the first image of a page, and only near its top', () => {
    const top = frame(200);
    expect(imageTagHtml(made, { alt: 'x' }, top)).not.toContain('loading=');
    top.at = 300;
    expect(imageTagHtml(made, { alt: 'x' }, top)).toContain('loading="lazy"');
    expect(imageTagHtml(made, { alt: 'x' }, frame(5000))).toContain('loading="lazy"');
    // No page (the admin's view): lazy.
    expect(imageTagHtml(made, { alt: 'x' })).toContain('loading="lazy"');
  });

  it('survives the sanitiser whole', () => {
    const html = imageTagHtml(made, { alt: 'x', title: 't' }, frame(0)) + imageTagHtml(made, { alt: 'y' }, frame(0));
    // Written back with void elements closed XML-style (`<img … />`), which HTML reads the same.
    expect(sanitizeNoteHtml(html).replaceAll(' />', '>')).toBe(html);
  });
});
