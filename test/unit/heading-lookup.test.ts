// A link names a heading by its path (`[[Note#A#B]]`); every link on a page and every anchor
// Site health checks looks one up. A scan of the note's outline per link made a 276 KB note of
// 20,000 links into a note of 5,000 headings take 107 s to build: the outline is indexed once
// per note, and answers as the scan did.
import { describe, expect, it } from 'vitest';
import { withAnchorWarnings } from '../../shared/model/anchor-links.ts';
import { modelSettings } from '../../shared/model/model-settings.ts';
import { buildRecord } from '../../shared/model/note-record.ts';
import { deriveSiteModel } from '../../shared/model/site-model.ts';
import { findHeading, headingId, type HeadingInfo } from '../../shared/note/obsidian/headings.ts';
import { defaultSettings, siteSettingsOf } from '../../shared/settings.ts';
import type { VaultPath } from '../../shared/vault-path.ts';
import { seeded } from '../helpers/seeded.ts';

/** The rule as a scan of the outline, link by link: what the index must answer. */
function scanned(headings: HeadingInfo[], path: string[]): number {
  const names = (h: HeadingInfo, slug: string) => headingId(h.text) === slug || (h.source !== undefined && headingId(h.source.replace(/\[\[|\]\]|\|/g, ' ')) === slug);
  if (path.length === 0) return -1;
  const wanted = path.map(headingId);
  let at = -1;
  for (const slug of wanted) {
    const parent = at >= 0 ? headings[at]! : null;
    let found = -1;
    for (let i = at + 1; i < headings.length; i++) {
      if (parent && headings[i]!.level <= parent.level) break;
      if (names(headings[i]!, slug)) {
        found = i;
        break;
      }
    }
    if (found < 0) return headings.findIndex((h) => names(h, wanted[wanted.length - 1]!));
    at = found;
  }
  return at;
}

describe('a heading path is found as a scan of the outline finds it', () => {
  it('over generated outlines: levels up and down, names repeated, headings holding links', () => {
    const next = seeded(7);
    const words = ['Intro', 'Setup', 'Usage', 'Notes', 'Shown', 'X Shown', 'مقدمة'];
    for (let round = 0; round < 300; round++) {
      const headings: HeadingInfo[] = Array.from({ length: 1 + next(30) }, (_, i) => {
        const text = words[next(words.length)]!;
        const level = 1 + next(4);
        return next(5) === 0 ? { level, text, source: `[[X|${text}]]`, id: `h${i}` } : { level, text, id: `h${i}` };
      });
      for (let k = 0; k < 20; k++) {
        const path = Array.from({ length: 1 + next(3) }, () => words[next(words.length)]!);
        expect(findHeading(headings, path), JSON.stringify({ headings, path })).toBe(scanned(headings, path));
      }
    }
  });
});

describe('links into a long outline cost what they are, not the outline', () => {
  const outline = Array.from({ length: 5_000 }, (_, i) => `## Heading number ${i}\n\ntext`).join('\n\n');
  const links = Array.from({ length: 20_000 }, (_, i) => `[[T#${i % 2 ? `Nope ${i}` : `Heading number ${i % 5_000}`}]]`).join(' ');

  it('20,000 lookups in 5,000 headings (minutes as a scan per link)', () => {
    const headings = Array.from({ length: 5_000 }, (_, i) => ({ level: 2, text: `Heading number ${i}`, id: `heading-number-${i}` }));
    const started = performance.now();
    let found = 0;
    for (let i = 0; i < 20_000; i++) if (findHeading(headings, [i % 2 ? `Nope ${i}` : `Heading number ${i % 5_000}`]) >= 0) found++;
    expect(performance.now() - started).toBeLessThan(1_000);
    expect(found).toBe(10_000);
  });

  it("Site health checks a note of 20,000 anchors into them, each kept once", () => {
    const note = (path: string, body: string) => buildRecord({ path: path as VaultPath, text: `---\npublish: true\ndate: 2026-01-01\n---\n${body}\n`, createdMs: 0, fileMs: 0 });
    const records = [note('T.md', outline), note('L.md', links)];
    const env = { siteName: null, siteTagline: null, homeNote: null, siteFooter: null, siteLang: null, publicLayout: null };
    const started = performance.now();
    const warnings = withAnchorWarnings(deriveSiteModel(records, modelSettings(siteSettingsOf(defaultSettings(), env), { excludeTags: [] })));
    expect(performance.now() - started).toBeLessThan(2_000);
    expect(warnings.filter((w) => w.note === 'L.md').map((w) => w.more ?? 1).reduce((a, b) => a + b)).toBe(10_000);
  });
});
