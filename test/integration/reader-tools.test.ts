// CONTRACT §12: the reader's tools in both layouts, read from the real server: the table
// of contents (three or more headings), every heading's link to itself, the backlinks.
import { describe, expect, it } from 'vitest';
import { blogForFile } from '../fixtures/blog/helpers.ts';
import { GARDEN_FILES } from '../fixtures/garden/vault.ts';

const settings = { siteName: 'Garden', homeNote: 'Home' };
const layouts = {
  garden: blogForFile({ fixture: false, files: GARDEN_FILES, env: { PUBLIC_LAYOUT: 'default' }, settings }),
  blog: blogForFile({ fixture: false, files: GARDEN_FILES, env: { PUBLIC_LAYOUT: 'blog' }, settings }),
};

const tocOf = (html: string) => /<nav class="s-toc"[^>]*>.*?<\/nav>/s.exec(html)?.[0] ?? '';
const backlinksOf = (html: string) => /<section class="s-backlinks">.*?<\/section>/s.exec(html)?.[0] ?? '';
/** Each backlink as `href|title|sentence`. */
const backlinkItems = (html: string) =>
  [...backlinksOf(html).matchAll(/<li><a class="s-backlink" href="([^"]*)">([^<]*)<\/a>(?:<p class="s-backlink-snippet" dir="auto">([^<]*)<\/p>)?<\/li>/g)].map((m) => `${m[1]}|${m[2]}|${m[3] ?? ''}`);
const hrefs = (html: string) => [...html.matchAll(/<a href="([^"]*)">([^<]*)<\/a>/g)].map((m) => `${m[1]} ${m[2]}`);

for (const [name, server] of Object.entries(layouts)) {
  describe(`CONTRACT §12, ${name} layout: the table of contents`, () => {
    it('lists every heading of an article with three or more, each linking its id on the page', async () => {
      const html = (await server.page('/Guide/Install')).text;
      expect(hrefs(tocOf(html))).toEqual(['#requirements Requirements', '#steps Steps', '#check-the-version Check the version', '#troubleshooting Troubleshooting']);
      for (const id of ['requirements', 'steps', 'check-the-version', 'troubleshooting']) expect(html).toContain(`<h${id === 'check-the-version' ? 3 : 2} id="${id}">`);
      // Folded at the top (a <details>, before the body); the stylesheet puts it in the margin at desktop widths.
      expect(html).toMatch(/<\/header>\s*<details class="s-toc-fold"><summary class="s-toc-toggle">On this page<\/summary><nav class="s-toc" aria-label="On this page">.*<\/details>\s*<div class="s-article-body">/s);
      expect(html).toContain('<li class="s-toc-2"><a href="#check-the-version">');
    });

    it('is left out under three headings', async () => {
      expect(tocOf((await server.page('/Loose/Stray')).text)).toBe('');
      expect((await server.page('/Reference/API')).text).not.toContain('s-toc');
    });

    it('every heading has a link to itself named "Link to this section" and its text', async () => {
      const html = (await server.page('/Guide/Install')).text;
      expect(html).toContain('<h2 id="requirements">Requirements<a class="s-anchor" href="#requirements" aria-labelledby="s-anchor-label requirements"></a></h2>');
      expect(html).toContain('<span id="s-anchor-label" hidden>Link to this section</span>');
      expect([...html.matchAll(/class="s-anchor"/g)]).toHaveLength(4);
    });
  });
}

for (const [name, server] of Object.entries(layouts)) {
  describe(`CONTRACT §12, ${name} layout: backlinks`, () => {
    it('"Linked from" lists the published notes linking here, by title, each with the sentence around its link', async () => {
      const html = (await server.page('/Guide/Install')).text;
      expect(backlinksOf(html)).toMatch(/^<section class="s-backlinks"><h2>Linked from<\/h2>/);
      expect(backlinkItems(html)).toEqual([
        '/Reference/API|API|It relies on Install being done first, and on nothing else.',
        '/Guide/Advanced/Configure|Configure|Configuration comes after you install the tool properly.',
        '/Guide/Guide|The Guide|First Install, then Configure.',
      ]);
    });

    it('a draft linking here never appears, nor its title, nor its words', async () => {
      for (const route of ['/Guide/Install', '/Reference/API']) {
        const html = (await server.page(route)).text;
        expect(html, route).not.toContain('Secret Plan Title');
        expect(html, route).not.toContain('Hidden Draft Title');
        expect(html, route).not.toContain('nobody may read');
        expect(html, route).not.toContain('/Drafts/');
      }
      // API is linked from Home (published) and Hidden (a draft): Home alone.
      expect(backlinkItems((await server.page('/Reference/API')).text)).toEqual(['/|Welcome|Start with Guide or read API.']);
    });

    it('a note nothing links to has no backlinks section', async () => {
      expect((await server.page('/Loose/Stray')).text).not.toContain('s-backlinks');
    });
  });
}
