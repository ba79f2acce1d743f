// created.json: per note path, the first creation time this instance met (spec 2.2,
// D.2). Atomic saves replace the file and so its birth time; this memory does not.
// This store is created.json's one writer, in the server process. What it learns is
// wired in one place (scripts/service.ts): every note the vault watcher meets, the
// times git's history gives (from the build process), and renames.
import { readJson, writeJsonAtomic } from './atomic-write.ts';
import { log } from './log.ts';
import { dataPath, DATA_FILES, type DataPath } from './data-path.ts';

export type CreatedMap = Record<string, number>;

export function createdFile(dataDir: string): DataPath {
  return dataPath(dataDir, DATA_FILES.created);
}

export async function readCreated(dataDir: string): Promise<CreatedMap> {
  try {
    const map = await readJson<CreatedMap>(createdFile(dataDir), {});
    return map && typeof map === 'object' ? map : {};
  } catch (err) {
    log.warn(`created.json is unreadable, starting from an empty memory: ${(err as Error).message}`);
    return {};
  }
}

export class CreatedStore {
  private map: CreatedMap = {};
  /** The notes created.json named when this run read it: met before this run. */
  private before: ReadonlySet<string> = new Set();
  private loaded: Promise<void> | null = null;
  private saveTimer: NodeJS.Timeout | null = null;
  private saving: Promise<void> = Promise.resolve();

  constructor(
    private readonly dataDir: string,
    private readonly debounceMs = 300,
  ) {}

  load(): Promise<void> {
    this.loaded ??= readCreated(this.dataDir).then((map) => {
      this.map = map;
      this.before = new Set(Object.keys(map));
    });
    return this.loaded;
  }

  /** The notes this instance had met before this run (a note moved or made while it was down is not one). */
  async metBefore(): Promise<ReadonlySet<string>> {
    await this.load();
    return this.before;
  }

  get(notePath: string): number | undefined {
    return this.map[notePath];
  }

  /** Remembers `time` for `notePath` unless a time is already known. */
  async remember(notePath: string, time: number): Promise<void> {
    await this.load();
    if (this.map[notePath] !== undefined) return;
    this.map[notePath] = Math.round(time);
    this.scheduleSave();
  }

  /**
   * spec D.2: in a git vault the memory is filled from the commit that first added
   * each file. Keeps the earlier of what is known and what is given.
   */
  async rememberEarliest(entries: Iterable<[string, number]>): Promise<void> {
    await this.load();
    let changed = false;
    for (const [notePath, time] of entries) {
      const known = this.map[notePath];
      if (known === undefined || time < known) {
        this.map[notePath] = Math.round(time);
        changed = true;
      }
    }
    if (changed) this.scheduleSave();
  }

  /** A rename: the earlier time wins, whether or not the watcher met the new path first. */
  async move(fromPath: string, toPath: string): Promise<void> {
    await this.load();
    let changed = false;
    for (const key of Object.keys(this.map)) {
      if (key === fromPath || key.startsWith(fromPath + '/')) {
        const target = toPath + key.slice(fromPath.length);
        this.map[target] = Math.min(this.map[target] ?? Number.POSITIVE_INFINITY, this.map[key]!);
        delete this.map[key];
        changed = true;
      }
    }
    if (changed) this.scheduleSave();
  }

  private scheduleSave(): void {
    if (this.saveTimer) return;
    this.saveTimer = setTimeout(() => {
      this.saveTimer = null;
      void this.flush();
    }, this.debounceMs);
    this.saveTimer.unref?.();
  }

  async flush(): Promise<void> {
    if (this.saveTimer) {
      clearTimeout(this.saveTimer);
      this.saveTimer = null;
    }
    const snapshot = { ...this.map };
    this.saving = this.saving.then(() =>
      writeJsonAtomic(createdFile(this.dataDir), snapshot).catch((err) =>
        log.warn(`could not write created.json: ${(err as Error).message}`),
      ),
    );
    await this.saving;
  }
}
