// Raw HTML that research and reading vaults hold, shown as Obsidian shows it: Highlightr's coloured
// `<mark style>`, Typora's `<img style="zoom:50%">`, `<p align="center">`, and app links
// (`zotero://`, `kindle://`) that kept their address only while no raw HTML sat beside them.
import MarkdownIt from 'markdown-it';
import { describe, expect, it } from 'vitest';
import { renderNoteHtml, type RenderLinks } from '../../shared/note/markdown.ts';
import { followableScheme } from '../../shared/note/unsafe-links.ts';

const links: RenderLinks = { note: () => null, attachment: (t) => `/${t}`, tag: (t) => `/topic/${t}` };
const render = (body: string) => renderNoteHtml(body, 'Title', links);

describe('an app link keeps its address beside raw HTML', () => {
  it('a Markdown link in a paragraph or list holding HTML with attributes', () => {
    expect(render('<mark class="hltr-yellow">"five domains"</mark> [Page 3](zotero://open-pdf/library/items/CU58?page=3)')).toContain(
      '<a href="zotero://open-pdf/library/items/CU58?page=3">Page 3</a>',
    );
    const list = render('- <mark style="background: #ffd400">hl</mark> ([Location 12](kindle://book?action=open&asin=B0&location=12))\n- plain: [Location 13](kindle://book?location=13)\n');
    expect(list).toContain('<a href="kindle://book?action=open&amp;asin=B0&amp;location=12">Location 12</a>');
    expect(list).toContain('<a href="kindle://book?location=13">Location 13</a>');
  });

  it('a raw <a> with an app scheme', () => {
    expect(render('| Kindle | <a href="kindle://book?asin=B00M" target="_blank">Open in Kindle</a> |\n|---|---|\n')).toContain(
      '<a href="kindle://book?asin=B00M" target="_blank" rel="noopener noreferrer">Open in Kindle</a>',
    );
    expect(render('<a href="obsidian://open?vault=v&file=x">open</a> <a href="x-devonthink-item://ABC">dt</a>')).toMatch(/href="obsidian:\/\/open\?vault=v&amp;file=x".*href="x-devonthink-item:\/\/ABC"/);
  });

  it('no address that runs or reads the reader\'s files, written plainly, encoded or beside an allowed one', () => {
    for (const bad of ['javascript:alert(1)', 'JavaScript:alert(1)', 'vbscript:x', 'file:///etc/passwd', 'data:text/html,<b>x</b>', 'jav&#x61;script:alert(1)', ' javascript:alert(1)']) {
      const html = render(`<span style="color:red">x</span> <a href="${bad}">a</a> <a href="zotero://ok">z</a> [m](${bad.replace(/ /g, '')})`);
      expect(html, bad).not.toMatch(/href="\s*(?:j|v|f|d)/i);
      expect(html).toContain('href="zotero://ok"');
    }
  });

  it('refuses the schemes markdown-it refuses, and only those', () => {
    const md = new MarkdownIt();
    for (const scheme of ['javascript', 'vbscript', 'file', 'data', 'zotero', 'kindle', 'obsidian', 'http', 'mailto', 'x-devonthink-item', 'ftp']) {
      expect(followableScheme(scheme), scheme).toBe(md.validateLink(`${scheme}:x`));
    }
  });
});

describe('style and align in raw HTML', () => {
  it('a highlight\'s colour', () => {
    expect(render('<mark style="background: #FF5582A6;">red</mark> and <mark style="background-color: #2ea8e5">blue</mark>')).toBe(
      '<p><mark style="background:#FF5582A6">red</mark> and <mark style="background-color:#2ea8e5">blue</mark></p>\n',
    );
  });

  it('a picture\'s zoom, a centred paragraph and block, a font\'s style', () => {
    const html = render('<img src="https://example.com/a.png" alt="a" style="zoom:50%;" />\n\n<p align="center">centred</p>\n\n<div align=center>\n<img src="https://example.com/b.png" width="300px" style="zoom:50%;" />\n</div>\n\n<font style="color: green">green</font>');
    expect(html).toContain('<img src="https://example.com/a.png" alt="a" style="zoom:50%" />');
    expect(html).toContain('<p align="center">centred</p>');
    expect(html).toContain('<div align="center">');
    expect(html).toContain('<font style="color:green">green</font>');
  });

  it('still no event handler, script or frame source document', () => {
    const html = render('<mark style="color:red" onclick="alert(1)">x</mark><img src="https://e.com/a.png" onerror="alert(1)" style="zoom:2"><script>alert(1)</script><iframe srcdoc="<b>x</b>" src="https://e.com"></iframe>');
    expect(html).not.toMatch(/onclick|onerror|<script|srcdoc/);
  });
});

describe('a progress bar or a meter', () => {
  it('is kept with its values, as Obsidian draws it', () => {
    expect(render('Reading <progress id="file" value="32" max="100"> 32% </progress> and <meter value="0.6" min="0" max="1" low="0.3" high="0.8" onclick="x">60%</meter>')).toBe(
      '<p>Reading <progress id="file" value="32" max="100"> 32% </progress> and <meter value="0.6" min="0" max="1" low="0.3" high="0.8">60%</meter></p>\n',
    );
  });
});
