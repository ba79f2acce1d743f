// A canvas embedded inside the author's raw HTML (a `<div>` around it) is drawn as it is
// anywhere else: its edges keep their arrows and colours, which the sanitiser would take
// from our own markup; the author's HTML around it is sanitised as always.
import { beforeAll, describe, expect, it } from 'vitest';
import { blogForFile } from '../fixtures/blog/helpers.ts';
import { DOCUMENT_FILES } from '../fixtures/documents/vault.ts';

const note = (title: string, body: string) => `---\npublish: true\ntitle: ${title}\ndate: 2026-01-10\n---\n${body}\n`;

const site = blogForFile({
  fixture: false,
  env: { PUBLIC_LAYOUT: 'default' },
  files: {
    'Maps/Overview.canvas': DOCUMENT_FILES['Maps/Overview.canvas']!,
    'Plain.md': note('Plain', 'The map:\n\n![[Maps/Overview.canvas]]\n'),
    'Wrapped.md': note('Wrapped', '<div class="frame" style="border: 1px solid gray" onclick="alert(1)">\n\n![[Maps/Overview.canvas]]\n\n</div>\n\n<script>alert(2)</script>\n\nAfter.'),
  },
});

const bodyOf = (html: string) => /<div class="s-article-body"[^>]*>([\s\S]*?)<\/article>/.exec(html)?.[1] ?? '';
/** The canvas's own markup: from its frame to the end of its last edge label or node. */
const canvasOf = (body: string) => body.slice(body.indexOf('<div class="s-canvas"'), body.lastIndexOf('</svg>') + 6);

beforeAll(async () => {
  await site.waitForPage('/Wrapped', (p) => p.status === 200);
});

describe('a canvas inside raw HTML', () => {
  it('is drawn as in a note without raw HTML: every edge with its arrow and colour', async () => {
    const plain = canvasOf(bodyOf((await site.page('/Plain')).text));
    const wrapped = canvasOf(bodyOf((await site.page('/Wrapped')).text));
    expect([...plain.matchAll(/class="s-canvas-arrow"/g)]).toHaveLength(3);
    expect(plain).toContain('style="--s-canvas-color:#3366ff;"');
    expect(wrapped).toBe(plain);
  });

  it("keeps the author's own HTML sanitised around it", async () => {
    const body = bodyOf((await site.page('/Wrapped')).text);
    expect(body).toContain('<div class="frame" style="border:1px solid gray">');
    expect(body).not.toMatch(/onclick|<script|alert\(/);
    expect(body).toContain('After.');
  });
});
