// One OS watch per folder of the vault (fs.watch: inotify on Linux), kept in step with the
// folders by the vault watcher (vault-watcher.ts), which is told each event by folder and
// name and looks at that one entry.
//
// Not chokidar, which did this until a rename stalled in a CI run: chokidar reads the whole
// folder again, an lstat per entry, on every event in it, and back to back while events
// keep coming. A rename rewriting the links of 600 notes in one folder took 10–13 s, most
// of it waiting behind those reads in libuv's four threads; a folder of 5,000 notes paid
// 5,000 lstats per save. The watcher never used what those reads found: each event names
// its file.
import { watch, type FSWatcher } from 'node:fs';
import path from 'node:path';
import { log } from './log.ts';

/** Told of each event: the watched folder (vault-relative, `''` the root) and the entry's name, or null when the OS gave none. */
export type FolderEvent = (folder: string, name: string | null) => void;

export class FolderWatches {
  private readonly watches = new Map<string, FSWatcher>();
  private closed = false;
  private warned = false;

  constructor(
    private readonly root: string,
    private readonly onEvent: FolderEvent,
  ) {}

  /** Watches `folder` unless it is watched already. Set before the folder is read, it misses nothing made after the read. */
  add(folder: string): void {
    if (this.closed || this.watches.has(folder)) return;
    let watcher: FSWatcher;
    try {
      watcher = watch(folder === '' ? this.root : path.join(this.root, folder), (_event, name) => {
        if (!this.closed) this.onEvent(folder, name === null ? null : String(name));
      });
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      // Gone before its watch was set: its parent's watch reports it.
      if (code === 'ENOENT' || code === 'ENOTDIR') return;
      this.warnOnce(folder, err as NodeJS.ErrnoException);
      return;
    }
    watcher.on('error', (err) => {
      this.removeUnder(folder);
      this.warnOnce(folder, err as NodeJS.ErrnoException);
    });
    this.watches.set(folder, watcher);
  }

  /** Stops watching `folder` and every folder below it (gone, renamed, or become a link). */
  removeUnder(folder: string): void {
    if (!this.watches.has(folder)) return;
    const prefix = folder + '/';
    for (const [f, watcher] of this.watches) {
      if (f !== folder && !(folder === '' || f.startsWith(prefix))) continue;
      watcher.close();
      this.watches.delete(f);
    }
  }

  close(): void {
    this.closed = true;
    for (const watcher of this.watches.values()) watcher.close();
    this.watches.clear();
  }

  /** Out of watches (ENOSPC: the inotify limit) or refused: said once, with what to do. */
  private warnOnce(folder: string, err: NodeJS.ErrnoException): void {
    if (this.warned) return;
    this.warned = true;
    const hint = err.code === 'ENOSPC' ? ' (raise the sysctl fs.inotify.max_user_watches)' : '';
    log.warn(`watcher: cannot watch ${folder === '' ? 'the vault' : folder}: ${err.message}${hint}; changes made there by others are seen at the next start`);
  }
}
