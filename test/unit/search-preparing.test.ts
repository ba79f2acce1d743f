// A large site's first build goes live before its search base (site/plan/search-index.ts):
// its manifest says the base is being prepared. A page that searches then reads the manifest
// again until the base is there, and answers from it; past its patience it fails, as any
// unreadable index does. Served by a real HTTP server.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, expect, it } from 'vitest';
import type { SearchManifest } from '../../shared/search/index-format.ts';
import { VisitorIndex } from '../../site/client/search/index-client.ts';

const PREPARING: SearchManifest = { v: 1, docs: 0, avg: [], lengths: '', shards: [], meta: [], metaBytes: 0, gone: [], delta: [], preparing: true };
// A base of no notes and one note in the delta: an index a page can answer from without shards.
const READY: SearchManifest = {
  v: 1,
  docs: 0,
  avg: [0, 0, 0, 0],
  lengths: '_s/search/lengths.x.json',
  shards: [],
  meta: [],
  metaBytes: 0,
  gone: [],
  delta: [{ id: 0, title: 'Zebras', headings: '', tags: '', text: 'stripes on the savanna', meta: ['/zebras', 'Zebras', '', '2024-01-01T00:00:00.000Z', 'en'] }],
};

let server: http.Server | null = null;
afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

/** Serves the manifest `preparingFor` times as still preparing, then ready; counts the reads. */
async function serve(preparingFor: number): Promise<{ url: URL; reads: () => number }> {
  let reads = 0;
  server = http.createServer((req, res) => {
    res.setHeader('content-type', 'application/json');
    if (req.url === '/search.json') res.end(JSON.stringify(reads++ < preparingFor ? PREPARING : READY));
    else if (req.url === '/_s/search/lengths.x.json') res.end('[]');
    else res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return { url: new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/search.json`), reads: () => reads };
}

it('reads a manifest that says the base is being prepared again until it is, then answers from it', async () => {
  const { url, reads } = await serve(3);
  const index = await VisitorIndex.open(url, 10, 5_000);
  expect(reads()).toBe(4);
  const hits = await index.search('zebras');
  expect(hits.length).toBe(1);
});

it('gives up on a base that never comes, as on an index it cannot read', async () => {
  const { url, reads } = await serve(Number.POSITIVE_INFINITY);
  await expect(VisitorIndex.open(url, 10, 50)).rejects.toThrow(/being prepared/);
  expect(reads()).toBeGreaterThanOrEqual(5);
});
