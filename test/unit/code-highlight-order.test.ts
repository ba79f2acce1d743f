// A code block is coloured the same whatever blocks this process highlighted before it:
// Prism's languages change each other's grammars as they load (javascript adds itself to
// markup's <script>, markdown colours the fences inside it with what is loaded), so a
// page built alone and the same page built after others must not differ. Its own file: the
// first block of the file is the first Prism sees in this process.
import { describe, expect, it } from 'vitest';
import { renderNoteHtml, type RenderLinks } from '../../shared/note/markdown.ts';

const links: RenderLinks = { note: () => null, attachment: () => null };
const render = (body: string) => renderNoteHtml(body, 'Title', links);

const HTML = '```html\n<p onclick="go()">Hi</p>\n<script>const a = 1;</script>\n<style>p { color: red; }</style>\n```\n';
const MARKDOWN = '````md\n# Title\n\n```python\ndef f(): return 2\n```\n````\n';
const OTHERS = ['```js\nconst b = `x`;\n```\n', '```css\na { b: c }\n```\n', '```python\nx = 1\n```\n', '```js-extras\nfoo()\n```\n', '```jsdoc\n/** @param {x} y */\n```\n'];

describe('a block comes out the same whatever came before it', () => {
  it('html with script and style, and markdown with a python fence, first and after other languages', () => {
    const first = [render(HTML), render(MARKDOWN)];
    // The first html block already holds the script's and the style's colours.
    expect(first[0]).toMatch(/<span class="token keyword">const<\/span>/);
    expect(first[0]).toMatch(/<span class="token property">color<\/span>/);
    expect(first[1]).toMatch(/<span class="token keyword">def<\/span>/);
    for (const other of OTHERS) render(other);
    expect([render(HTML), render(MARKDOWN)]).toEqual(first);
  });
});
