// Watches the vault with chokidar and publishes what others change (another server,
// an editor, git) on the VaultEvents bus. One watcher per process, shared by the
// admin and the public site. It sees what the vault walker sees (shared/vault-walk.ts):
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
  /** Called for every file found by the initial scan, before `ready`. */
  onInitialFile?: (p: VaultPath, stats: Stats | undefined) => void;
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
    if (stats?.isSymbolicLink()) return;
    const p = relOf(abs);
    if (!isReady) {
      if (kind === 'write') options.onInitialFile?.(p, stats);
      return;
    }
    events.publishObserved({ path: p, kind }, stats?.mtimeMs ?? null);
  };
  watcher.on('add', (abs, stats) => publish(abs, 'write', stats));
  watcher.on('change', (abs, stats) => publish(abs, 'write', stats));
  watcher.on('unlink', (abs) => publish(abs, 'delete'));
  watcher.on('error', () => {
    /* a vanished folder mid-scan is not fatal */
  });
  return { ready, close: () => watcher.close() };
}
