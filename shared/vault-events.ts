// The in-process bus of vault changes, one announcement per change. The vault watcher
// (shared/vault-watcher.ts) announces every change it sees: this server's own writes
// and everyone else's (another server, an editor, git). The write path does not
// announce; it says what it just wrote (`expect`), so a reader that must see its own
// writes can wait for them (`settled`), and a write the watcher has not reported
// within a moment (it is still starting, or missed it) is announced from here instead.
import { EventEmitter } from 'node:events';
import type { VaultPath } from './vault-path.ts';

export type ChangeKind = 'write' | 'delete';

export interface VaultChange {
  path: VaultPath;
  kind: ChangeKind;
}

/** How long an own write waits for the watcher before it is announced without it. */
const WATCHER_GRACE_MS = 500;

export class VaultEvents {
  private emitter = new EventEmitter();
  private expected = new Map<string, NodeJS.Timeout>();
  private settledWaiters: Array<() => void> = [];

  constructor(private readonly graceMs = WATCHER_GRACE_MS) {
    this.emitter.setMaxListeners(0);
  }

  onChange(listener: (change: VaultChange) => void): () => void {
    this.emitter.on('changed', listener);
    return () => this.emitter.off('changed', listener);
  }

  /** The watcher's report of a change: the announcement. */
  publish(change: VaultChange): void {
    this.fulfil(change.path);
    this.emitter.emit('changed', change);
  }

  /** The write path changed `change.path` on disk just now. */
  expect(change: VaultChange): void {
    this.fulfil(change.path);
    const timer = setTimeout(() => this.publish(change), this.graceMs);
    timer.unref();
    this.expected.set(change.path, timer);
  }

  /** Resolves once every own write so far has been announced. */
  settled(): Promise<void> {
    if (this.expected.size === 0) return Promise.resolve();
    return new Promise((resolve) => this.settledWaiters.push(resolve));
  }

  private fulfil(p: string): void {
    const timer = this.expected.get(p);
    if (timer === undefined) return;
    clearTimeout(timer);
    this.expected.delete(p);
    if (this.expected.size === 0) for (const waiter of this.settledWaiters.splice(0)) waiter();
  }
}
