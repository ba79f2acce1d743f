// Browser code for the search bench's baseline (bundled by esbuild, evaluated in the
// page): the same index and the same MiniSearch query, but the whole base downloaded and
// loaded at once, as a search that ships one index file does. Answers the time to the
// ranked ids, the bytes fetched (compressed, from Resource Timing) and the hit count.
import { QUERY_OPTIONS } from '../../site/client/search/engine.ts';
import { baseDocsOf, decodeShard, engineOf } from '../../site/client/search/whole-index.ts';
import type { SearchManifest, ShardFile } from '../../shared/search/index-format.ts';

declare global {
  interface Window {
    searchBaseline: (query: string) => Promise<{ ms: number; bytes: number; hits: number }>;
  }
}

window.searchBaseline = async (query: string) => {
  performance.clearResourceTimings();
  const started = performance.now();
  const url = new URL('/search.json', location.href);
  const json = <T>(file: string) => fetch(new URL(file, url), { cache: 'no-store' }).then((r) => r.json() as Promise<T>);
  const manifest = await json<SearchManifest>(url.href);
  const [flat, ...shards] = await Promise.all([json<number[]>(manifest.lengths), ...manifest.shards.map(([, file]) => json<ShardFile>(file))]);
  const engine = engineOf(manifest, baseDocsOf(manifest, flat), shards.flatMap((s) => decodeShard(s)));
  const hits = engine.search(query, QUERY_OPTIONS);
  const ms = performance.now() - started;
  const bytes = performance
    .getEntriesByType('resource')
    .filter((e) => /\/search\.json|\/_s\/search\//.test(e.name))
    .reduce((sum, e) => sum + (e as PerformanceResourceTiming).encodedBodySize, 0);
  return { ms, bytes, hits: hits.length };
};
