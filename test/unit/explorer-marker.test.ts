// CONTRACT §12: a page carries only a marker naming itself and its folders; the shared
// explorer fragment is filled in with that page marked, when served (substitute.ts) or
// rendered into a snapshot (the same function).
import { describe, expect, it } from 'vitest';
import { folderKey, markExplorer } from '../../site/plan/explorer.ts';
import { materializeForVisitor } from '../../site/serve/substitute.ts';

const fragment = [
  `<nav class="s-explorer"><ul>`,
  `<li><details data-folder="${folderKey('A')}"><summary><a href="/A/A">A</a></summary><ul>`,
  `<li><details data-folder="${folderKey("A/B's")}"><summary><span>B's</span></summary><ul><li><a href="/A/B&#39;s/N%C3%A9">Né</a></li></ul></details></li>`,
  `<li><a href="/A/Other">Other $' and $&amp;</a></li></ul></details></li>`,
  `<li><a href="/">Home</a></li></ul></nav>`,
].join('');

describe('the explorer marker', () => {
  it('marks the page current and opens its folders, nothing else', () => {
    const here = [folderKey("/A/B's/N%C3%A9"), folderKey('A'), folderKey("A/B's")].join(' ');
    const out = markExplorer(fragment, here);
    expect(out).toContain(`<a href="/A/B&#39;s/N%C3%A9" aria-current="page">Né</a>`);
    expect(out.match(/aria-current/g)).toHaveLength(1);
    expect(out.match(/ open>/g)).toHaveLength(2);
  });

  it('a page the fragment does not list, or a broken marker, leaves it as it is', () => {
    expect(markExplorer(fragment, encodeURIComponent('/Nowhere'))).toBe(fragment);
    expect(markExplorer(fragment, '%E0%A4%A')).toBe(fragment);
  });

  it('is filled when a page is served; a title with `$` patterns stays text', () => {
    const page = `<aside><!--service:nav:${encodeURIComponent('/')}--></aside><main>M</main>`;
    const { text } = materializeForVisitor(page, 'https://x.test', fragment);
    expect(text).toContain(`<a href="/" aria-current="page">Home</a>`);
    expect(text).toContain(`Other $' and $&amp;</a>`);
    expect(text.endsWith('</aside><main>M</main>')).toBe(true);
    const blog = materializeForVisitor('<!--service:nav--><main>M</main>', 'https://x.test', `<nav>$' $&</nav>`).text;
    expect(blog).toBe(`<nav>$' $&</nav><main>M</main>`);
  });
});
