// Watches the vault with chokidar and publishes what others change (another server,
// an editor, git) on the VaultEvents bus. One watcher per process, shared by the
// admin and the public site.
import path from 'node:path';
import { watch, type FSWatcher } from 'chokidar';
import type { Stats } from 'node:fs';
import { isTempFile } from './atomic-write.ts';
import type { VaultEvents } from './vault-events.ts';
import { toVaultPath, type VaultPath } from './vault-path.ts';

export interface VaultWatcherOptions {
  vaultDir: string;
  events: VaultEvents;
  /** Absolute folders never watched (an in-vault data directory). */
  skipDirs?: string[];
  /** Called for every file found by the initial scan, before `ready`. */
  onInitialFile?: (p: VaultPath, stats: Stats | undefined) => void;
}

const SKIPPED_TOP = new Set(['.git', '.trash', '.service', 'node_modules']);

export function shouldIgnore(vaultDir: string, abs: string, skipDirs: string[] = []): boolean {
  const rel = path.relative(vaultDir, abs);
  if (rel === '') return false;
  if (rel.startsWith('..')) return true;
  const first = rel.split(path.sep)[0]!;
  if (SKIPPED_TOP.has(first)) return true;
  if (isTempFile(abs)) return true;
  return skipDirs.some((d) => abs === d || abs.startsWith(d + path.sep));
}

export interface VaultWatcher {
  ready: Promise<void>;
  close(): Promise<void>;
}

export function startVaultWatcher(options: VaultWatcherOptions): VaultWatcher {
  const { vaultDir, events } = options;
  let isReady = false;
  const watcher: FSWatcher = watch(vaultDir, {
    ignoreInitial: false,
    alwaysStat: true,
    ignored: (abs: string) => shouldIgnore(vaultDir, abs, options.skipDirs),
  });
  const ready = new Promise<void>((resolve) => {
    watcher.once('ready', () => {
      isReady = true;
      resolve();
    });
  });
  const publish = (abs: string, kind: 'write' | 'delete', stats?: Stats) => {
    const p = toVaultPath(path.relative(vaultDir, abs));
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
