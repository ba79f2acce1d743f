// A server's first build of a large vault makes its search base later, from each note again
// (site/plan/search-index.ts): the read keeps no search texts once that is sure, rather than
// holding about 20 MB of them (a realistic 10,000 notes) until the plan drops them.
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { NoteReader } from '../../shared/model/note-reader.ts';
import type { VaultPath } from '../../shared/vault-path.ts';
import { readShared } from '../../site/build/full-build.ts';
import { cleanupTempDirs, tempDir, writeFiles } from '../helpers/tmp.ts';

afterAll(cleanupTempDirs);

async function vault(): Promise<{ reader: NoteReader; paths: VaultPath[] }> {
  const root = await tempDir('vs-first-texts-');
  const notes: Record<string, string> = {};
  // Three chunks of reading (readChunkFor: 50 notes each), a draft among them.
  for (let i = 0; i < 120; i++) notes[`N${String(i).padStart(3, '0')}.md`] = i === 5 ? 'A draft.\n' : `---\npublish: true\n---\nNote ${i} on zebra${i}.\n`;
  await writeFiles(root, notes);
  return { reader: new NoteReader({ vaultDir: root, dataDir: null, useGit: false }), paths: Object.keys(notes).map((p) => p as VaultPath) };
}

/** Each chunk as the read callback sees it: how many of its records hold a search text. */
async function read(textsUpTo: number | null): Promise<{ chunks: number[]; texts: number; after: boolean }> {
  const { reader, paths } = await vault();
  const chunks: number[] = [];
  const records = await readShared(reader, paths, null, Promise.resolve(), (chunk) => chunks.push(chunk.filter((r) => r.searchText !== null).length), textsUpTo);
  return { chunks, texts: records.filter((r) => r.searchText !== null).length, after: reader.searchTexts };
}

describe("a first build's read", () => {
  it('keeps every published note’s search text when the base is made in the pass', async () => {
    expect(await read(null)).toEqual({ chunks: [49, 50, 20], texts: 119, after: true });
    // Fewer published notes than the threshold: the base is made in the pass, from these texts.
    expect(await read(120)).toEqual({ chunks: [49, 50, 20], texts: 119, after: true });
  });

  it('lets them go, and makes no more, once the published notes read reach the threshold', async () => {
    expect(await read(40)).toEqual({ chunks: [0, 0, 0], texts: 0, after: true });
    expect(await read(60)).toEqual({ chunks: [49, 0, 0], texts: 0, after: true });
  });
});
