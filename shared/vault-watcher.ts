// Watches the vault and publishes every change on the VaultEvents bus:
// this server's own writes and everyone else's (another server, an editor, git), one
// announcement each. One watcher per process, shared by the admin and the public site.
// It sees what the vault walker sees (shared/vault-walk.ts): links are neither
// followed nor reported, so a loop or a link leading out is inert.
//
// Its cost is per folder, not per file: the OS holds one watch per folder
// (folder-watches.ts). A folder's watch reports each change to a file in it by name;
// the file is then checked with one lstat against the one stamp kept
// per file, its ctime and size (a write, a rename over it or a new file move the ctime;
// the size tells a write's end from its start: one write() of 20 MB sets the ctime as it
// begins, so a look while it runs saw the final ctime and half the file, and the report
// at its end then looked like no change, leaving half a note live: a reviewer's find).
import { realpathSync, type Stats } from 'node:fs';
import { fileStamp } from './file-stamp.ts';
import { FolderWatches } from './folder-watches.ts';
import type { VaultEvents } from './vault-events.ts';
import { toVaultPath, type VaultPath } from './vault-path.ts';
import { VaultEntries } from './vault-walk.ts';

export interface VaultWatcherOptions {
  vaultDir: string;
  events: VaultEvents;
  /** Absolute folders never watched (an in-vault data directory). */
  skipDirs?: string[];
  /**
   * The initial scan's files are the vault as it stands, not news; one modified at or
   * after this time (ms) is announced all the same (a change made while the watcher
   * was starting, after the site's first read).
   */
  announceSince?: number;
  /** Called for every file the watcher meets: each one the initial scan finds, then each one added. */
  onFileMet?: (p: VaultPath, stats: Stats | undefined) => void;
}

export interface VaultWatcher {
  ready: Promise<void>;
  close(): Promise<void>;
}

/** What the watcher remembers of the files: per folder, each file's stamp. */
class KnownFiles {
  private folders = new Map<string, Map<string, string>>();

  private split(p: string): [string, string] {
    const slash = p.lastIndexOf('/');
    return slash < 0 ? ['', p] : [p.slice(0, slash), p.slice(slash + 1)];
  }

  get(p: string): string | undefined {
    const [folder, name] = this.split(p);
    return this.folders.get(folder)?.get(name);
  }

  has(p: string): boolean {
    return this.get(p) !== undefined;
  }

  set(p: string, stamp: string): void {
    const [folder, name] = this.split(p);
    let files = this.folders.get(folder);
    if (!files) this.folders.set(folder, (files = new Map()));
    files.set(name, stamp);
  }

  delete(p: string): boolean {
    const [folder, name] = this.split(p);
    const files = this.folders.get(folder);
    if (!files?.delete(name)) return false;
    if (files.size === 0) this.folders.delete(folder);
    return true;
  }

  /** Every known file in `folder` and below. */
  under(folder: string): string[] {
    const out: string[] = [];
    for (const [f, files] of this.folders) {
      if (folder !== '' && f !== folder && !f.startsWith(folder + '/')) continue;
      for (const name of files.keys()) out.push(f === '' ? name : `${f}/${name}`);
    }
    return out;
  }
}

export function startVaultWatcher(options: VaultWatcherOptions): VaultWatcher {
  const { events } = options;
  const entries = new VaultEntries(options.vaultDir, options.skipDirs);
  // The root itself may be a link (it is trusted); nothing below it is followed.
  const root = realpathSync(options.vaultDir);
  const known = new KnownFiles();
  let isReady = false;
  let closed = false;

  /** A file is there with these stats: announced when it is new or changed. */
  const saw = (p: VaultPath, stats: Stats) => {
    const before = known.get(p);
    // What the watcher remembers of a file (a write's end changes it, whatever mtime says).
    const stamp = fileStamp(stats);
    if (before === stamp) return;
    known.set(p, stamp);
    if (before === undefined) options.onFileMet?.(p, stats);
    const news = isReady || (options.announceSince !== undefined && stats.mtimeMs >= options.announceSince);
    if (news) events.publish({ path: p, kind: 'write' });
  };
  const gone = (p: VaultPath) => {
    if (known.delete(p)) events.publish({ path: p, kind: 'delete' });
  };

  // One check per path at a time; a report during a check makes it look once more,
  // so the last look is always after the last report.
  const checking = new Map<VaultPath, boolean>();
  const check = (p: VaultPath) => {
    if (checking.has(p)) {
      checking.set(p, true);
      return;
    }
    checking.set(p, false);
    void (async () => {
      do {
        checking.set(p, false);
        // The one entry rule: a link anywhere on the way (a folder swapped for a link to
        // elsewhere) makes the path no file of the vault, whatever lies behind it.
        const stats = await entries.stat(p);
        if (closed) return;
        if (stats?.isFile()) saw(p, stats);
        else {
          gone(p);
          // A folder its parent names (made, moved in, swapped, its mode changed) is watched
          // afresh and read again: a watch follows the folder it was set on, wherever it went.
          folders.removeUnder(p);
          if (stats?.isDirectory()) void scan(p);
          // No longer a file (a folder gone, renamed, or become a link): what was known under it is looked at too.
          else for (const inner of known.under(p)) if (inner !== p) check(inner as VaultPath);
        }
      } while (checking.get(p));
      checking.delete(p);
    })();
  };

  /** Watches `folder` and the folders below it, and checks every file there and every one remembered there. */
  const scan = async (folder: string) => {
    const found = await entries.list({ from: folder, reading: (rel) => folders.add(rel) });
    if (closed) return;
    const present = new Set<string>();
    for (const entry of found) {
      if (entry.kind === 'folder') continue;
      present.add(entry.path);
      check(entry.path);
    }
    for (const p of known.under(folder)) if (!present.has(p)) check(p as VaultPath);
  };

  const folders = new FolderWatches(root, (folder, name) => {
    if (closed) return;
    // Without a name, the whole folder is looked at again.
    if (name === null) void scan(folder);
    else check(toVaultPath(folder === '' ? name : `${folder}/${name}`));
  });

  // Each folder is watched before it is read: a file made after the read is reported.
  const ready = (async () => {
    const found = await entries.list({ stat: true, reading: (rel) => folders.add(rel) });
    if (closed) return;
    for (const entry of found) if (entry.kind !== 'folder' && entry.stats) saw(entry.path, entry.stats);
    isReady = true;
  })();
  return {
    ready,
    close: async () => {
      closed = true;
      folders.close();
    },
  };
}
