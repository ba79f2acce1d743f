// CONTRACT §7 on a real build: a Markdown link to a note a visitor cannot see reads exactly
// as a wikilink to it does, whether the note is missing or unpublished; and a block id after
// a code block, a math block, a quote, a callout or raw HTML names that block, for a link
// to it and for an embed of it, with nothing of the id left in the text.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../shared/config.ts';
import { log } from '../../shared/log.ts';
import { SiteBuilder } from '../../site/build/site-builder.ts';
import { cleanupTempDirs, tempDir, writeFiles } from '../helpers/tmp.ts';

afterAll(cleanupTempDirs);
log.setQuiet(true);

const note = (body: string, publish = true) => `---\npublish: ${publish}\ndate: 2024-03-01\n---\n${body}\n`;
const UNSEEN = '<span class="s-wikilink s-unresolved">the plan</span>';

const BLOCKS = [
  '```js\nconst a = 1;\n```\n\n^codeb',
  '$$\nx+1\n$$\n\n^mathb',
  '> QUOTE-TEXT\n> its last line ^qid',
  '> [!info] CALLOUT-TITLE ^cid\n> callout body',
  '<details><summary>DETAILS-SUMMARY</summary>\n\nDetails body\n\n</details> ^det',
  '<div class="box">BOX-TEXT</div>\n\n^box',
].join('\n\nBetween.\n\n');

let out = '';
const page = (name: string) => fs.readFile(path.join(out, `${name}.html`), 'utf8');
/** The article's body: what the note wrote, without the page around it. */
const body = (html: string) => html.slice(html.indexOf('s-article-body'), html.indexOf('</article>'));

beforeAll(async () => {
  const root = await tempDir('vs-blocks-links-');
  const vault = path.join(root, 'vault');
  await writeFiles(vault, {
    'Secret Plan.md': note('## Part\n\nSECRET-PLAN-TEXT', false),
    'Inner.md': note('INNER [the plan](Secret%20Plan.md#Part) END'),
    'Other.md': note(`Other's blocks.\n\n${BLOCKS}\n\nLast.`),
    'Links.md': note(
      [
        'MISSING [the plan](Nope.md) END',
        'UNPUBLISHED [the plan](Secret%20Plan.md) END',
        'MISSING-PART [the plan](Nope.md#Part) END',
        'UNPUBLISHED-PART [the plan](Secret%20Plan.md#Part) END',
        'WIKI-MISSING [[Nope|the plan]] END',
        'WIKI-UNPUBLISHED [[Secret Plan|the plan]] END',
        '| cell |\n|---|\n| TABLE [the plan](Secret%20Plan.md) END |',
        '> [!note] CALLOUT [the plan](Nope.md) END\n> BODY [the plan](Secret%20Plan.md#Part) END',
        '![[Inner]]',
      ].join('\n\n'),
    ),
    'Host.md': note(
      ['[[Other#^codeb|to code]] [[Other#^mathb|to math]] [[Other#^qid|to quote]] [[Other#^cid|to callout]] [[Other#^det|to details]] [[Other#^box|to box]]', ...['codeb', 'mathb', 'qid', 'cid', 'det', 'box'].map((id) => `![[Other#^${id}]]`)].join('\n\n'),
    ),
  });
  const data = path.join(root, 'data');
  await fs.mkdir(data, { recursive: true });
  const config = loadConfig({ VAULT: vault, SERVICE_DATA: data, PUBLIC_LAYOUT: 'blog' }, []);
  out = (await new SiteBuilder({ config, outRoot: path.join(root, 'out'), buildThread: false, useGit: false }).full()).dir;
});

describe('a Markdown link to a missing or an unpublished note', () => {
  it('reads as the wikilink to it does: its text, no address, the same bytes either way', async () => {
    const html = body(await page('Links'));
    const between = (mark: string) => new RegExp(`${mark} (.*?) END`).exec(html)?.[1];
    for (const mark of ['MISSING', 'UNPUBLISHED', 'MISSING-PART', 'UNPUBLISHED-PART', 'WIKI-MISSING', 'WIKI-UNPUBLISHED', 'TABLE', 'CALLOUT', 'BODY', 'INNER']) {
      expect(between(mark), mark).toBe(UNSEEN);
    }
    expect(html).not.toMatch(/href="#"|Secret|Nope|SECRET-PLAN/);
  });
});

describe('a block id after any block', () => {
  it('is the block’s id on the page, and is nowhere in its text', async () => {
    const html = body(await page('Other'));
    expect(html).toContain('<pre id="^codeb"><code class="language-js">');
    expect(html).toContain('<p id="^mathb" class="katex-block">');
    expect(html).toMatch(/<blockquote id="\^qid">\n<p>QUOTE-TEXT<br>\nits last line<\/p>/);
    expect(html).toMatch(/<div class="callout s-callout" data-callout="info" id="\^cid">[^]*?<span class="callout-title-inner">CALLOUT-TITLE<\/span>/);
    expect(html).toContain('<div id="^det">\n<details><summary>DETAILS-SUMMARY</summary>');
    expect(html).toContain('<div id="^box">\n<div class="box">BOX-TEXT</div>\n</div>');
    // Each id once, as an attribute; never as text.
    for (const id of ['codeb', 'mathb', 'qid', 'cid', 'det', 'box']) expect(html.split(`^${id}`).length - 1, id).toBe(1);
    expect(html).not.toMatch(/\^\w+</);
  });

  it('a link to it leads there, and an embed of it shows that block alone', async () => {
    const html = body(await page('Host'));
    for (const id of ['codeb', 'mathb', 'qid', 'cid', 'det', 'box']) expect(html, id).toContain(`href="/Other#^${id}"`);
    const embeds = html.split('<div class="s-embed markdown-embed"').slice(1);
    expect(embeds).toHaveLength(6);
    const shows: Array<[string, string]> = [
      ['Other#^codeb', 'language-js'],
      ['Other#^mathb', 'katex-block'],
      ['Other#^qid', 'QUOTE-TEXT'],
      ['Other#^cid', 'CALLOUT-TITLE'],
      ['Other#^det', 'DETAILS-SUMMARY'],
      ['Other#^box', 'BOX-TEXT'],
    ];
    shows.forEach(([ref, text], i) => {
      expect(embeds[i], ref).toContain(`data-embed="${ref}"`);
      expect(embeds[i], ref).toContain(text);
      // That block alone: none of the others, nothing around it.
      for (const [, other] of shows) if (other !== text) expect(embeds[i], `${ref} holds ${other}`).not.toContain(other);
      expect(embeds[i], ref).not.toMatch(/Between|Last\.|Other's blocks/);
    });
  });
});
