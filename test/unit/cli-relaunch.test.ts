// `vault-service build` without the snapshot's V8 flags starts itself again with them
// (scripts/cli/relaunch.ts): the same entry and arguments, after the process's own Node
// options, only the flags it lacks; none at all when it has them (`npm run build`), nor on a
// Node with its own module compile cache, which it turns on instead.
import nodeModule from 'node:module';
import { describe, expect, it } from 'vitest';
import { nodeCompileCache, relaunchArgs } from '../../scripts/cli/relaunch.ts';
import { SNAPSHOT_V8_FLAGS } from '../../site/build/build-heap.ts';

describe('which way a build starts', () => {
  it('on a Node with its own compile cache: that cache turned on, no second process', () => {
    const calls: string[] = [];
    const enable = nodeCompileCache({ enableCompileCache: () => calls.push('on') });
    expect(enable).not.toBeNull();
    enable!();
    expect(calls).toEqual(['on']);
    expect(relaunchArgs([], ['node', 'cli.js', 'build'], true)).toBeNull();
  });

  it('on a Node without one (Node 20): the relaunch with the flags; this Node is the one or the other', () => {
    expect(nodeCompileCache({})).toBeNull();
    const running = typeof (nodeModule as { enableCompileCache?: unknown }).enableCompileCache === 'function';
    expect(nodeCompileCache() !== null).toBe(running);
    expect(relaunchArgs([], ['node', 'cli.js', 'build']) === null).toBe(running);
  });
});

describe.runIf(nodeCompileCache() === null)('relaunchArgs on a Node without its own compile cache', () => {
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
