// A built page filled for a visitor (site/serve/substitute.ts), worked on its bytes: the base
// URL, the explorer, the comment notice's place and the admin's Edit links, with the offsets
// of the last two in bytes of what is sent, whatever the page's characters before them.
import { describe, expect, it } from 'vitest';
import { BASE_TOKEN, BASE_TOKEN_ENCODED } from '../../site/plan/frame.ts';
import { NAV_MARKER, STYLE_MARKER, materializeBytes, materializeForVisitor } from '../../site/serve/substitute.ts';

const fill = (page: string, base = 'https://ex.test', nav = '<nav>N</nav>') => materializeBytes(Buffer.from(page), base, nav);

/** The admin's page: the visitor's bytes with each Edit link spliced in at its offset. */
function spliced(body: Buffer, splices: { at: number; html: string }[]): string {
  let out = '';
  let last = 0;
  for (const s of splices) {
    out += body.subarray(last, s.at).toString() + s.html;
    last = s.at;
  }
  return out + body.subarray(last).toString();
}

describe('a built page filled for a visitor', () => {
  it('takes the base URL, plain and encoded, wherever the page holds it', () => {
    const { body, edits, notice } = fill(`<a href="${BASE_TOKEN}/a">x</a><a href="/share?u=${BASE_TOKEN_ENCODED}%2Fa">y</a>${BASE_TOKEN}`, 'https://ex.test:8080');
    expect(body.toString()).toBe('<a href="https://ex.test:8080/a">x</a><a href="/share?u=https%3A%2F%2Fex.test%3A8080%2Fa">y</a>https://ex.test:8080');
    expect(edits).toEqual([]);
    expect(notice).toBeNull();
  });

  it('puts the explorer where its marker is, as text (a `$&` in it stays as written)', () => {
    expect(fill(`<body>${NAV_MARKER}<main>M</main>`, 'b', `<nav>$' $&</nav>`).body.toString()).toBe(`<body><nav>$' $&</nav><main>M</main>`);
  });

  it('splices the Edit links at byte offsets that hold after Arabic text and a base URL before them', () => {
    const page = `<h1>مرحبا ${BASE_TOKEN}</h1><!--service:edit:Notes%2Fa.md:Edit--><p>ü</p><!--service:edit:b.md:%D8%AA%D8%AD%D8%B1%D9%8A%D8%B1--><p>end</p>`;
    const { body, edits } = fill(page);
    expect(body.toString()).toBe('<h1>مرحبا https://ex.test</h1><p>ü</p><p>end</p>');
    expect(edits).toHaveLength(2);
    expect(spliced(body, edits)).toBe(
      '<h1>مرحبا https://ex.test</h1> <a class="s-edit" href="/admin/?path=Notes%2Fa.md" rel="nofollow">Edit</a><p>ü</p> <a class="s-edit" href="/admin/?path=b.md" rel="nofollow">تحرير</a><p>end</p>',
    );
  });

  it('takes the comment notice\'s marker out and says where its texts go, in bytes', () => {
    const { body, notice, edits } = fill('<p>é</p><!--service:edit:a.md:Edit--><!--service:notice:Awaiting%20approval:Published-->');
    expect(body.toString()).toBe('<p>é</p>');
    expect(notice).toEqual({ at: Buffer.byteLength('<p>é</p>'), pending: 'Awaiting approval', approved: 'Published' });
    expect(edits[0]!.at).toBe(Buffer.byteLength('<p>é</p>'));
  });

  it('leaves text that only looks like a marker as it is, and finds the real one after it', () => {
    const page = '<p><!--service:edit:a>b--></p><!--service:edit:x:y:z--><!--service:edit:ok.md:Edit-->';
    const { body, edits } = fill(page);
    expect(body.toString()).toBe('<p><!--service:edit:a>b--></p><!--service:edit:x:y:z-->');
    expect(edits).toHaveLength(1);
    expect(edits[0]!.at).toBe(body.length);
  });

  it('links the designer\'s custom.css where its marker is, or takes the marker out; the Edit link after it lands where it belongs', () => {
    const page = `<head>${STYLE_MARKER}<script></script></head><h1>é</h1><!--service:edit:a.md:Edit-->`;
    const link = '<link rel="stylesheet" href="/custom.css?v=0123456789ab">\n';
    const linked = materializeBytes(Buffer.from(page), 'b', 'n', link);
    expect(linked.body.toString()).toBe(`<head>${link}<script></script></head><h1>é</h1>`);
    expect(linked.edits[0]!.at).toBe(linked.body.length);
    expect(materializeBytes(Buffer.from(page), 'b', 'n').body.toString()).toBe('<head><script></script></head><h1>é</h1>');
  });

  it('gives a garden page its explorer with the page marked current', () => {
    const { body } = fill('<aside><!--service:nav:%2Fa a--></aside>', 'b', '<ul class="s-tree"><li><a href="/a">A</a></li></ul>');
    expect(body.toString()).not.toContain('<!--service:nav');
    expect(body.toString()).toContain('href="/a"');
  });

  it('sends a page without markers as it was built, the same bytes', () => {
    const page = Buffer.from('<p>nothing to fill</p>');
    expect(materializeBytes(page, 'b', 'n').body).toBe(page);
  });

  it('gives the same page as text (its offsets in bytes)', () => {
    const page = `<p>ä ${BASE_TOKEN}</p><!--service:edit:a.md:Edit-->`;
    const { text, edits } = materializeForVisitor(page, 'https://ex.test', '');
    expect(text).toBe('<p>ä https://ex.test</p>');
    expect(edits[0]!.at).toBe(Buffer.byteLength(text));
  });
});
