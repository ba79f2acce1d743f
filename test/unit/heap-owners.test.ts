// The heap snapshot reader (scripts/heap-owners.ts) on a real snapshot of a real process: an
// object that alone keeps megabytes alive is named with its retained size and its path, and
// what two owners share is counted at the root, not under either.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { heapOwners } from '../../scripts/heap-owners.ts';
import { cleanupTempDirs, tempDir } from '../helpers/tmp.ts';

afterAll(cleanupTempDirs);

const PROGRAM = `
class Hoard { constructor() { this.items = Array.from({ length: 50000 }, (_, i) => ({ n: i, text: 'item ' + i })); } }
class Holder { constructor(hoard) { this.hoard = hoard; } }
class Sharer { constructor(items) { this.items = items; } }
globalThis.kept = new Holder(new Hoard());
const shared = Array.from({ length: 50000 }, (_, i) => ({ n: i }));
globalThis.one = new Sharer(shared);
globalThis.two = new Sharer(shared);
require('node:v8').writeHeapSnapshot(process.argv[1]);
`;

describe('heap owners (scripts/heap-owners.ts)', () => {
  it('names what one object alone keeps alive, with its path, and leaves what two share to the root', async () => {
    const file = path.join(await tempDir('vs-heap-'), 'a.heapsnapshot');
    execFileSync(process.execPath, ['-e', PROGRAM, file]);
    const { total, owners, shared } = heapOwners(JSON.parse(readFileSync(file, 'utf8')), 1024 * 1024);
    const hoard = owners.find((o) => o.label === 'object:Hoard')!;
    expect(hoard).toBeDefined();
    // 50,000 objects and their strings: a few megabytes, all of them the hoard's alone.
    expect(hoard.retainedBytes).toBeGreaterThan(2 * 1024 * 1024);
    expect(hoard.path).toMatch(/object:Holder\.hoard$/);
    expect(owners.find((o) => o.label === 'object:Holder')!.retainedBytes).toBeGreaterThanOrEqual(hoard.retainedBytes);
    // Neither sharer owns the shared array (no sharer retains a megabyte): it is held from the root.
    expect(owners.filter((o) => o.label === 'object:Sharer')).toEqual([]);
    expect(shared.some(([label, bytes]) => label === 'object:Array' && bytes > 1024 * 1024)).toBe(true);
    expect(total).toBeGreaterThan(hoard.retainedBytes);
  });
});
