// The visitor search index in the browser (format: shared/search/index-format.ts). The
// manifest says where the base lives; the page downloads the base's field lengths once,
// and for each query the shards of its own words (kept for the next). The page's one
// engine (engine.ts) is made when the field lengths arrive and ranks each query over the
// words it reads.
import { META_CHUNK, META_WARM_BYTES, shardsHolding, type MetaRow, type SearchManifest, type ShardFile } from '../../../shared/search/index-format.ts';
import { PageEngine, queryWords, Ranked, type LoadedShard } from './engine.ts';

/** A manifest that says the base is being prepared is read again this often, for this long. */
const PREPARING_RETRY_MS = 1_000;
const PREPARING_WAIT_MS = 60_000;

/** A base file the manifest names is gone: the base was replaced since (open the manifest again). */
export class StaleIndex extends Error {}

export class VisitorIndex {
  private shards = new Map<string, Promise<ShardFile>>();
  private metaFiles = new Map<string, Promise<(MetaRow | null)[]>>();
  private engine: Promise<PageEngine> | null = null;

  private constructor(
    private readonly manifest: SearchManifest,
    private readonly url: URL,
  ) {}

  /**
   * Reads the manifest at `url` (served no-cache: revalidated each time, it changes with every
   * edit; the page preloads it), again every `retryMs` while it says the base is being prepared
   * (a large site's first seconds), for at most `waitMs`.
   */
  static async open(url: URL, retryMs = PREPARING_RETRY_MS, waitMs = PREPARING_WAIT_MS): Promise<VisitorIndex> {
    for (let waited = 0; ; waited += retryMs) {
      const res = await fetch(url);
      if (!res.ok) throw new Error(`search index: ${res.status}`);
      const manifest = (await res.json()) as SearchManifest;
      if (!manifest.preparing) return new VisitorIndex(manifest, url);
      if (waited >= waitMs) throw new Error('search index: still being prepared');
      await new Promise((resolve) => setTimeout(resolve, retryMs));
    }
  }

  private async file<T>(name: string): Promise<T> {
    const res = await fetch(new URL(name, this.url));
    if (res.status === 404) throw new StaleIndex(name);
    if (!res.ok) throw new Error(`search index: ${res.status}`);
    return (await res.json()) as T;
  }

  private shard(name: string): Promise<ShardFile> {
    let pending = this.shards.get(name);
    if (!pending) {
      pending = this.file<ShardFile>(name);
      pending.catch(() => this.shards.delete(name));
      this.shards.set(name, pending);
    }
    return pending;
  }

  /** The page's engine, made once the base's field lengths are in. */
  private pageEngine(): Promise<PageEngine> {
    if (!this.engine) {
      const made = this.file<number[]>(this.manifest.lengths).then((lengths) => new PageEngine(this.manifest, lengths));
      made.catch(() => (this.engine = null));
      this.engine = made;
    }
    return this.engine;
  }

  /** Where the shards of a query's words (of `shortest` characters or more) are, in the manifest. */
  private shardsOf(query: string, shortest = 1): number[] {
    const at = new Set<number>();
    for (const word of queryWords(query)) {
      if (word.term.length >= shortest) for (const i of shardsHolding(this.manifest.shards, word.term, word.prefix)) at.add(i);
    }
    return [...at];
  }

  /**
   * Starts downloading what `query` will need while it is typed (a word of one letter
   * waits: it is most often the start of a longer one); errors wait for the search itself.
   */
  prefetch(query: string): void {
    this.pageEngine().catch(() => null);
    for (const i of this.shardsOf(query, 2)) this.shard(this.manifest.shards[i]![1]).catch(() => null);
  }

  async search(query: string): Promise<Ranked> {
    const at = this.shardsOf(query);
    if (at.length === 0 && this.manifest.delta.length === 0) return Ranked.none;
    const [engine, ...shards] = await Promise.all([
      this.pageEngine(),
      ...at.map((i) => this.shard(this.manifest.shards[i]![1]).then((terms): LoadedShard => ({ at: i, terms }))),
    ]);
    return engine.rank(query, shards);
  }

  private metaFile(name: string): Promise<(MetaRow | null)[]> {
    let pending = this.metaFiles.get(name);
    if (!pending) {
      pending = this.file<(MetaRow | null)[]>(name);
      pending.catch(() => this.metaFiles.delete(name));
      this.metaFiles.set(name, pending);
    }
    return pending;
  }

  /**
   * Fetches every meta file not yet in hand, two at a time, when they are small enough
   * (META_WARM_BYTES): after that a query's results show as soon as it is ranked, with no
   * round trip for what they show. Answers whether it fetched them.
   */
  async warmMeta(): Promise<boolean> {
    if (this.manifest.metaBytes > META_WARM_BYTES) return false;
    const names = this.manifest.meta.filter((name) => !this.metaFiles.has(name));
    const next = async (): Promise<void> => {
      const name = names.shift();
      if (name === undefined) return;
      await this.metaFile(name).catch(() => null);
      return next();
    };
    await Promise.all([next(), next()]);
    return true;
  }

  /** What each result shows, by id. */
  async meta(ids: number[]): Promise<Map<number, MetaRow>> {
    const out = new Map<number, MetaRow>();
    const { manifest } = this;
    const chunks = new Set<number>();
    for (const id of ids) {
      if (id >= manifest.docs) {
        const doc = manifest.delta[id - manifest.docs];
        if (doc) out.set(id, doc.meta);
      } else chunks.add(Math.floor(id / META_CHUNK));
    }
    await Promise.all(
      [...chunks].map(async (chunk) => {
        const rows = await this.metaFile(manifest.meta[chunk]!);
        for (const id of ids) {
          if (Math.floor(id / META_CHUNK) !== chunk) continue;
          const row = rows[id % META_CHUNK];
          if (row) out.set(id, row);
        }
      }),
    );
    return out;
  }

  /** A result's page address, resolved beside the manifest (a site served under a path keeps it). */
  pageUrl(row: MetaRow): string {
    return new URL('.' + row[0], this.url).href;
  }
}
