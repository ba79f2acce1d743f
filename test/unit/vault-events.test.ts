// One announcement per change: the watcher announces every change; the
// write path only says what it wrote, so a reader can wait for its own writes, and a
// write the watcher never reports is announced once, after a grace period.
import { describe, expect, it } from 'vitest';
import { VaultEvents, type VaultChange } from '../../shared/vault-events.ts';
import type { VaultPath } from '../../shared/vault-path.ts';

const note = (p: string, kind: VaultChange['kind'] = 'write'): VaultChange => ({ path: p as VaultPath, kind });

function recorder(events: VaultEvents) {
  const seen: string[] = [];
  events.onChange((c) => seen.push(`${c.kind}:${c.path}`));
  return seen;
}

describe('the change bus', () => {
  it('an own write the watcher reports is announced once, by the watcher', async () => {
    const events = new VaultEvents(50);
    const seen = recorder(events);
    events.expect(note('A.md'));
    let settled = false;
    const waiting = events.settled().then(() => (settled = true));
    expect(seen).toEqual([]);
    events.publish(note('A.md'));
    await waiting;
    expect(settled).toBe(true);
    await new Promise((r) => setTimeout(r, 120));
    expect(seen).toEqual(['write:A.md']);
  });

  it('an own write the watcher misses is announced once, after the grace period', async () => {
    const events = new VaultEvents(30);
    const seen = recorder(events);
    events.expect(note('B.md', 'delete'));
    await events.settled();
    expect(seen).toEqual(['delete:B.md']);
    await new Promise((r) => setTimeout(r, 80));
    expect(seen).toEqual(['delete:B.md']);
  });

  it('a change by someone else is announced as the watcher reports it; settled() does not wait for it', async () => {
    const events = new VaultEvents(30);
    const seen = recorder(events);
    await events.settled();
    events.publish(note('C.md'));
    expect(seen).toEqual(['write:C.md']);
  });
});
