// scripts/early-build-thread.cjs starts `npm run build`'s build thread before the bundle is loaded; the
// bundle (site/build/build-thread-link.ts) takes it as one of its own. The two must agree on what
// a build thread is started with.
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { BUILD_THREAD_HEAP_MB, BUILD_THREAD_ROLE } from '../../site/build/build-thread-link.ts';

const { BUILD_THREAD } = createRequire(import.meta.url)('../../scripts/early-build-thread.cjs') as { BUILD_THREAD: { role: string; heapMb: number } };

describe('early build thread', () => {
  it("is started with the bundle's own build thread role and heap cap", () => {
    expect(BUILD_THREAD).toEqual({ role: BUILD_THREAD_ROLE, heapMb: BUILD_THREAD_HEAP_MB });
  });
});
