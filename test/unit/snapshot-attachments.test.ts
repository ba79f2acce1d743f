// A static host sends an attachment as it is: the snapshot copies passive types only, and an
// SVG only as written again from a real XML parse, whatever encoding or spelling it came in.
import { describe, expect, it } from 'vitest';
import { snapshotCopyOf } from '../../site/write/snapshot-attachments.ts';
import { safeSvg, SvgRefused } from '../../site/render/snapshot-svg.ts';

const SVG_NS = 'http://www.w3.org/2000/svg';
const svg = (inner: string, head = '', attrs = '') => `${head}<svg xmlns="${SVG_NS}" xmlns:xlink="http://www.w3.org/1999/xlink"${attrs}>${inner}</svg>`;

/** Why the SVG is refused, or null when it is written again. */
function refusal(bytes: Buffer | string): string | null {
  try {
    safeSvg(typeof bytes === 'string' ? Buffer.from(bytes) : bytes);
    return null;
  } catch (err) {
    if (err instanceof SvgRefused) return err.message;
    throw err;
  }
}

const utf16be = (text: string) => Buffer.from(text, 'utf16le').swap16();
const SCRIPTED = svg('<script>alert(1)</script>');

describe('an SVG in any encoding is decoded before it is checked', () => {
  it('UTF-16 with a byte-order mark, little- and big-endian', () => {
    expect(refusal(Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(SCRIPTED, 'utf16le')]))).toMatch(/script/);
    expect(refusal(Buffer.concat([Buffer.from([0xfe, 0xff]), utf16be(SCRIPTED)]))).toMatch(/script/);
    // A clean one comes out as ASCII, its text intact.
    const clean = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(svg('<text>café</text>'), 'utf16le')]);
    expect(safeSvg(clean).toString('latin1')).toContain('<text>caf&#xe9;</text>');
  });

  it('an XML declaration naming another encoding (ISO-2022-JP escapes splitting <script>)', () => {
    const head = '<?xml version="1.0" encoding="ISO-2022-JP"?>';
    const split = Buffer.concat([Buffer.from(`${head}<svg xmlns="${SVG_NS}"><scr`), Buffer.from([0x1b, 0x28, 0x42]), Buffer.from('ipt>alert(1)</script></svg>')]);
    // What a pattern over the bytes never saw:
    expect(split.toString('latin1')).not.toMatch(/<script/);
    expect(refusal(split)).toMatch(/script/);
    const japanese = Buffer.concat([Buffer.from(`${head}<svg xmlns="${SVG_NS}"><text>`), Buffer.from([0x1b, 0x24, 0x42, 0x46, 0x7c, 0x4b, 0x5c, 0x1b, 0x28, 0x42]), Buffer.from('</text></svg>')]);
    expect(safeSvg(japanese).toString('latin1')).toContain('<text>&#x65e5;&#x672c;</text>');
  });

  it('a namespace prefix that is not ASCII', () => {
    expect(refusal(svg('<é:script>alert(1)</é:script>', '', ` xmlns:é="${SVG_NS}"`))).toMatch(/script/);
    expect(refusal(svg('<é:rect é:onload="alert(1)"/>', '', ' xmlns:é="urn:x"'))).toMatch(/event handler/);
  });

  it('refuses what it cannot decode: an unknown encoding, bytes invalid in theirs, UTF-32, no byte-order mark on UTF-16', () => {
    expect(refusal(`<?xml version="1.0" encoding="x-unknown"?>${svg('<rect/>')}`)).toMatch(/encoding/);
    expect(refusal(Buffer.concat([Buffer.from(svg('<text>')), Buffer.from([0xc3, 0x28]), Buffer.from('</text></svg>')]))).toMatch(/not valid utf-8/);
    expect(refusal(Buffer.concat([Buffer.from([0xff, 0xfe, 0, 0]), Buffer.from('<\0\0\0')]))).toMatch(/UTF-32/);
    expect(refusal(Buffer.from(svg('<rect/>'), 'utf16le'))).toMatch(/encoding/);
  });
});

describe('what an SVG may hold', () => {
  it('keeps a drawing: styles, gradients, raster images inline, links within the file, an editor\'s metadata dropped', () => {
    const drawing = svg(
      '<defs><linearGradient id="g"><stop offset="0" stop-color="red"/></linearGradient></defs>' +
        '<style>rect{fill:url(#g)} /* note */</style><rect width="10" height="10" style="stroke:url(\'#g\')"/>' +
        '<image href="data:image/png;base64,AAAA"/><a xlink:href="#top"><text x="1">A &amp; B &lt; C</text></a>' +
        '<sodipodi:namedview xmlns:sodipodi="http://sodipodi.sourceforge.net/DTD/sodipodi-0.dtd" pagecolor="#fff"/>',
      '<?xml version="1.0" standalone="no"?><!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" "http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd">',
      ' xmlns:inkscape="http://www.inkscape.org/namespaces/inkscape" inkscape:version="1.3" viewBox="0 0 10 10"',
    );
    const out = safeSvg(Buffer.from(drawing)).toString('latin1');
    expect(out).toBe(
      `<svg xmlns="${SVG_NS}" xmlns:xlink="http://www.w3.org/1999/xlink" viewBox="0 0 10 10">` +
        '<defs><linearGradient id="g"><stop offset="0" stop-color="red"></stop></linearGradient></defs>' +
        '<style>rect{fill:url(#g)} /* note */</style><rect width="10" height="10" style="stroke:url(\'#g\')"></rect>' +
        '<image href="data:image/png;base64,AAAA"></image><a xlink:href="#top"><text x="1">A &amp; B &lt; C</text></a></svg>',
    );
    // Written again, it is already in its safe form.
    expect(safeSvg(Buffer.from(out)).toString('latin1')).toBe(out);
  });

  it('refuses scripts, handlers, pages and script addresses however they are spelled', () => {
    for (const hostile of [
      SCRIPTED,
      svg('<SCRIPT>alert(1)</SCRIPT>'),
      svg(`<x:script xmlns:x="${SVG_NS}">alert(1)</x:script>`),
      svg('<h:script xmlns:h="http://www.w3.org/1999/xhtml">alert(1)</h:script>'),
      svg('<rect onclick="alert(1)"/>'),
      svg('<rect\nONLOAD = "alert(1)"/>'),
      svg('<foreignObject><div xmlns="http://www.w3.org/1999/xhtml">label</div></foreignObject>'),
      svg('<g><h:iframe xmlns:h="http://www.w3.org/1999/xhtml" srcdoc="&lt;script&gt;alert(1)&lt;/script&gt;"/></g>'),
      svg('<a xlink:href="javas&#99;ript:alert(1)"><text>x</text></a>'),
      svg('<a href="&#x6A;avascript:alert(1)"><text>x</text></a>'),
      svg('<a href=" java\tscript:alert(1)"><text>x</text></a>'),
      svg('<a><set attributeName="href" to="javascript:alert(1)"/><text>x</text></a>'),
      svg('<a><animate attributeName="xlink:href" values="javascript:alert(1)"/><text>x</text></a>'),
      svg('<a href="data:text/html,&lt;script&gt;alert(1)&lt;/script&gt;"><text>x</text></a>'),
      svg('<iframe src="https://evil.example/"/>'),
      svg('<a href="&x;alert(1)"><text>x</text></a>', '<!DOCTYPE svg [<!ENTITY x "javascript:">]>'),
      svg('<rect/>', '<?xml-stylesheet type="text/xsl" href="evil.xsl"?>'),
      svg('<script>', ''),
    ]) {
      expect(refusal(hostile), hostile).not.toBeNull();
    }
  });

  it('refuses references outside the file: links, images, uses, CSS urls and imports, escaped or not', () => {
    for (const outward of [
      svg('<a href="https://example.org/"><text>x</text></a>'),
      svg('<image href="pic.png"/>'),
      svg('<image href="data:image/svg+xml,&lt;svg/&gt;"/>'),
      svg('<use xlink:href="other.svg#a"/>'),
      svg('<rect fill="url(other.svg#g)"/>'),
      svg('<rect style="fill: url( https://x.example/a.svg#g )"/>'),
      svg('<style>@import url(x.css);</style>'),
      svg('<style>rect{background:u\\72l(https://x.example/)}</style>'),
      svg('<style>rect{background-image:image-set("https://x.example/a.png" 1x)}</style>'),
      svg('<style><![CDATA[rect{cursor:url(/x.cur)}]]></style>'),
      svg('<style>@import url(x.css);<g/></style>'),
    ]) {
      expect(refusal(outward), outward).toMatch(/outside|imports|address|inside a <style>/);
    }
  });

  it('refuses what is not an SVG or not well-formed', () => {
    expect(refusal('<html xmlns="http://www.w3.org/1999/xhtml"><body/></html>')).not.toBeNull();
    expect(refusal(`<svg xmlns="${SVG_NS}"><rect></svg>`)).toMatch(/well-formed/);
    expect(refusal(svg('<rect/>') + '<svg/>')).toMatch(/well-formed/);
    expect(refusal('')).not.toBeNull();
  });
});

describe('snapshotCopyOf: an allow-list of passive types', () => {
  const never = () => {
    throw new Error('read');
  };

  it('copies images, audio, video, PDFs, fonts and plain text without reading them', () => {
    for (const f of ['pic.png', 'a/B.JPG', 'x.webp', 'song.mp3', 'clip.mp4', 'doc.pdf', 'f.woff2', 'notes.txt', 'data.csv']) expect(snapshotCopyOf(f, never), f).toEqual({ copy: true });
  });

  it('leaves out every other type, whatever it holds: pages, scripts, service workers, server code', () => {
    for (const f of ['sw.js', 'app.mjs', 'index.php', 'page.html', 'x.xhtml', 'feed.xml', 'style.xsl', 'pic.svgz', 'data.json', 'theme.css', 'run.wasm', 'noext']) {
      expect(snapshotCopyOf(f, never), f).toHaveProperty('leftOut');
    }
  });

  it('copies the stylesheet the site itself loads', () => {
    expect(snapshotCopyOf('publish.css', never, true)).toEqual({ copy: true });
  });

  it('writes an SVG again from its parse, and leaves out one that is refused or unreadable', () => {
    expect(snapshotCopyOf('d.svg', () => Buffer.from(svg('<rect/>')))).toEqual({ bytes: Buffer.from(`<svg xmlns="${SVG_NS}" xmlns:xlink="http://www.w3.org/1999/xlink"><rect></rect></svg>`) });
    expect(snapshotCopyOf('d.svg', () => Buffer.from(SCRIPTED))).toEqual({ leftOut: expect.stringMatching(/script/) });
    expect(snapshotCopyOf('d.svg', () => null)).toEqual({ leftOut: expect.stringMatching(/regular file/) });
  });
});
