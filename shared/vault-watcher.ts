// Watches the vault with chokidar and publishes every change on the VaultEvents bus:
// this server's own writes and everyone else's (another server, an editor, git), one
// announcement each. One watcher per process, shared by the admin and the public site. It sees what the vault walker sees (shared/vault-walk.ts):
// links are neither followed nor reported, so a loop or a link leading out is inert.
import { realpathSync, type Stats } from 'node:fs';
import path from 'node:path';
import { watch, type FSWatcher } from 'chokidar';
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

export function startVaultWatcher(options: VaultWatcherOptions): VaultWatcher {
  const { events } = options;
  const entries = new VaultEntries(options.vaultDir, options.skipDirs);
  // The root itself may be a link (it is trusted); nothing below it is followed.
  const root = realpathSync(options.vaultDir);
  const relOf = (abs: string) => toVaultPath(path.relative(root, abs));
  let isReady = false;
  const watcher: FSWatcher = watch(root, {
    ignoreInitial: false,
    alwaysStat: true,
    followSymlinks: false,
    ignored: (abs: string, stats?: Stats) => {
      const rel = relOf(abs);
      if (rel === '') return false;
      return stats?.isSymbolicLink() === true || !entries.admits(rel);
    },
  });
  const ready = new Promise<void>((resolve) => {
    watcher.once('ready', () => {
      isReady = true;
      resolve();
    });
  });
  const publish = (abs: string, kind: 'write' | 'delete', stats?: Stats) => {
    if (!stats?.isSymbolicLink()) events.publish({ path: relOf(abs), kind });
  };
  watcher.on('add', (abs, stats) => {
    if (stats?.isSymbolicLink()) return;
    options.onFileMet?.(relOf(abs), stats);
    const news = isReady || (options.announceSince !== undefined && (stats?.mtimeMs ?? Number.POSITIVE_INFINITY) >= options.announceSince);
    if (news) publish(abs, 'write', stats);
  });
  watcher.on('change', (abs, stats) => publish(abs, 'write', stats));
  watcher.on('unlink', (abs) => publish(abs, 'delete'));
  watcher.on('error', () => {
    /* a vanished folder mid-scan is not fatal */
  });
  return { ready, close: () => watcher.close() };
}
