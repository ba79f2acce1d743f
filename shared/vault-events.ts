// The in-process bus of vault changes. The write path publishes its own writes at
// once; the watcher publishes everyone else's (another server, an editor, git).
import { EventEmitter } from 'node:events';
import type { VaultPath } from './vault-path.ts';

export type ChangeKind = 'write' | 'delete';

export interface VaultChange {
  path: VaultPath;
  kind: ChangeKind;
}

export class VaultEvents {
  private emitter = new EventEmitter();
  /** What this process itself last wrote per path, so the watcher's echo is dropped. */
  private selfWrites = new Map<string, { mtimeMs: number | null; until: number }>();

  constructor() {
    this.emitter.setMaxListeners(0);
  }

  onChange(listener: (change: VaultChange) => void): () => void {
    this.emitter.on('changed', listener);
    return () => this.emitter.off('changed', listener);
  }

  /** Called by the write path after its rename landed. */
  publishOwn(change: VaultChange, mtimeMs: number | null): void {
    this.selfWrites.set(change.path, { mtimeMs, until: Date.now() + 5_000 });
    this.emitter.emit('changed', change);
  }

  /** Called by the watcher; dropped when it only echoes this process's own write. */
  publishObserved(change: VaultChange, mtimeMs: number | null): void {
    const own = this.selfWrites.get(change.path);
    if (own) {
      if (own.until < Date.now()) this.selfWrites.delete(change.path);
      else if (own.mtimeMs === mtimeMs) return;
    }
    this.emitter.emit('changed', change);
  }
}
