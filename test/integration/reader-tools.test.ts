// CONTRACT §12: the reader's tools in both layouts, read from the real server: the table
// of contents (three or more headings), every heading's link to itself, the backlinks.
import { describe, expect, it } from 'vitest';
import { blogForFile } from '../fixtures/blog/helpers.ts';
import { GARDEN_FILES } from '../fixtures/garden/vault.ts';

const settings = { siteName: 'Garden', homeNote: 'Home' };
// A hub linking 45 notes: more neighbours than one drawing holds.
const HUB: Record<string, string> = { 'Hub/Hub.md': `---\npublish: true\ntitle: Hub\n---\n\n${Array.from({ length: 45 }, (_, i) => `[[Spoke ${String(i).padStart(2, '0')}]]`).join(' ')}\n` };
for (let i = 0; i < 45; i++) HUB[`Hub/Spoke ${String(i).padStart(2, '0')}.md`] = `---\npublish: true\n---\n\nA spoke${i === 1 ? ', linking [[Spoke 02]]' : ''}.\n`;
// A note linked from 105 notes, linking one note whose title sorts last.
const STAR: Record<string, string> = { 'Fans/Star.md': '---\npublish: true\n---\n\nThe star links [[Zulu]].\n', 'Fans/Zulu.md': '---\npublish: true\n---\n\nLast by title.\n' };
for (let i = 0; i < 105; i++) STAR[`Fans/Fan ${String(i).padStart(3, '0')}.md`] = `---\npublish: true\n---\n\nFan ${i} admires [[Star]].\n`;
// A sentence with math around its link, linking a note with none.
const PHYSICS: Record<string, string> = {
  'Physics/Energy.md': '---\npublish: true\n---\n\nThe energy $E=mc^2$ comes from [[Mass]] at rest. Code `$x$` stays code.\n',
  'Physics/Mass.md': '---\npublish: true\n---\n\nWhat resists a push.\n',
};
// Links written in properties, as Obsidian counts them: a parent named by `up`, a list of related notes.
const FAMILY: Record<string, string> = {
  'Family/Parent.md': '---\npublish: true\n---\n\nThe parent.\n',
  'Family/Child.md': '---\npublish: true\nup: "[[Parent]]"\n---\n\nNo link in the text.\n',
  'Family/Cousin.md': '---\npublish: true\nrelated:\n  - "[[Parent|the parent]]"\n  - "[[Nobody]]"\naliases: ["[[Not a link]]"]\n---\n\nAlso none.\n',
  'Family/Secret.md': '---\nup: "[[Parent]]"\n---\n\nA draft.\n',
};
const files = { ...GARDEN_FILES, ...HUB, ...STAR, ...PHYSICS, ...FAMILY };
const layouts = {
  garden: blogForFile({ fixture: false, files, env: { PUBLIC_LAYOUT: 'default' }, settings }),
  blog: blogForFile({ fixture: false, files, env: { PUBLIC_LAYOUT: 'blog' }, settings }),
};

const tocOf = (html: string) => /<nav class="s-toc"[^>]*>.*?<\/nav>/s.exec(html)?.[0] ?? '';
const backlinksOf = (html: string) => /<section class="s-backlinks"[^>]*>.*?<\/section>/s.exec(html)?.[0] ?? '';
/** Each backlink as `href|title|sentence` (the sentence without its links' isolates). */
const backlinkItems = (html: string) =>
  [...backlinksOf(html).matchAll(/<li dir="auto"><a class="s-backlink" href="([^"]*)">([^<]*)<\/a>(?:<p class="s-backlink-snippet" dir="auto">([^<]*)<\/p>)?<\/li>/g)].map((m) => `${m[1]}|${m[2]}|${(m[3] ?? '').replace(/[\u2068\u2069]/g, '')}`);
const graphOf = (html: string) => /<svg class="s-graph"[^>]*>.*?<\/svg>/s.exec(html)?.[0] ?? '';
const graphLinks = (html: string) => [...graphOf(html).matchAll(/<a class="s-graph-node(?: s-graph-quiet)?" href="([^"]*)"><title>([^<]*)<\/title>/g)].map((m) => `${m[1]}|${m[2]}`);
const hrefs = (html: string) => [...html.matchAll(/<a href="([^"]*)">([^<]*)<\/a>/g)].map((m) => `${m[1]} ${m[2]}`);

for (const [name, server] of Object.entries(layouts)) {
  describe(`CONTRACT §12, ${name} layout: the table of contents`, () => {
    it('lists every heading of an article with three or more, each linking its id on the page', async () => {
      const html = (await server.page('/Guide/Install')).text;
      expect(hrefs(tocOf(html))).toEqual(['#requirements Requirements', '#steps Steps', '#check-the-version Check the version', '#troubleshooting Troubleshooting']);
      for (const id of ['requirements', 'steps', 'check-the-version', 'troubleshooting']) expect(html).toContain(`<h${id === 'check-the-version' ? 3 : 2} id="${id}">`);
      // Folded at the top (a <details>, before the body); the stylesheet puts it in the margin at desktop widths.
      expect(html).toMatch(/<\/header>\s*<details class="s-toc-fold"><summary class="s-toc-toggle" lang="en" dir="ltr">On this page<\/summary><nav class="s-toc" aria-label="On this page">.*<\/details>\s*<div class="s-article-body"/s);
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
      expect(backlinksOf(html)).toMatch(/^<section class="s-backlinks" lang="en" dir="ltr"><h2>Linked from<\/h2>/);
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

    it('a note linked from more than a hundred lists every one: the first hundred with their sentence, the rest folded by title under their count', async () => {
      const html = (await server.page('/Fans/Star')).text;
      const items = backlinkItems(html);
      expect(items).toHaveLength(105);
      expect(items[0]).toBe('/Fans/Fan-000|Fan 000|Fan 0 admires Star.');
      expect(items[99]).toBe('/Fans/Fan-099|Fan 099|Fan 99 admires Star.');
      expect(items.slice(100)).toEqual(['/Fans/Fan-100|Fan 100|', '/Fans/Fan-101|Fan 101|', '/Fans/Fan-102|Fan 102|', '/Fans/Fan-103|Fan 103|', '/Fans/Fan-104|Fan 104|']);
      expect(backlinksOf(html)).toContain('<details class="s-backlinks-more"><summary>5 more notes</summary><ul><li dir="auto"><a class="s-backlink" href="/Fans/Fan-100">');
    });

    it("draws a sentence's math as the article draws it (KaTeX at build time, no script), and the page loads KaTeX's stylesheet", async () => {
      const html = (await server.page('/Physics/Mass')).text;
      const snippet = /<p class="s-backlink-snippet" dir="auto">(.*?)<\/p><\/li>/s.exec(backlinksOf(html))?.[1] ?? '';
      expect(snippet).toMatch(/^The energy <span class="katex" dir="ltr"><span class="katex-mathml"><math xmlns="http:\/\/www.w3.org\/1998\/Math\/MathML">/);
      expect(snippet).toContain('<annotation encoding="application/x-tex">E=mc^2</annotation>');
      expect(snippet).toMatch(/<\/span> comes from \u2068Mass\u2069 at rest\.$/);
      expect(snippet).not.toContain('$');
      expect(html).toMatch(/<link rel="stylesheet" href="[^"]*katex[^"]*" data-katex>/);
      expect(backlinksOf(html)).not.toContain('<script');
    });

    it("a link in a note's properties counts, as in Obsidian: \"Linked from\" names the property, the graph draws it", async () => {
      const html = (await server.page('/Family/Parent')).text;
      expect(backlinkItems(html)).toEqual(['/Family/Child|Child|up: Parent', '/Family/Cousin|Cousin|related: the parent']);
      expect(graphLinks(html)).toEqual(['/Family/Child|Child', '/Family/Cousin|Cousin']);
      expect(graphLinks((await server.page('/Family/Child')).text)).toEqual(['/Family/Parent|Parent']);
    });

    it('a note nothing links to has no backlinks section', async () => {
      expect((await server.page('/Loose/Stray')).text).not.toContain('s-backlinks');
    });
  });
}

for (const [name, server] of Object.entries(layouts)) {
  describe(`CONTRACT §12, ${name} layout: the local graph`, () => {
    it('draws the note and each published neighbour (links in and out) as one link, in an SVG with no script', async () => {
      const html = (await server.page('/Guide/Install')).text;
      const svg = graphOf(html);
      expect(svg).toMatch(/^<svg class="s-graph" viewBox="0 0 \d+ \d+" role="group" aria-label="Linked notes">/);
      expect(svg).not.toContain('<script');
      expect(graphLinks(html)).toEqual(['/Reference/API|API', '/Guide/Advanced/Configure|Configure', '/Guide/Guide|The Guide', '/Guide/Advanced/Tuning|Tuning']);
      expect(svg).toMatch(/<g class="s-graph-node s-graph-here" aria-current="page"><circle [^>]*\/><text [^>]*>Install<\/text><\/g>/);
      // Every neighbour joined to the note; the Guide links Configure too (a fainter line among neighbours).
      expect([...svg.matchAll(/<line class="s-graph-edge"/g)]).toHaveLength(4);
      expect([...svg.matchAll(/<line class="s-graph-edge s-graph-far"/g)]).toHaveLength(1);
    });

    it('never draws a draft or its title', async () => {
      const html = (await server.page('/Reference/API')).text;
      expect(graphLinks(html)).toEqual(['/Guide/Install|Install', '/|Welcome']);
      expect(graphOf(html)).not.toMatch(/Hidden|Secret/);
    });

    it('holds at most 40 nodes', async () => {
      const svg = graphOf((await server.page('/Hub/Hub')).text);
      expect([...svg.matchAll(/<circle /g)]).toHaveLength(40);
      // The hub links every one of them: each keeps its label.
      expect(svg).not.toContain('s-graph-quiet');
      expect(graphOf((await server.page('/Hub/Spoke-01')).text)).not.toContain('s-graph-quiet');
      expect(graphLinks((await server.page('/Hub/Hub')).text)[0]).toBe('/Hub/Spoke-00|Spoke 00');
      // A spoke's drawing: the hub, and the spoke it links.
      expect(graphLinks((await server.page('/Hub/Spoke-01')).text)).toEqual(['/Hub/Hub|Hub', '/Hub/Spoke-02|Spoke 02']);
    });

    it('a note with more neighbours than the drawing holds keeps the notes it links to, however they sort', async () => {
      const links = graphLinks((await server.page('/Fans/Star')).text);
      expect(links).toHaveLength(39);
      expect(links).toContain('/Fans/Zulu|Zulu');
      expect(links[0]).toBe('/Fans/Fan-000|Fan 000');
      // Too full for every label: the inner ring's (every other neighbour) wait for hover or focus, but the note it links to.
      const svg = graphOf((await server.page('/Fans/Star')).text);
      expect([...svg.matchAll(/<a class="s-graph-node s-graph-quiet"/g)]).toHaveLength(19);
      expect(svg).toContain('<a class="s-graph-node" href="/Fans/Zulu">');
    });

    it('is left out for a note with no neighbours', async () => {
      expect((await server.page('/Loose/Stray')).text).not.toContain('s-graph');
    });
  });
}
