// The Site health rule for links into headings and blocks is the page's: over generated
// notes (headings repeated, nested, holding links, in Arabic; block ids on paragraphs and
// list items; links and embeds right, misspelt, by heading path, into the note itself), a
// built site's link lands on an element of its page exactly when no warning names it, and
// an embed shows its part exactly when none does.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { seeded } from '../helpers/seeded.ts';
import { buildSnapshot } from '../helpers/snapshot.ts';
import { cleanupTempDirs, tempDir, writeFiles } from '../helpers/tmp.ts';

afterAll(cleanupTempDirs);

const WORDS = ['Install', 'Usage', 'Intro', 'Notes', 'Setup', 'مقدمة', 'Options', 'Big idea'];
const TARGETS = 4;
const LINKERS = 8;

interface Written {
  /** The link as a warning names it (`T1#Usage`, `#Intro`). */
  link: string;
  embed: boolean;
  /** The alias its link shows (a link), or the note it is in. */
  label: string;
  note: string;
}

function generate(seed: number) {
  const next = seeded(seed);
  const pick = <T,>(list: readonly T[]) => list[next(list.length)]!;
  const files: Record<string, string> = {};
  const headings = new Map<string, string[]>();
  const blocks = new Map<string, string[]>();
  for (let t = 0; t < TARGETS; t++) {
    const lines: string[] = [];
    const own: string[] = [];
    const ids: string[] = [];
    for (let h = 0; h < 6; h++) {
      const word = pick(WORDS);
      const level = 2 + next(2);
      // A heading holding a link reads its display text; Obsidian names it with the link's words.
      lines.push(next(6) === 0 ? `${'#'.repeat(level)} [[T${(t + 1) % TARGETS}|${word}]] part` : `${'#'.repeat(level)} ${word}`);
      own.push(next(6) === 0 ? `${word} part` : word);
      const id = `b${t}-${h}`;
      ids.push(id);
      lines.push(next(2) ? `Text under it. ^${id}` : `- an item ^${id}\n  - nested under it`);
    }
    headings.set(`T${t}`, own);
    blocks.set(`T${t}`, ids);
    files[`Guide/T${t}.md`] = `---\npublish: true\ndate: 2026-01-0${t + 1}\n---\n${lines.join('\n\n')}\n`;
  }
  const written: Written[] = [];
  for (let l = 0; l < LINKERS; l++) {
    const note = `L${l}`;
    const parts: string[] = ['## Here', 'Some words. ^here'];
    for (let k = 0; k < 14; k++) {
      const self = next(7) === 0;
      const target = self ? '' : `T${next(TARGETS)}`;
      const known = self ? ['Here'] : headings.get(target)!;
      const ids = self ? ['here'] : blocks.get(target)!;
      const kind = next(6);
      const sub =
        kind === 0 ? pick(known)
        : kind === 1 ? `${pick(known)}s`
        : kind === 2 ? `${pick(WORDS)}#${pick(WORDS)}`
        : kind === 3 ? `^${pick(ids)}`
        : kind === 4 ? `^${pick(ids)}x`
        : `${pick(WORDS)}-1`;
      const embed = !self && next(3) === 0;
      const label = `${note}-${k}`;
      const link = `${target}#${sub}`;
      written.push({ link, embed, label, note });
      parts.push(embed ? `![[${link}]]` : `See [[${link}|${label}]].`);
    }
    files[`${note}.md`] = `---\npublish: true\ndate: 2026-02-0${(l % 9) + 1}\n---\n${parts.join('\n\n')}\n`;
  }
  return { files, written };
}

const unescape = (s: string) => s.replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
const idsIn = (html: string) => new Set([...html.matchAll(/ id="([^"]*)"/g)].map((m) => unescape(m[1]!)));

describe('a warning names a link or embed into a heading or block exactly when the page misses it', () => {
  it.each([1, 2, 3])('seed %i', async (seed) => {
    const root = await tempDir('vs-anchors-');
    const vault = path.join(root, 'vault');
    const { files, written } = generate(seed);
    await writeFiles(vault, files);
    const { res, out } = buildSnapshot(root, vault, 'default');
    expect(res.status, res.stderr).toBe(0);
    const warned = new Set(
      [...res.stderr.matchAll(/^ {2}(L\d+)\.md: (links to "([^"]+)"|embeds !\[\[([^\]]+)\]\]), but /gm)].map((m) => `${m[1]}|${m[3] ?? m[4]}|${m[4] !== undefined}`),
    );
    const page = (name: string) => fs.readFile(path.join(out, `${name}.html`), 'utf8');
    let lands = 0;
    let misses = 0;
    for (const w of written) {
      const html = await page(w.note);
      let shown: boolean;
      if (w.embed) {
        shown = html.includes(`data-embed="${w.link.replace(/"/g, '&quot;')}"`);
      } else {
        const href = unescape(new RegExp(`<a [^>]*href="([^"]*)"[^>]*>${w.label}</a>`).exec(html)![1]!);
        const hash = href.indexOf('#');
        const base = hash > 0 ? href.slice(0, hash) : null;
        const ids = base === null ? idsIn(html) : idsIn(await page(decodeURIComponent(base.replace(/^\//, ''))));
        shown = hash >= 0 && ids.has(decodeURIComponent(href.slice(hash + 1)));
      }
      shown ? lands++ : misses++;
      expect(warned.has(`${w.note}|${w.link}|${w.embed}`), `${w.note}: ${w.embed ? '!' : ''}[[${w.link}]] ${shown ? 'lands' : 'misses'}`).toBe(!shown);
    }
    // Both cases met, several times each.
    expect(lands).toBeGreaterThan(20);
    expect(misses).toBeGreaterThan(20);
  });
});
