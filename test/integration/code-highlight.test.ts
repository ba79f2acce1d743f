// Code blocks are coloured when the site is built, with no script in the reader's browser:
// the article, the feed's full content and the admin's preview carry Prism's token spans;
// an unknown or hostile language is plain escaped text; the stylesheet holds the colours.
import { describe, expect, it } from 'vitest';
import { blogForFile } from '../fixtures/blog/helpers.ts';

const SITE = 'https://code.example';
const NOTE = `---
title: Code sample
publish: true
date: 2026-04-02
---
Some code:

\`\`\`js
const answer = "<b>" && 42; // why
\`\`\`

\`\`\`klingon
qaStaH nuq? <i>
\`\`\`

\`\`\`../../constructor
__proto__ <u>
\`\`\`
`;

/** XML text back to the HTML it holds (`&amp;` last, so the HTML's own escapes stay). */
const xmlText = (s: string) => s.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&amp;/g, '&');

const blog = blogForFile({
  env: { PUBLIC_LAYOUT: 'blog', SITE_URL: SITE, SITE_NAME: 'Code' },
  settings: { publishing: { feedContent: 'full' } },
  files: { 'Posts/Code sample.md': NOTE },
});

describe('the article', () => {
  it('a js block has token spans; an unknown and a hostile language are escaped and plain', async () => {
    const page = await blog.waitForPage('/Posts/Code-sample', (p) => p.status === 200);
    expect(page.text).toContain('<pre><code class="language-js"><span class="token keyword">const</span> answer <span class="token operator">=</span> <span class="token string">"&lt;b>"</span>');
    expect(page.text).toContain('<span class="token comment">// why</span>');
    expect(page.text).toContain('<pre><code class="language-klingon">qaStaH nuq? &lt;i&gt;\n</code></pre>');
    expect(page.text).toContain('<pre><code class="language-../../constructor">__proto__ &lt;u&gt;\n</code></pre>');
    // The Copy button's words are on the page for the script; no highlighter script is linked.
    expect(page.text).toContain('data-copy="Copy"');
    expect(page.text).not.toMatch(/<script[^>]+prism/i);
  });

  it("the site's stylesheet colours the tokens, light and dark", async () => {
    const page = await blog.page('/Posts/Code-sample');
    const href = /<link rel="stylesheet" href="(\/_s\/blog\.[0-9a-f]+\.css)">/.exec(page.text)![1]!;
    const css = (await blog.page(href)).text;
    expect(css).toContain('.token.keyword');
    // In the system's dark unless the reader chose light, and when the reader chose dark.
    expect(css).toMatch(/@media screen and \(prefers-color-scheme: dark\) \{\s*:root:where\(:not\(\[data-theme="light"\]\)\) \{ --s-code-comment/);
    expect(css).toMatch(/:root:where\(\[data-theme="dark"\]\) \{ --s-code-comment/);
  });
});

describe("the feed's full content", () => {
  it('carries the same token spans, escaped for XML', async () => {
    const feed = await blog.waitForPage('/feed.xml', (p) => p.text.includes('content:encoded'));
    const item = feed.text.slice(feed.text.indexOf('<title>Code sample</title>'));
    const content = xmlText(/<content:encoded>([\s\S]*?)<\/content:encoded>/.exec(item)![1]!);
    expect(content).toContain('<pre><code class="language-js"><span class="token keyword">const</span> answer');
    expect(content).toContain('<span class="token comment">// why</span>');
    expect(content).toContain('<pre><code class="language-klingon">qaStaH nuq? &lt;i&gt;\n</code></pre>');
  });
});

describe("the admin's preview", () => {
  it("renders unsaved text with the site's renderer and names the site's stylesheets", async () => {
    const page = await blog.page('/Posts/Code-sample');
    const css = /<link rel="stylesheet" href="(\/_s\/blog\.[0-9a-f]+\.css)">/.exec(page.text)![1];
    const res = await blog.admin('POST', '/api/preview?path=Posts/Draft.md', { text: '# Draft\n\n```ts\nlet x: number = 1;\n```\n\n```__proto__\n<s>\n```\n' });
    expect(res.status).toBe(200);
    expect(res.body.title).toBe('Draft');
    expect(res.body.prepared.html).toContain('<span class="token keyword">let</span>');
    expect(res.body.prepared.html).toContain('<pre><code class="language-__proto__">&lt;s&gt;\n</code></pre>');
    expect(res.body.stylesheets.page).toEqual([css, '/custom.css']);
    expect(res.body.stylesheets.katex).toMatch(/^\/_s\/katex\.[0-9a-f]+\.css$/);
  });

  it('refuses what is not a note and text that is not a string, and needs a session', async () => {
    expect((await blog.admin('POST', '/api/preview?path=Posts/pic.png', { text: 'x' })).status).toBe(400);
    expect((await blog.admin('POST', '/api/preview?path=../x.md', { text: 'x' })).status).toBe(400);
    expect((await blog.admin('POST', '/api/preview?path=Posts/A.md', { text: 42 })).status).toBe(400);
    expect((await blog.api('POST', '/api/preview?path=Posts/A.md', { text: 'x' }, null)).status).toBe(401);
  });
});
