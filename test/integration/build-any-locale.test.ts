// The same vault makes the same site whatever the server's locale (`LANG`, `LC_ALL`). The default
// collator follows the environment: a Swedish one sorts `Ö` after `Z`, an English one before it.
// Dateless notes, listed by path, came out in another order, prev/next with them, and a link to a
// name two notes share led to another of them, on a laptop than in a container or in CI.
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cli } from '../helpers/cli.ts';
import { cleanupTempDirs, tempDir, treeOf, writeFiles } from '../helpers/tmp.ts';

afterAll(cleanupTempDirs);

const note = (body: string) => `---\npublish: true\n---\n${body}\n`;

describe('vault-service build under two locales', () => {
  it('writes the same files, byte for byte', async () => {
    const base = await tempDir('vs-locale-');
    const vault = path.join(base, 'vault');
    // No dates: the notes share one moment (the files' own time is set alike below) and are listed by path.
    await writeFiles(vault, {
      'Zebra.md': note('Z.'),
      'Örn.md': note('Ö.'),
      'Apple.md': note('A.'),
      'Äpple.md': note('Ä.'),
      // Two notes named alike, paths of one length: the link's choice is a tie-break.
      'Zebras/Note.md': note('In Zebras.'),
      'Ärende/Note.md': note('In Ärende.'),
      'Links.md': note('See [[Note]].'),
    });
    const { utimes } = await import('node:fs/promises');
    const moment = new Date('2024-01-15T00:00:00Z');
    for (const p of ['Zebra.md', 'Örn.md', 'Apple.md', 'Äpple.md', 'Zebras/Note.md', 'Ärende/Note.md', 'Links.md']) await utimes(path.join(vault, p), moment, moment);
    const build = async (locale: string) => {
      const out = path.join(base, `site-${locale}`);
      const run = await cli(['build', '--vault', vault, '--data', path.join(base, `data-${locale}`), '--out', out, '--site-url', 'https://example.org'], { LANG: locale, LC_ALL: locale });
      expect(run.code, run.stderr).toBe(0);
      return treeOf(out);
    };
    const english = await build('C.UTF-8');
    const swedish = await build('sv_SE.UTF-8');
    // The English order puts Örn before Zebra; the Swedish one after.
    const home = english.get('index.html')!;
    expect(home.indexOf('/%C3%96rn')).toBeGreaterThan(0);
    expect(home.indexOf('/%C3%96rn')).toBeLessThan(home.indexOf('/Zebra"'));
    const differing = [...english.keys()].filter((f) => swedish.get(f) !== english.get(f));
    expect(differing).toEqual([]);
    expect([...swedish.keys()].sort()).toEqual([...english.keys()].sort());
  });
});
