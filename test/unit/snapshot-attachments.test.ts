// A static host sends an attachment as it is: the snapshot leaves out markup files and any
// SVG holding something script-like (a reviewer ran script on the site's origin through both).
import { describe, expect, it } from 'vitest';
import { activeSvgReason, snapshotAttachmentRefusal } from '../../site/build/snapshot-attachments.ts';

const svg = (inner: string, head = '') => `${head}<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink">${inner}</svg>`;

describe('activeSvgReason', () => {
  it('passes a drawing with styles, embedded raster images and HTML labels', () => {
    expect(activeSvgReason(svg('<style>rect{fill:red}</style><rect width="10" height="10"/><image href="data:image/png;base64,AAAA"/><a href="https://example.org/"><text>link</text></a><foreignObject><div xmlns="http://www.w3.org/1999/xhtml">label</div></foreignObject>', '<?xml version="1.0"?>'))).toBeNull();
  });

  it('catches scripts, handlers and script URLs however they are spelled', () => {
    for (const hostile of [
      svg('<script>alert(1)</script>'),
      svg('<SCRIPT>alert(1)</SCRIPT>'),
      svg('<x:script xmlns:x="http://www.w3.org/2000/svg">alert(1)</x:script>'),
      svg('<rect onclick="alert(1)"/>'),
      svg('<rect\nonload = "alert(1)"/>'),
      svg('<foreignObject><div xmlns="http://www.w3.org/1999/xhtml"><img src="x" onerror="alert(1)"/></div></foreignObject>'),
      svg('<a xlink:href="javas&#99;ript:alert(1)"><text>x</text></a>'),
      svg('<a href="&#x6A;avascript:alert(1)"><text>x</text></a>'),
      svg('<a href=" java\tscript:alert(1)"><text>x</text></a>'),
      svg('<a><set attributeName="href" to="javascript:alert(1)"/><text>x</text></a>'),
      svg('<a href="data:text/html,<script>alert(1)</script>"><text>x</text></a>'),
      svg('<iframe src="https://evil.example/"/>'),
      svg('<a href="&x;alert(1)"><text>x</text></a>', '<!DOCTYPE svg [<!ENTITY x "javascript:">]>'),
      svg('<rect/>', '<?xml-stylesheet type="text/xsl" href="evil.xsl"?>'),
    ]) {
      expect(activeSvgReason(hostile), hostile).not.toBeNull();
    }
  });
});

describe('snapshotAttachmentRefusal', () => {
  it('leaves out markup whatever it holds, copies passive files without reading them', () => {
    const never = () => {
      throw new Error('read');
    };
    for (const f of ['a/page.html', 'page.HTM', 'x.xhtml', 'feed.xml', 'style.xsl', 'arch.mht', 'pic.svgz']) expect(snapshotAttachmentRefusal(f, never), f).not.toBeNull();
    for (const f of ['pic.png', 'doc.pdf', 'data.csv', 'notes.txt', 'clip.mp4']) expect(snapshotAttachmentRefusal(f, never), f).toBeNull();
    expect(snapshotAttachmentRefusal('d.svg', () => Buffer.from(svg('<rect/>')))).toBeNull();
    expect(snapshotAttachmentRefusal('d.svg', () => Buffer.from(svg('<script>x</script>')))).toMatch(/script/);
  });
});
