// CONTRACT §6 with Unicode names: a file saved with an NFD name (macOS writes them so)
// and the NFC address people type stand for the same page. As with case, spaces and a
// trailing slash, the other spelling answers 301 to the one real address; an
// unpublished note stays exactly as missing in either form.
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
  await blog.waitForPage(enc(nfd(NOTE)), (p) => p.status === 200);
});

describe('NFC and NFD spellings of an address are one address', () => {
  it('the NFD address of an NFD-named note answers the page', async () => {
    const page = await blog.page(enc(nfd(NOTE)));
    expect(page.status).toBe(200);
    expect(page.text).toContain('CAFE-CREME-WORDS');
  });

  it('the NFC address (as typed) answers 301 to it, query kept, and the redirect lands on the page', async () => {
    const moved = await blog.page(enc(nfc(NOTE)) + '?x=1');
    expect(moved.status).toBe(301);
    expect(moved.headers.get('location')).toBe(enc(nfd(NOTE)) + '?x=1');
    const res = await fetch(blog.url + enc(nfc(NOTE)));
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('CAFE-CREME-WORDS');
  });

  it('the other loose spellings combine with it (case and spaces in NFC)', async () => {
    const moved = await blog.page(enc(nfc('/blog/café crème')));
    expect(moved.status).toBe(301);
    expect(moved.headers.get('location')).toBe(enc(nfd(NOTE)));
  });

  it('an NFD-named attachment is served at its own address, and its NFC spelling leads there', async () => {
    const own = await blog.page(enc(nfd(IMAGE)));
    expect([own.status, own.text]).toEqual([200, 'TEA-BYTES']);
    const moved = await blog.page(enc(nfc(IMAGE)));
    expect(moved.status).toBe(301);
    expect(moved.headers.get('location')).toBe(enc(nfd(IMAGE)));
  });

  it('links written composed lead to the decomposed note and attachment, as in Obsidian', async () => {
    const menu = await blog.waitForPage('/Blog/Menu', (p) => p.status === 200);
    expect(menu.text).toMatch(new RegExp(`href="${enc(nfd(NOTE))}"[^>]*>coffee</a>`));
    expect(menu.text).toContain(`href="${enc(nfd(NOTE))}#top"`);
    expect(menu.text).toContain(`src="${enc(nfd(IMAGE))}"`);
    expect(menu.text).not.toContain('class="broken');
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
