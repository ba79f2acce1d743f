// Fenced code is coloured at build time by Prism (shared/note/highlight.ts): a language
// Prism ships gets its token spans, any other name (a vault's, so hostile) or none is
// escaped plain text, loads nothing and throws nothing; the sanitiser keeps the spans.
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { prismLanguage } from '../../shared/note/highlight.ts';
import { renderEmbedHtml, renderNoteHtml, type RenderLinks } from '../../shared/note/markdown.ts';
import { sanitizeNoteHtml } from '../../shared/note/sanitize.ts';
import { MAX_HIGHLIGHTED_BLOCK, MAX_HIGHLIGHTED_TEXT } from '../../shared/note/render-budget.ts';

const links: RenderLinks = { note: () => null, attachment: () => null };
const render = (body: string) => renderNoteHtml(body, 'Title', links);
const fence = (lang: string, code = 'const a = "<b>" && 1; // done') => '```' + lang + '\n' + code + '\n```\n';
const loadedFiles = () => Object.keys(createRequire(import.meta.url).cache);

describe('a language Prism ships is highlighted', () => {
  it('a js block: keyword, string, operator and comment spans, the text escaped', () => {
    const html = render(fence('js'));
    expect(html).toContain('<pre><code class="language-js">');
    expect(html).toContain('<span class="token keyword">const</span>');
    expect(html).toContain('<span class="token string">"&lt;b>"</span>');
    expect(html).toContain('<span class="token comment">// done</span>');
    expect(html).not.toContain('<b>');
  });

  it('by id or alias, in any case: ts, py, sh, yml, html, JS', () => {
    for (const lang of ['typescript', 'ts', 'py', 'sh', 'yml', 'html', 'JS']) {
      expect(render(fence(lang, 'a = 1 # x <i>')), lang).toMatch(/<span class="token [\w -]+">/);
    }
  });

  it('in an embedded note too', () => {
    const html = renderEmbedHtml(fence('js'), { target: 'Other', subpath: [] } as never, links, { stack: [], count: 0, ids: new Set(), budget: 1e6 } as never, { href: '/Other', title: 'Other' });
    expect(html).toContain('<span class="token keyword">const</span>');
  });

  it('the sanitiser, run when a note has raw HTML, keeps the token spans', () => {
    const plain = render(fence('js'));
    const withHtml = render('<kbd>K</kbd>\n\n' + fence('js'));
    expect(withHtml).toContain('<span class="token keyword">const</span>');
    expect(sanitizeNoteHtml(plain).match(/class="token [\w-]+"/g)).toEqual(plain.match(/class="token [\w-]+"/g));
  });
});

describe('any other language, or none, is plain escaped text', () => {
  it('an unknown language and no language: escaped, no span', () => {
    for (const lang of ['nosuchlanguage', '', 'text']) {
      const html = render(fence(lang));
      expect(html, lang).toContain('const a = &quot;&lt;b&gt;&quot; &amp;&amp; 1; // done');
      expect(html, lang).not.toContain('<span');
    }
  });

  // Names that are keys of every object, of Prism's own tables, paths, markup, and too long.
  const hostile = [
    ...Object.getOwnPropertyNames(Object.prototype),
    'extend', 'insertBefore', 'DFS', 'meta', 'prototype',
    '../../x', '../../../../etc/passwd', '/etc/passwd', 'prism-javascript', './prism-javascript', 'javascript.js', 'C:\\x',
    '"><img src=x onerror=alert(1)>', 'js"onmouseover="x', 'x'.repeat(10_000),
  ];

  it('a hostile name is no language: nothing loads, nothing throws, the code is escaped', () => {
    render(fence('js')); // Prism itself is loaded by now
    const before = new Set(loadedFiles());
    for (const lang of hostile) {
      expect(prismLanguage(lang), lang).toBeNull();
      const html = render(fence(lang));
      expect(html, lang).not.toContain('<span');
      expect(html, lang).toContain('&lt;b&gt;');
      expect(html, lang).not.toMatch(/<img|onerror=|onmouseover="/);
    }
    expect(loadedFiles().filter((f) => !before.has(f))).toEqual([]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('a language class is written escaped whatever the name', () => {
    expect(render(fence('"><b>x'))).toContain('class="language-&quot;&gt;&lt;b&gt;x"');
  });

  it('only the ids and aliases in Prism\'s own list are languages', () => {
    const { languages } = createRequire(import.meta.url)('prismjs/components.json') as { languages: Record<string, { alias?: string | string[] }> };
    for (const [id, c] of Object.entries(languages)) {
      if (id === 'meta') continue;
      expect(prismLanguage(id)).toBe(id);
      for (const alias of [c.alias ?? []].flat()) expect(prismLanguage(alias)).not.toBeNull();
    }
  });
});

describe('diagrams and math keep their own rendering', () => {
  it('a mermaid fence stays the diagram source, never coloured', () => {
    const html = render(fence('mermaid', 'graph TD; A-->B'));
    expect(html).toContain('<pre class="mermaid">graph TD; A--&gt;B\n</pre>');
    expect(html).not.toContain('token');
  });

  it('$$ math is KaTeX, inline math too', () => {
    const html = render('$$\nx^2\n$$\n\nand $y$ inline.\n');
    expect(html).toContain('class="katex-display"');
    expect(html).toContain('class="katex"');
    expect(html).not.toContain('token');
  });
});

describe('colouring is bounded per block and per note (shared/note/render-budget.ts)', () => {
  it('200 KB of `[` in a ```markdown block renders plain at once (Prism took 124 s over it), escaped', () => {
    const code = '['.repeat(200_000) + '<b>';
    const started = Date.now();
    const html = render(fence('markdown', code));
    expect(Date.now() - started).toBeLessThan(3_000);
    expect(html).toContain('<pre><code class="language-markdown">[[[');
    expect(html).toContain('&lt;b&gt;');
    expect(html).not.toContain('<span class="token');
  });

  it(`blocks are coloured in order while the note's ${MAX_HIGHLIGHTED_TEXT} characters last; a small one after still takes what is left`, () => {
    const block = (i: number) => fence('js', `const n${i} = 1;\n`.repeat(Math.floor(MAX_HIGHLIGHTED_BLOCK / 16) - 1));
    const count = Math.floor(MAX_HIGHLIGHTED_TEXT / MAX_HIGHLIGHTED_BLOCK) + 2;
    const html = render(Array.from({ length: count }, (_, i) => block(i)).join('\n') + fence('js'));
    const blocks = html.split('<pre><code class="language-js">').slice(1);
    expect(blocks).toHaveLength(count + 1);
    const coloured = blocks.map((b) => b.slice(0, b.indexOf('</code>')).includes('<span class="token'));
    expect(coloured).toEqual([...Array.from({ length: count }, (_, i) => i < count - 2), true]);
  });

  it('a note of many hostile blocks costs a bounded time: forty of 16 KB of `<a ` in ```html (13 s before)', () => {
    const started = Date.now();
    render(Array.from({ length: 40 }, () => fence('html', '<a '.repeat(MAX_HIGHLIGHTED_BLOCK / 3 - 10))).join('\n'));
    expect(Date.now() - started).toBeLessThan(5_000);
  });
});
