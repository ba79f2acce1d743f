// CONTRACT §12: the reader's tools in both layouts, read from the real server: the table
// of contents (three or more headings), every heading's link to itself.
import { describe, expect, it } from 'vitest';
import { blogForFile } from '../fixtures/blog/helpers.ts';
import { GARDEN_FILES } from '../fixtures/garden/vault.ts';

const settings = { siteName: 'Garden', homeNote: 'Home' };
const layouts = {
  garden: blogForFile({ fixture: false, files: GARDEN_FILES, env: { PUBLIC_LAYOUT: 'default' }, settings }),
  blog: blogForFile({ fixture: false, files: GARDEN_FILES, env: { PUBLIC_LAYOUT: 'blog' }, settings }),
};

const tocOf = (html: string) => /<nav class="s-toc"[^>]*>.*?<\/nav>/s.exec(html)?.[0] ?? '';
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
