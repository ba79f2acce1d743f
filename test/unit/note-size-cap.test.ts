// A note over MAX_NOTE_BYTES (16 MB, the admin API's own cap) is left out of the site with a
// warning: one of 121 MB arriving by a pull ran the build process out of memory again and
// again (its heap doubled up to 5 GB) and the site went unbuilt.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { MAX_NOTE_BYTES, NoteReader } from '../../shared/model/note-reader.ts';
import type { VaultPath } from '../../shared/vault-path.ts';
import { cleanupTempDirs, tempDir } from '../helpers/tmp.ts';

afterAll(cleanupTempDirs);

describe('NoteReader', () => {
  it('reads a note of MAX_NOTE_BYTES, and leaves out one a byte over, saying so', async () => {
    const vault = await tempDir('vs-note-size-');
    const head = '---\npublish: true\n---\n';
    await fs.writeFile(path.join(vault, 'At the cap.md'), head + 'x'.repeat(MAX_NOTE_BYTES - head.length));
    await fs.writeFile(path.join(vault, 'Over the cap.md'), head + 'x'.repeat(MAX_NOTE_BYTES - head.length + 1));
    await fs.writeFile(path.join(vault, 'Small.md'), head + 'small\n');
    const warned: string[] = [];
    const write = process.stderr.write.bind(process.stderr);
    process.stderr.write = ((chunk: string | Uint8Array) => (warned.push(String(chunk)), true)) as typeof process.stderr.write;
    let records;
    try {
      records = new NoteReader({ vaultDir: vault, dataDir: null, useGit: false }).readMany(['At the cap.md', 'Over the cap.md', 'Small.md'] as VaultPath[]);
    } finally {
      process.stderr.write = write;
    }
    expect(records.map((r) => r.path)).toEqual(['At the cap.md', 'Small.md']);
    expect(warned.join('')).toContain('Over the cap.md is 16 MB, over the 16 MB a note may be: it is left out of the site');
  });
});
