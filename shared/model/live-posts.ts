// The post list kept live for GET /api/posts: one store read once, then only the
// paths the change bus names are re-read, just before the next answer.
import type { Config } from '../config.ts';
import type { Settings } from '../settings.ts';
import type { VaultEvents } from '../vault-events.ts';
import { isNotePath } from '../vault-path.ts';
import { modelSettings } from './model-settings.ts';
import { postItem, type PostItem } from './posts.ts';
import { deriveSiteModel } from './site-model.ts';
import { VaultStore } from './vault-store.ts';

export interface LivePostsOptions {
  config: Config;
  events: VaultEvents;
  readSettings: () => Promise<Settings>;
  skipDirs?: string[];
}

export class LivePosts {
  private store: VaultStore;
  private loaded: Promise<void> | null = null;
  private dirty = new Set<string>();
  private cache: { version: number; settings: Settings; posts: PostItem[] } | null = null;

  constructor(private readonly options: LivePostsOptions) {
    this.store = new VaultStore({ vaultDir: options.config.vaultDir, dataDir: options.config.dataDir, skipDirs: options.skipDirs });
    options.events.onChange((change) => {
      if (isNotePath(change.path)) this.dirty.add(change.path);
    });
  }

  /** Posts newest first, as visitors see them (spec 2.5, D.2). */
  async list(): Promise<PostItem[]> {
    this.loaded ??= this.store.loadAll();
    await this.loaded;
    if (this.dirty.size) {
      const paths = [...this.dirty];
      this.dirty.clear();
      await this.store.update(paths);
    }
    const settings = await this.options.readSettings();
    if (this.cache && this.cache.version === this.store.version && this.cache.settings === settings) return this.cache.posts;
    const model = deriveSiteModel(this.store.records.values(), modelSettings(settings, this.options.config));
    const posts = model.posts.map(postItem);
    this.cache = { version: this.store.version, settings, posts };
    return posts;
  }
}
