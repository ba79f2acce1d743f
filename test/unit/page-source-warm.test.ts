// After a build's result the server prepares the pages it changed again (filled for the base URL,
// compressed), and only once they are prepared does the collection that gives memory back run
// (shared/heap-settle.ts): a full build's warming takes seconds, and a collection in its middle
// left what the rest of it dropped (docs/dev/performance.md, "Between edits").
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { BuildResult } from '../../site/build/builder-types.ts';
import { PageCache } from '../../site/serve/page-cache.ts';
import { PageSource } from '../../site/serve/page-source.ts';
import { SiteIndex } from '../../site/serve/site-index.ts';
import { cleanupTempDirs, tempDir } from '../helpers/tmp.ts';

afterAll(cleanupTempDirs);

const BASE = 'https://example.org';

async function site(pages: number): Promise<{ dir: string; result: BuildResult }> {
  const dir = await tempDir('vs-warm-');
  const entries: [string, { file: string; type: 'html' }][] = [];
  for (let i = 0; i < pages; i++) {
    writeFileSync(path.join(dir, `p${i}.html`), `<!doctype html><title>Page ${i}</title><p>${'A sentence worth compressing. '.repeat(200)}</p>\n`);
    entries.push([`/p${i}`, { file: `p${i}.html`, type: 'html' }]);
  }
  return { dir, result: { full: true, dir, entries, upserts: [], removals: [], nav: '', rendered: pages, ms: 1 } };
}

describe('warming after a build', () => {
  it("answers once every page the build made is prepared, and an edit's once its own pages are", async () => {
    const { dir, result } = await site(120);
    const index = new SiteIndex();
    const cache = new PageCache(16 * 1024 * 1024);
    const source = new PageSource(index, cache, { fixedBase: true, siteUrl: BASE });
    index.apply(result);
    const warmed = source.applied(result);
    // Positive first: not everything is prepared at the result.
    expect(cache.ready(PageCache.key(BASE, '/p119'))).toBe(false);
    // Every page prepared again: the server's collection after it takes whatever V8's figures show.
    expect(await warmed).toBe(true);
    for (let i = 0; i < 120; i++) expect(cache.ready(PageCache.key(BASE, `/p${i}`)), `/p${i}`).toBe(true);

    const before = cache.get(PageCache.key(BASE, '/p7'))!.etag;

    // An edit: its page forgotten at the result, prepared again by the time the answer comes.
    writeFileSync(path.join(dir, 'p7.html'), '<!doctype html><title>Page 7, edited</title><p>Changed.</p>\n');
    const edit: BuildResult = { full: false, dir, upserts: [['/p7', { file: 'p7.html', type: 'html' }]], removals: [], nav: null, rendered: 1, ms: 1 };
    index.apply(edit);
    const rewarmed = source.applied(edit);
    expect(cache.ready(PageCache.key(BASE, '/p7'))).toBe(false);
    expect(await rewarmed).toBe(false);
    expect(cache.ready(PageCache.key(BASE, '/p7'))).toBe(true);
    expect(cache.get(PageCache.key(BASE, '/p7'))!.etag).not.toBe(before);
  });
});
