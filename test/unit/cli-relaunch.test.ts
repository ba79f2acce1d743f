// `vault-service build` without the snapshot's V8 flags starts itself again with them
// (scripts/cli/relaunch.ts): the same entry and arguments, after the process's own Node
// options, only the flags it lacks; none at all when it has them (`npm run build`).
import { describe, expect, it } from 'vitest';
import { relaunchArgs } from '../../scripts/cli/relaunch.ts';
import { SNAPSHOT_V8_FLAGS } from '../../site/build/build-heap.ts';

describe('relaunchArgs', () => {
  it('adds the flags before the entry and keeps every argument', () => {
    expect(relaunchArgs([], ['/usr/bin/node', '/pkg/dist/bundle/cli.js', 'build', '--out', 'x y'])).toEqual([...SNAPSHOT_V8_FLAGS, '/pkg/dist/bundle/cli.js', 'build', '--out', 'x y']);
  });

  it('keeps the process\'s own Node options first (a loader, from source)', () => {
    expect(relaunchArgs(['--import', 'tsx'], ['node', 'scripts/cli.ts', 'build'])).toEqual(['--import', 'tsx', ...SNAPSHOT_V8_FLAGS, 'scripts/cli.ts', 'build']);
  });

  it('adds only the flags that are missing', () => {
    const [first, ...rest] = SNAPSHOT_V8_FLAGS;
    expect(relaunchArgs([first!], ['node', 'cli.js', 'build'])).toEqual([first, ...rest, 'cli.js', 'build']);
  });

  it('answers null when the process has them all (no second process)', () => {
    expect(relaunchArgs([...SNAPSHOT_V8_FLAGS], ['node', 'cli.js', 'build'])).toBeNull();
  });
});
