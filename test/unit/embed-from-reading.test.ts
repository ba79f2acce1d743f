// A whole note embedded in a page is made from the rendering its own page uses (made as it
// was read), not from its text parsed again, and is what a parse would give, byte for byte.
// An embed's rendering is reused on other pages only when nothing in it depends on where it
// sits: an embed inside it left out for nesting too deep, for a cycle or for the page's budget
// makes it the page's own.
import { describe, expect, it, vi } from 'vitest';
import { analyzeNote } from '../../shared/note/analyze.ts';
import { forgetEmbedParses, MAX_EMBED_DEPTH, MAX_EMBEDS_PER_PAGE, renderEmbedHtml, renderNoteHtml, type EmbedFrame, type PreparedHtml, type RenderLinks } from '../../shared/note/markdown.ts';
import { markdown } from '../../shared/note/md.ts';

/** Notes as a vault holds them: each rendered once as read, as the site's records are. */
function vault(bodies: Record<string, string>) {
  const prepared = new Map<string, PreparedHtml | null>(Object.entries(bodies).map(([name, body]) => [name, analyzeNote(body, name).prepared]));
  /** Links as a page of the site gives them (site/plan/note-bodies.ts): the renderer keeps the stack and cuts a cycle. */
  const linksOf = (useReading: boolean, memo: boolean): RenderLinks => {
    const links: RenderLinks = {
      note: (t) => (t in bodies ? { href: `/${t}`, title: t } : null),
      attachment: (t) => (t.endsWith('.png') ? `/${t}` : null),
      tag: (t) => `/topic/${t}`,
      embed: (ref, frame) => {
        if (!(ref.target in bodies)) return null;
        const source = { path: ref.target, href: `/${ref.target}`, title: ref.target, prepared: useReading ? prepared.get(ref.target) : null };
        return renderEmbedHtml(bodies[ref.target]!, ref, links, frame, source, memo ? `${ref.target}\u0000true` : undefined);
      },
    };
    return links;
  };
  const page = (body: string, name: string, useReading: boolean, memo = true) => renderNoteHtml(body, name, linksOf(useReading, memo), false, name);
  return { page, linksOf };
}

const NOTES: Record<string, string> = {
  Plain: 'A paragraph with [[Plain]] and [[Missing]], a #tag, **bold** and `code`.\n\n- a list item ^item\n  - nested\n',
  Headed: '# Headed\n\nIts title is its first heading.\n\n## Part\n\nText ^para\n',
  LinkedTitle: '# [[Plain|Plain]] notes\n\nA title heading holding a link.\n',
  Raw: 'Before <span class="x" onclick="alert(1)">raw</span> after.\n\n<div>\n\n**inside**\n\n</div>\n\n<script>alert(1)</script>\n',
  Footnoted: 'Text with a note[^1].\n\n[^1]: The note.\n',
  Repeats: 'One ^same\n\nTwo ^same\n',
  Picture: 'Look: ![[shot.png]]\n\n```js\nconst a = 1;\n```\n\n$$x^2$$\n',
  Nesting: 'Outer text\n\n![[Plain]]\n\nafter\n',
  Callout: '> [!note] A callout\n> With [[Headed#Part|a section link]].\n',
  Blocks: '```js\nx\n```\n\n^codeb\n\n<details><summary>S</summary>\n\nBody [x](Missing.md)\n\n</details> ^det\n\n<div> ^open\n\n> a quote ^qid\n',
};

describe('a whole note embedded from its rendering at reading', () => {
  it('is byte for byte what its text parsed again gives, on a page of its own ids or of colliding ones', () => {
    const v = vault(NOTES);
    const hosts = ['Host text\n\n', '## Part\n\nMine ^para ^item\n\n', '# Headed\n\n## Plain\n\n'];
    for (const name of Object.keys(NOTES)) {
      for (const host of hosts) {
        const body = `${host}![[${name}]]\n\n![[${name}]]\n`;
        forgetEmbedParses();
        const fromText = v.page(body, 'Host', false);
        forgetEmbedParses();
        const fromReading = v.page(body, 'Host', true);
        expect(fromReading, `${name} in ${JSON.stringify(host)}`).toBe(fromText);
      }
    }
    forgetEmbedParses();
  });

  it('parses nothing when the rendering serves', () => {
    const v = vault(NOTES);
    forgetEmbedParses();
    const parse = vi.spyOn(markdown(), 'parse');
    try {
      const frame: EmbedFrame = { ids: new Set(), stack: [{ note: 'Host', line: -1 }], count: 0 };
      const prepared = analyzeNote(NOTES.Plain!, 'Plain').prepared;
      parse.mockClear();
      const html = renderEmbedHtml(NOTES.Plain!, { target: 'Plain', subpath: [], alias: null }, v.linksOf(true, true), frame, { href: '/Plain', title: 'Plain', prepared });
      expect(html).toContain('A paragraph with');
      expect(parse).not.toHaveBeenCalled();
    } finally {
      parse.mockRestore();
      forgetEmbedParses();
    }
  });
});

describe('an embed rendered once a pass serves other pages only when it holds nothing placed by its page', () => {
  // A chain deeper than embeds nest: A › B › … each embedding the next.
  const chain: Record<string, string> = {};
  const depth = MAX_EMBED_DEPTH + 2;
  for (let i = 0; i < depth; i++) chain[`N${i}`] = `Level ${i}\n\n${i + 1 < depth ? `![[N${i + 1}]]\n` : ''}`;

  for (const useReading of [false, true]) {
    const from = useReading ? 'from the reading' : 'from the text';
    it(`a render cut short by nesting depth is not reused where there is room (${from})`, () => {
      const v = vault(chain);
      forgetEmbedParses();
      // Deep first: N4 sits at the last level that shows, so its own embed of N5 is left out...
      const deep = v.page(`![[N${depth - MAX_EMBED_DEPTH + 1}]]\n`, 'Top', useReading);
      expect(deep).toContain(`Level ${depth - 2}`);
      expect(deep).not.toContain(`Level ${depth - 1}`);
      // ...and a page embedding N4 directly shows N5 in it.
      const shallow = v.page(`![[N${depth - 2}]]\n`, 'Other', useReading);
      expect(shallow).toContain(`Level ${depth - 1}`);
      forgetEmbedParses();
      expect(shallow).toBe(v.page(`![[N${depth - 2}]]\n`, 'Other', useReading, false));
      forgetEmbedParses();
    });

    it(`a render that stopped a cycle at its page is not reused on another page (${from})`, () => {
      const v = vault({ Loop: 'Loop text\n\n![[Host]]\n', Host: 'Host text\n\n![[Loop]]\n', Third: 'Third text\n\n![[Loop]]\n' });
      forgetEmbedParses();
      // On Host's page, Loop's embed of Host is cut (Host is the page).
      const host = v.page('Host text\n\n![[Loop]]\n', 'Host', useReading);
      expect(host.match(/Host text/g)).toHaveLength(1);
      // On Third's page, Loop shows Host, which shows Loop no more (a cycle).
      const third = v.page('Third text\n\n![[Loop]]\n', 'Third', useReading);
      expect(third).toContain('data-embed="Host"');
      forgetEmbedParses();
      expect(third).toBe(v.page('Third text\n\n![[Loop]]\n', 'Third', useReading, false));
      forgetEmbedParses();
    });

    it(`a render past its page's embed budget is not reused on a page with room (${from})`, () => {
      const many: Record<string, string> = { Holder: 'Holder text\n\n![[Leaf]]\n', Leaf: 'Leaf text\n' };
      for (let i = 0; i < MAX_EMBEDS_PER_PAGE; i++) many[`F${i}`] = `Filler ${i}\n`;
      const v = vault(many);
      forgetEmbedParses();
      const fillers = Array.from({ length: MAX_EMBEDS_PER_PAGE - 1 }, (_, i) => `![[F${i}]]`).join('\n\n');
      // The budget runs out inside Holder: its Leaf becomes a link on this page.
      const crowded = v.page(`${fillers}\n\n![[Holder]]\n`, 'Crowded', useReading);
      expect(crowded).not.toContain('Leaf text');
      const roomy = v.page('![[Holder]]\n', 'Roomy', useReading);
      expect(roomy).toContain('Leaf text');
      forgetEmbedParses();
    });
  }
});

describe('an embed stops only where it would show itself (Obsidian: a note may show its own sections and blocks)', () => {
  const SELF = '## Part A\n\nAlpha paragraph. ^alpha\n\n## Part B\n\n![[Self#^alpha]]\n![[Self#Part A]]\n';
  const embeds = (html: string) => html.match(/class="s-embed markdown-embed"/g)?.length ?? 0;
  /** Each page of `notes` made in one pass with every reuse on, then against a build that reuses no embed's rendering. */
  const pages = (notes: Record<string, string>): Record<string, string> => {
    const v = vault(notes);
    const out: Record<string, string> = {};
    for (const useReading of [true, false]) {
      forgetEmbedParses();
      for (const name of Object.keys(notes)) {
        const html = v.page(notes[name]!, name, useReading, useReading);
        if (useReading) out[name] = html;
        else expect(out[name], `${name}: as a build that reuses nothing`).toBe(html);
      }
    }
    forgetEmbedParses();
    return out;
  };

  it("a note's own block and its own other section show on its page and where it is embedded", () => {
    const page = pages({ Self: SELF, Host: 'Host text\n\n![[Self]]\n' });
    expect(embeds(page.Self!)).toBe(2);
    expect(page.Self!.match(/Alpha paragraph\./g)).toHaveLength(3);
    expect(page.Self).toContain('data-embed="Self#^alpha"');
    expect(page.Self).toContain('data-embed="Self#Part A"');
    // Embedded whole elsewhere, the note brings both along.
    expect(embeds(page.Host!)).toBe(3);
    expect(page.Host!.match(/Alpha paragraph\./g)).toHaveLength(3);
  });

  it('a section embedding the section it is in, a block embedding itself and a note embedding itself whole stop', () => {
    const page = pages({
      Section: '## Part A\n\nText A\n\n## Part B\n\nText B\n\n![[Section#Part B]]\n\n### Under B\n\n![[Section#Part B]]\n',
      Block: 'Para ![[Block#^b]] ^b\n\n- item ![[Block#^li]] ^li\n',
      Whole: 'Whole text\n\n![[Whole]]\n',
    });
    expect(embeds(page.Section!)).toBe(0);
    expect(page.Section!.match(/Text B/g)).toHaveLength(1);
    expect(embeds(page.Block!)).toBe(0);
    expect(embeds(page.Whole!)).toBe(0);
  });

  it('two notes embedding each other whole stop at the first repeat', () => {
    const page = pages({ A: 'A text\n\n![[B]]\n', B: 'B text\n\n![[A]]\n', Third: '![[A]]\n' });
    expect(page.A!.match(/A text/g)).toHaveLength(1);
    expect(page.A!.match(/B text/g)).toHaveLength(1);
    // Elsewhere: A, in it B, and A again no more.
    expect(page.Third!.match(/A text/g)).toHaveLength(1);
    expect(page.Third!.match(/B text/g)).toHaveLength(1);
  });

  it("sections across two notes show when neither holds the other's embed: A's first section embeds B, B embeds A's second", () => {
    const notes = {
      A: '## One\n\nONE text\n\n![[B]]\n\n## Two\n\nTWO text\n',
      B: 'B text\n\n![[A#Two]]\n',
      // A section holding the embed that leads to it stops: C's One embeds D, D embeds C's One.
      C: '## One\n\nC-ONE text\n\n![[D]]\n',
      D: 'D text\n\n![[C#One]]\n',
    };
    const page = pages(notes);
    expect(page.A!.match(/TWO text/g)).toHaveLength(2);
    expect(page.A).toContain('data-embed="A#Two"');
    expect(page.B!.match(/TWO text/g)).toHaveLength(1);
    expect(page.C!.match(/C-ONE text/g)).toHaveLength(1);
    expect(page.C).not.toContain('data-embed="C#One"');
    // On D's page C's One shows once, holding D no more.
    expect(page.D!.match(/C-ONE text/g)).toHaveLength(1);
    expect(page.D!.match(/D text/g)).toHaveLength(1);
  });

  it("a note embedding a section of the page's note shows it, as on its own page", () => {
    const page = pages({
      Embeds: '## Section One\n\n![[Deeper]]\n\n## Section Three\n\nTHREE text\n',
      Deeper: 'Deeper text\n\n![[Embeds#Section Three]]\n',
    });
    expect(page.Embeds!.match(/THREE text/g)).toHaveLength(2);
    expect(page.Deeper!.match(/THREE text/g)).toHaveLength(1);
  });

  it('sections embedding each other in turn stop at the depth limit', () => {
    const chain = Array.from({ length: 8 }, (_, i) => `## S${i}\n\nLINE${i}\n\n${i < 7 ? `![[Chain#S${i + 1}]]\n` : ''}`).join('\n');
    const page = pages({ Chain: chain });
    // The page, then at most MAX_EMBED_DEPTH - 2 levels inside each embed it shows.
    expect(page.Chain!.match(/LINE7/g)!.length).toBeLessThanOrEqual(MAX_EMBED_DEPTH);
    expect(embeds(page.Chain!)).toBe(7 * (MAX_EMBED_DEPTH - 2) - 1);
  });

});

describe("an embedded note's links into itself", () => {
  // An embedded note's `[[#Part B]]` led to #part-b of the page showing it, which has no such part.
  it("an embedded note's links into itself lead to its own page, made from its reading or parsed, whole or a section", () => {
    const { page } = vault({ Target: '## Part A\n\nText with [[#Part B]] and [[#^blk|the block]].\n\n## Part B\n\nB text ^blk\n' });
    for (const useReading of [true, false]) {
      for (const embed of ['![[Target]]', '![[Target#Part A]]']) {
        const html = page(`Host [[#Local]]\n\n${embed}\n\n## Local`, 'Host', useReading);
        expect(html, embed).toContain('<a class="s-wikilink internal-link" href="/Target#part-b">Part B</a>');
        expect(html, embed).toContain('href="/Target#^blk">the block</a>');
        expect(html, embed).toContain('<a class="s-wikilink internal-link" href="#local">Local</a>');
      }
    }
  });
  it("leads to the note's page when the embed's source link names the section (as the site's does)", () => {
    const body = '## Part A\n\nText with [[#Part B]].\n\n## Part B\n\nB text\n';
    const links: RenderLinks = {
      note: () => null,
      attachment: () => null,
      embed: (ref, frame) => renderEmbedHtml(body, ref, links, frame, { path: 'Target', href: '/Target#part-a', title: 'Target' }),
    };
    expect(renderNoteHtml('![[Target#Part A]]', 'Host', links)).toContain('<a class="s-wikilink internal-link" href="/Target#part-b">Part B</a>');
  });
});
