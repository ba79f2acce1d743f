// The vault watcher (its cost is per folder, not per file) on a real folder
// with real OS watches: every change to a file is announced once it happens (writes,
// atomic replaces, deletions, new and renamed folders, bursts), links and skipped names
// never are, and the OS holds one watch per folder, not one per file.
import { promises as fs, readdirSync, readFileSync } from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { VaultEvents } from '../../shared/vault-events.ts';
import { startVaultWatcher, type VaultWatcher } from '../../shared/vault-watcher.ts';
import { cleanupTempDirs, tempDir, writeFiles } from '../helpers/tmp.ts';

afterAll(cleanupTempDirs);

interface Watched {
  vault: string;
  seen: string[];
  met: string[];
  watcher: VaultWatcher;
  /** Resolves once `event` (e.g. `write:A.md`) has been announced, `count` times in all. */
  until(event: string, count?: number): Promise<void>;
}

const running: VaultWatcher[] = [];
afterEach(async () => {
  while (running.length) await running.pop()!.close();
});

async function watched(files: Record<string, string>): Promise<Watched> {
  const vault = await tempDir('vs-watch-');
  await writeFiles(vault, files);
  const events = new VaultEvents();
  const seen: string[] = [];
  const met: string[] = [];
  events.onChange((c) => seen.push(`${c.kind}:${c.path}`));
  const watcher = startVaultWatcher({ vaultDir: vault, events, onFileMet: (p) => met.push(p) });
  running.push(watcher);
  await watcher.ready;
  const until = async (event: string, count = 1) => {
    const deadline = Date.now() + 10_000;
    while (seen.filter((e) => e === event).length < count) {
      if (Date.now() > deadline) throw new Error(`never announced: ${event} (saw ${seen.join(', ')})`);
      await new Promise((r) => setTimeout(r, 10));
    }
  };
  return { vault, seen, met, watcher, until };
}

/** inotify watches this process holds (one per watched folder or file). */
function inotifyWatches(): number {
  let count = 0;
  for (const fd of readdirSync('/proc/self/fdinfo')) {
    const info = (() => {
      try {
        return readFileSync(`/proc/self/fdinfo/${fd}`, 'utf8');
      } catch {
        return '';
      }
    })();
    count += info.split('\n').filter((l) => l.startsWith('inotify wd:')).length;
  }
  return count;
}

describe('the vault watcher', () => {
  it('meets every file at start without announcing any, and holds one OS watch per folder, not per file', async () => {
    const files: Record<string, string> = {};
    for (let f = 0; f < 3; f++) for (let i = 0; i < 100; i++) files[`Folder ${f}/Note ${i}.md`] = `note ${i}`;
    const before = inotifyWatches();
    const w = await watched({ ...files, 'Root.md': 'root', 'pic.png': 'png' });
    expect(w.met.sort()).toEqual(['Root.md', 'pic.png', ...Object.keys(files)].sort());
    expect(w.seen).toEqual([]);
    // The root and three folders: four watches for 302 files.
    expect(inotifyWatches() - before).toBeLessThanOrEqual(4);
  });

  it('announces a new file, each change of it and its deletion', async () => {
    const w = await watched({ 'A.md': 'a' });
    await fs.writeFile(path.join(w.vault, 'B.md'), 'b');
    await w.until('write:B.md');
    await fs.writeFile(path.join(w.vault, 'A.md'), 'a2');
    await w.until('write:A.md');
    await fs.appendFile(path.join(w.vault, 'A.md'), ' more');
    await w.until('write:A.md', 2);
    await fs.rm(path.join(w.vault, 'B.md'));
    await w.until('delete:B.md');
    expect(w.met).toContain('B.md');
  });

  it('announces an atomic replace (temp file + rename) as one write of the note, never the temp file', async () => {
    const w = await watched({ 'Posts/A.md': 'a' });
    const temp = path.join(w.vault, 'Posts', '.~vs-123.tmp');
    await fs.writeFile(temp, 'a, replaced');
    await fs.rename(temp, path.join(w.vault, 'Posts', 'A.md'));
    await w.until('write:Posts/A.md');
    expect(w.seen.filter((e) => e.includes('.tmp'))).toEqual([]);
    expect(w.seen.filter((e) => e === 'delete:Posts/A.md')).toEqual([]);
  });

  it('finds every file of a folder made in a burst, nested folders included', async () => {
    const w = await watched({ 'A.md': 'a' });
    const made: string[] = [];
    await fs.mkdir(path.join(w.vault, 'New/Deeper/Deepest'), { recursive: true });
    for (let i = 0; i < 40; i++) {
      const rel = ['New', 'New/Deeper', 'New/Deeper/Deepest'][i % 3] + `/N${i}.md`;
      await fs.writeFile(path.join(w.vault, rel), `n${i}`);
      made.push(rel);
    }
    for (const rel of made) await w.until(`write:${rel}`);
    // And a change to one of them after the folder's watch is up.
    await fs.writeFile(path.join(w.vault, 'New/Deeper/Deepest/N2.md'), 'changed');
    await w.until('write:New/Deeper/Deepest/N2.md', 2);
  });

  it('announces a renamed folder as its files deleted under the old name and written under the new', async () => {
    const w = await watched({ 'Old/One.md': '1', 'Old/Inner/Two.md': '2' });
    await fs.rename(path.join(w.vault, 'Old'), path.join(w.vault, 'Renamed'));
    for (const e of ['delete:Old/One.md', 'delete:Old/Inner/Two.md', 'write:Renamed/One.md', 'write:Renamed/Inner/Two.md']) await w.until(e);
  });

  it('announces every file of a deleted folder as deleted', async () => {
    const w = await watched({ 'Gone/One.md': '1', 'Gone/Inner/Two.md': '2', 'Gone/pic.png': 'p', 'Stays.md': 's' });
    await fs.rm(path.join(w.vault, 'Gone'), { recursive: true });
    for (const e of ['delete:Gone/One.md', 'delete:Gone/Inner/Two.md', 'delete:Gone/pic.png']) await w.until(e);
    expect(w.seen).not.toContain('delete:Stays.md');
  });

  it('announces the files of a folder swapped for a link (moved out, linked back in) as deleted, and nothing behind the link after', async () => {
    // An Obsidian habit: a folder moved out of the vault and linked back. A move keeps its
    // files' ctime, and a look that followed the link found them unchanged: nothing was
    // announced, and the admin's search kept reading them from outside (a reviewer's find).
    const outside = await tempDir('vs-watch-out-');
    const w = await watched({ 'Journal/Day.md': 'day', 'Journal/Inner/Night.md': 'night', 'Stays.md': 's' });
    await fs.rename(path.join(w.vault, 'Journal'), path.join(outside, 'Journal'));
    await fs.symlink(path.join(outside, 'Journal'), path.join(w.vault, 'Journal'));
    for (const e of ['delete:Journal/Day.md', 'delete:Journal/Inner/Night.md']) await w.until(e);
    await fs.writeFile(path.join(outside, 'Journal/Day.md'), 'written behind the link');
    await fs.writeFile(path.join(w.vault, 'Real.md'), 'real');
    await w.until('write:Real.md');
    expect(w.seen.filter((e) => e.includes('Journal') && !e.startsWith('delete:'))).toEqual([]);
    expect(w.seen).not.toContain('delete:Stays.md');
  });

  it('the last look at a file is after its last change: a burst of writes ends announced', async () => {
    const w = await watched({ 'Busy.md': '0' });
    for (let i = 1; i <= 30; i++) await fs.writeFile(path.join(w.vault, 'Busy.md'), String(i));
    await fs.rm(path.join(w.vault, 'Busy.md'));
    await w.until('delete:Busy.md');
    const writes = w.seen.filter((e) => e === 'write:Busy.md').length;
    await fs.writeFile(path.join(w.vault, 'Busy.md'), 'back');
    await w.until('write:Busy.md', writes + 1);
    expect(w.seen.at(-1)).toBe('write:Busy.md');
  });

  it('never announces links, skipped names or temp files (checked after a real change is seen)', async () => {
    const outside = await tempDir('vs-watch-out-');
    await writeFiles(outside, { 'Secret.md': 'secret' });
    const w = await watched({ 'A.md': 'a' });
    await fs.symlink(path.join(outside, 'Secret.md'), path.join(w.vault, 'link.md'));
    await fs.symlink(outside, path.join(w.vault, 'Out'));
    await writeFiles(w.vault, { '.obsidian/workspace.md': 'x', 'node_modules/p/readme.md': 'x', '.~vs-9.tmp': 'x' });
    await fs.writeFile(path.join(outside, 'Secret.md'), 'secret, changed');
    await fs.writeFile(path.join(w.vault, 'Real.md'), 'real');
    await w.until('write:Real.md');
    await new Promise((r) => setTimeout(r, 100));
    // A plain write may be seen twice (created empty, then filled); nothing else is announced.
    expect([...new Set(w.seen)]).toEqual(['write:Real.md']);
  });
  it('a change in a folder of 2,000 files looks at that file alone: no folder is read again', async () => {
    // chokidar read the whole folder again on every event in it, an lstat per file, and back
    // to back while events kept coming: a rename rewriting 600 notes' links took 10–13 s.
    const files: Record<string, string> = {};
    for (let i = 0; i < 2000; i++) files[`Big/Note ${i}.md`] = `note ${i}`;
    const w = await watched(files);
    // Counted for every module, named imports of node:fs/promises included.
    const reads = vi.spyOn(fs, 'readdir');
    const looks = vi.spyOn(fs, 'lstat');
    syncBuiltinESMExports();
    try {
      for (let i = 0; i < 10; i++) {
        await fs.writeFile(path.join(w.vault, `Big/Note ${i}.md`), `changed ${i}`);
        await w.until(`write:Big/Note ${i}.md`);
      }
      expect(reads).not.toHaveBeenCalled();
      // A few looks per change (the path's parts), not one per file of the folder.
      expect(looks.mock.calls.length).toBeLessThan(200);
    } finally {
      vi.restoreAllMocks();
      syncBuiltinESMExports();
    }
  });

  it('a folder renamed, or deleted and made again, is watched under its new life: later changes are announced under the right name', async () => {
    const w = await watched({ 'Old/One.md': '1', 'Old/Inner/Two.md': '2', 'Again/Three.md': '3' });
    await fs.rename(path.join(w.vault, 'Old'), path.join(w.vault, 'Renamed'));
    await w.until('write:Renamed/Inner/Two.md');
    await fs.writeFile(path.join(w.vault, 'Renamed/Inner/Two.md'), '2, changed in its new place');
    await w.until('write:Renamed/Inner/Two.md', 2);
    await fs.rm(path.join(w.vault, 'Again'), { recursive: true });
    await w.until('delete:Again/Three.md');
    await fs.mkdir(path.join(w.vault, 'Again'));
    await fs.writeFile(path.join(w.vault, 'Again/Four.md'), '4');
    await w.until('write:Again/Four.md');
    await fs.writeFile(path.join(w.vault, 'Again/Four.md'), '4, changed');
    await w.until('write:Again/Four.md', 2);
    expect(w.seen.filter((e) => e.startsWith('write:Old/'))).toEqual([]);
  });
});
