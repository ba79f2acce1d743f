// The admin's backlinks panel shows each link's line: a short line whole, a long one around
// its own link (a link far along a long `Related:` line was cut off before), cut between
// words, with "…" where cut.
import { describe, expect, it } from 'vitest';
import { indexNote } from '../../admin/search/note-entry.ts';
import type { VaultPath } from '../../shared/vault-path.ts';

const contexts = (text: string, target: string) =>
  indexNote('Linking.md' as VaultPath, text, 0)
    .links.filter((l) => l.target === target)
    .map((l) => l.context);

describe("a backlink's line in the admin", () => {
  it('is the whole line when short', () => {
    expect(contexts('See [[Target]] here.\n', 'Target')).toEqual(['See [[Target]] here.']);
  });

  it('holds its own link on a long line, cut between words with … where cut', () => {
    const names = Array.from({ length: 40 }, (_, i) => `[[Note number ${i}]]`);
    const line = `Related: ${names.join(', ')}.`;
    for (const i of [0, 17, 39]) {
      const [context] = contexts(`  ${line}\n`, `Note number ${i}`);
      expect(context).toContain(`[[Note number ${i}]]`);
      expect(context!.length).toBeLessThanOrEqual(242);
      if (i > 0) expect(context!.startsWith('…')).toBe(true);
      if (i < 39) expect(context!.endsWith('…')).toBe(true);
      // Cut between words: no half word at either end.
      expect(context).toMatch(/^(…(\[\[|\w)|Related)/);
      expect(context).toMatch(/(]],…|\w…|]]\.)$/);
    }
    // A Markdown link far along the line too.
    const [markdown] = contexts(`${'word '.repeat(80)}[the target](Target.md) end.\n`, 'Target.md');
    expect(markdown).toContain('[the target](Target.md)');
  });

  it('shares one string among the links of a window', () => {
    const names = Array.from({ length: 40 }, (_, i) => `[[N${i}]]`);
    const entry = indexNote('Linking.md' as VaultPath, `${'word '.repeat(60)}${names.join(' ')}\n`, 0);
    const distinct = new Set(entry.links.map((l) => l.context));
    expect(distinct.size).toBeLessThan(entry.links.length / 4);
  });
});
