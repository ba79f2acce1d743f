// CONTRACT §6 with Unicode names: a file saved with an NFD name (a Mac's older file systems
// wrote them so) is published at the composed (NFC) address people type, as Obsidian and Hugo
// publish it, so a static host serves it too. As with case, spaces and a trailing slash, the
// other spelling answers 301 to the one real address; an unpublished note stays exactly as
// missing in either form.
import { beforeAll, describe, expect, it } from 'vitest';
import { blogForFile } from '../fixtures/blog/helpers.ts';

const nfd = (s: string) => s.normalize('NFD');
const nfc = (s: string) => s.normalize('NFC');
const enc = (p: string) => p.split('/').map(encodeURIComponent).join('/');

const NOTE = '/Blog/Café-Crème';
const DRAFT = '/Blog/Crème-Brûlée';
const IMAGE = '/Blog/Thé.png';

const blog = blogForFile({
  fixture: false,
  files: {
    [nfd('Blog/Café Crème.md')]: `---\ntitle: Coffee with cream\npublish: true\ndate: 2026-01-10\n---\nCAFE-CREME-WORDS ![[${nfd('Thé.png')}]]\n`,
    [nfd('Blog/Crème Brûlée.md')]: '---\ntitle: Dessert\npublish: false\ndate: 2026-01-11\n---\nBRULEE-SECRET-WORDS\n',
    // Links typed composed, as anywhere but in a macOS file name.
    'Blog/Menu.md': `---\ntitle: Menu\npublish: true\ndate: 2026-01-12\n---\nOrder a [[${nfc('Café Crème')}|coffee]] or see [[${nfc('Blog/Café Crème')}#Top]]. ![[${nfc('Thé.png')}]]\n`,
    [nfd('Blog/Thé.png')]: 'TEA-BYTES',
  },
});
beforeAll(async () => {
  await blog.waitForPage(enc(nfc(NOTE)), (p) => p.status === 200);
});

describe('an address is composed (NFC), whatever the form of the file name', () => {
  it('an NFD-named note is served at its composed address, the one people type', async () => {
    const page = await blog.page(enc(nfc(NOTE)));
    expect(page.status).toBe(200);
    expect(page.text).toContain('CAFE-CREME-WORDS');
    // Its own links name it so: canonical, feed and sitemap.
    expect(page.text).toContain(`<link rel="canonical" href="${blog.url}${enc(nfc(NOTE))}">`);
    expect((await blog.page('/feed.xml')).text).toContain(enc(nfc(NOTE)));
    expect((await blog.page('/sitemap.xml')).text).toContain(enc(nfc(NOTE)));
    expect((await blog.page('/sitemap.xml')).text).not.toContain(enc(nfd(NOTE)));
  });

  it('the NFD spelling answers 301 to it, query kept, and the redirect lands on the page', async () => {
    const moved = await blog.page(enc(nfd(NOTE)) + '?x=1');
    expect(moved.status).toBe(301);
    expect(moved.headers.get('location')).toBe(enc(nfc(NOTE)) + '?x=1');
    const res = await fetch(blog.url + enc(nfd(NOTE)));
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('CAFE-CREME-WORDS');
  });

  it('the other loose spellings combine with it (case and spaces, in either form)', async () => {
    for (const route of [enc(nfc('/blog/café crème')), enc(nfd('/blog/café crème'))]) {
      const moved = await blog.page(route);
      expect(moved.status, route).toBe(301);
      expect(moved.headers.get('location')).toBe(enc(nfc(NOTE)));
    }
  });

  it('an NFD-named attachment is served at its composed address, and its NFD spelling leads there', async () => {
    const own = await blog.page(enc(nfc(IMAGE)));
    expect([own.status, own.text]).toEqual([200, 'TEA-BYTES']);
    const moved = await blog.page(enc(nfd(IMAGE)));
    expect(moved.status).toBe(301);
    expect(moved.headers.get('location')).toBe(enc(nfc(IMAGE)));
  });

  it('links written in either form lead to the note and attachment at their composed addresses, as in Obsidian', async () => {
    const menu = await blog.waitForPage('/Blog/Menu', (p) => p.status === 200);
    expect(menu.text).toMatch(new RegExp(`href="${enc(nfc(NOTE))}"[^>]*>coffee</a>`));
    expect(menu.text).toContain(`href="${enc(nfc(NOTE))}#top"`);
    expect(menu.text).toContain(`src="${enc(nfc(IMAGE))}"`);
    expect(menu.text).not.toContain(enc(nfd(NOTE)));
    expect(menu.text).not.toContain('class="broken');
    const note = await blog.page(enc(nfc(NOTE)));
    expect(note.text).toContain(`src="${enc(nfc(IMAGE))}"`);
  });

  it('CONTRACT §6: an unpublished note answers what a missing address answers, in NFC and in NFD', async () => {
    const missing = await blog.page(enc(nfc('/Blog/Crème-Nowhere')));
    expect(missing.status).toBe(404);
    for (const route of [enc(nfc(DRAFT)), enc(nfd(DRAFT)), enc(nfc(DRAFT.toLowerCase()))]) {
      const page = await blog.page(route);
      expect(page.status, route).toBe(404);
      expect(page.text, route).toBe(missing.text);
      expect(page.text).not.toContain('BRULEE-SECRET-WORDS');
    }
  });
});
