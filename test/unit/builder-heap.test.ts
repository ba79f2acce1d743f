// The build process's heap cap grows with the vault (issue 12): a 30,000-note vault
// built under a 10,000-note cap ran out, and its first build was thrown away and redone.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { PROJECT_DIR } from '../../shared/project-dir.ts';
import { BUILD_V8_FLAGS, SNAPSHOT_V8_FLAGS, heapForNotes, semiSpaceForNotes, SERVER_PARTNER_MIN_NOTES } from '../../site/build/build-heap.ts';

describe('the build process heap cap', () => {
  it('is 320 MB up to about 10,000 notes, and grows with the vault beyond', () => {
    expect(heapForNotes(0)).toBe(320);
    expect(heapForNotes(10_000)).toBe(320);
    expect(heapForNotes(30_000)).toBeGreaterThanOrEqual(620);
    expect(heapForNotes(100_000)).toBeGreaterThan(heapForNotes(30_000));
    expect(heapForNotes(10_000_000)).toBe(8192);
  });

  it('keeps a small young generation while the builder works alone, and V8\'s own once it takes a partner', () => {
    expect(semiSpaceForNotes(10_000)).toBe(8);
    expect(semiSpaceForNotes(SERVER_PARTNER_MIN_NOTES - 1)).toBe(8);
    expect(semiSpaceForNotes(SERVER_PARTNER_MIN_NOTES)).toBeNull();
  });
});

describe('the V8 flags of a build', () => {
  it('are a snapshot\'s too, and those `npm run build` starts Node with (the server\'s builder takes them from BUILD_V8_FLAGS)', () => {
    const scripts = (JSON.parse(readFileSync(path.join(PROJECT_DIR, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;
    const node = scripts.build!.split(' scripts/run-compiled.mjs')[0]!.split(' ');
    expect(BUILD_V8_FLAGS.length).toBeGreaterThan(0);
    expect(SNAPSHOT_V8_FLAGS).toEqual(expect.arrayContaining([...BUILD_V8_FLAGS]));
    expect(node.slice(2)).toEqual([...SNAPSHOT_V8_FLAGS]);
  });

  it('are flags this Node knows (an unknown one would stop `node` before it starts)', () => {
    const out = execFileSync(process.execPath, [...SNAPSHOT_V8_FLAGS, '-e', 'process.stdout.write("ran")'], { encoding: 'utf8' });
    expect(out).toBe('ran');
  });
});
