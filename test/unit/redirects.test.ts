// CONTRACT §7: addresses that move keep working. The memory of moved addresses, told
// from the models builds publish, one after another.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { permalinkAddress, type Address } from '../../shared/model/addresses.ts';
import { buildRecord, type NoteRecord } from '../../shared/model/note-record.ts';
import { AddressMemory } from '../../shared/model/redirects.ts';
import type { VaultPath } from '../../shared/vault-path.ts';
import { cleanupTempDirs, tempDir } from '../helpers/tmp.ts';

afterAll(cleanupTempDirs);

const note = (p: string, text: string, publish = true): NoteRecord =>
  buildRecord({ path: p as VaultPath, text: `---\npublish: ${publish}\ndate: 2026-01-01\n${text}`, createdMs: null, fileMs: 0 });

function model(...notes: NoteRecord[]) {
  const visible = notes.filter((n) => n.publish);
  return { all: notes, visible, byAddress: new Map(visible.map((n) => [n.address, n] as [Address, NoteRecord])) };
}

describe('permalink: a/b', () => {
  it('is the address; slashes and spaces are tidied; dot segments are refused', () => {
    expect(permalinkAddress('guides/start here/')).toBe('/guides/start-here');
    expect(permalinkAddress('/a//b')).toBe('/a/b');
    expect(permalinkAddress('../up')).toBeNull();
    expect(permalinkAddress('')).toBeNull();
    expect(note('Notes/My note.md', 'permalink: a/b\n---\nx').address).toBe('/a/b');
  });
  it('the note’s own address answers 301 to it, unless another note lives there', () => {
    const memory = new AddressMemory(null);
    const moved = note('Notes/My note.md', 'permalink: a/b\n---\nx');
    expect(memory.redirects(model(moved))).toEqual([['/Notes/My-note', '/a/b']]);
    // A note whose own path gives that address lives there: no redirect.
    expect(memory.redirects(model(moved, note('Notes/My-note.md', '---\nz')))).toEqual([]);
  });
});

describe('a published note that moves leaves a 301 behind', () => {
  const a = note('Old/Place.md', '---\nThe same text.');
  const b = note('New/Place.md', '---\nThe same text.');
  const other = note('Other.md', '---\nOther text.');

  it('in one build (a rename: one path vanishes, the same text appears)', () => {
    const memory = new AddressMemory(null);
    memory.observe(model(a, other));
    memory.observe(model(b, other));
    expect(memory.redirects(model(b, other))).toEqual([['/Old/Place', '/New/Place']]);
  });

  it('in two builds, whichever half comes first', () => {
    for (const order of [[model(a, b, other), model(b, other)], [model(other), model(b, other)]]) {
      const memory = new AddressMemory(null);
      memory.observe(model(a, other));
      for (const m of order) memory.observe(m);
      expect(memory.redirects(model(b, other))).toEqual([['/Old/Place', '/New/Place']]);
    }
  });

  it('follows the note through a second move, and stops when another note takes the old address', () => {
    const c = note('Third/Place.md', '---\nThe same text.');
    const memory = new AddressMemory(null);
    memory.observe(model(a));
    memory.observe(model(b));
    memory.observe(model(c));
    expect(memory.redirects(model(c))).toEqual([
      ['/New/Place', '/Third/Place'],
      ['/Old/Place', '/Third/Place'],
    ]);
    const taker = note('Old/Place.md', '---\nA new note here.');
    memory.observe(model(c, taker));
    expect(memory.redirects(model(c, taker))).toEqual([['/New/Place', '/Third/Place']]);
    // Gone for good: the taker leaving does not bring the old move back.
    memory.observe(model(c));
    expect(memory.redirects(model(c))).toEqual([['/New/Place', '/Third/Place']]);
  });

  it('an unpublished or deleted note leaves nothing: its address answers as a missing one', () => {
    const memory = new AddressMemory(null);
    memory.observe(model(a));
    memory.observe(model(note('Old/Place.md', '---\nThe same text.', false)));
    memory.observe(model());
    expect(memory.redirects(model(b))).toEqual([]);
  });

  it('the same text in two new places is not taken for a move', () => {
    const memory = new AddressMemory(null);
    memory.observe(model(a));
    memory.observe(model(b, note('Copy/Place.md', '---\nThe same text.')));
    expect(memory.redirects(model(b))).toEqual([]);
  });

  it('is remembered in the data directory (redirects.json, written whole) across restarts', async () => {
    const dir = await tempDir();
    const memory = new AddressMemory(dir);
    await memory.load();
    memory.observe(model(a));
    memory.observe(model(b));
    await memory.save();
    const stored = JSON.parse(await fs.readFile(path.join(dir, 'redirects.json'), 'utf8'));
    expect(stored).toEqual({ version: 1, moved: { '/Old/Place': 'New/Place.md' } });
    expect((await fs.stat(path.join(dir, 'redirects.json'))).mode & 0o777).toBe(0o600);
    const again = new AddressMemory(dir);
    await again.load();
    expect(again.redirects(model(b))).toEqual([['/Old/Place', '/New/Place']]);
  });
});

describe('a move the admin made is told, not guessed (its link rewrites change the moved text)', () => {
  const self = note('Old/Part.md', '---\nSee [[Part#x]].');
  const selfMoved = note('New/Chapter.md', '---\nSee [[Chapter#x]].');

  it('a self-linking note: told before or after the model sees it go', () => {
    for (const toldFirst of [true, false]) {
      const memory = new AddressMemory(null);
      memory.observe(model(self));
      if (toldFirst) memory.told('Old/Part.md' as VaultPath, 'New/Chapter.md' as VaultPath);
      memory.observe(model(selfMoved));
      if (!toldFirst) memory.told('Old/Part.md' as VaultPath, 'New/Chapter.md' as VaultPath);
      expect(memory.redirects(model(selfMoved)), `told first: ${toldFirst}`).toEqual([['/Old/Part', '/New/Chapter']]);
    }
  });

  it('a folder: every published note in it, linking each other by path', () => {
    const one = note('Book/One.md', '---\n[[Book/Two]]');
    const two = note('Book/Two.md', '---\n[[Book/One]]');
    const moved = [note('Volume/One.md', '---\n[[Volume/Two]]'), note('Volume/Two.md', '---\n[[Volume/One]]')];
    const memory = new AddressMemory(null);
    memory.observe(model(one, two));
    memory.told('Book' as VaultPath, 'Volume' as VaultPath);
    memory.observe(model(...moved));
    expect(memory.redirects(model(...moved))).toEqual([
      ['/Book/One', '/Volume/One'],
      ['/Book/Two', '/Volume/Two'],
    ]);
  });

  it('a told move names only what it moved: a note beside it that was deleted leaves nothing', () => {
    const beside = note('Book/Other.md', '---\nother');
    const memory = new AddressMemory(null);
    memory.observe(model(self, beside));
    memory.told('Old/Part.md' as VaultPath, 'New/Chapter.md' as VaultPath);
    memory.observe(model(selfMoved));
    expect(memory.redirects(model(selfMoved))).toEqual([['/Old/Part', '/New/Chapter']]);
  });
});

describe('a post read half-written, or unpublished a while, is the same post when it returns', () => {
  // An editor that truncates and then writes lets the watcher read an empty file between the two.
  const before = note('Posts/Stay.md', '---\nSTAY');
  const empty = buildRecord({ path: 'Posts/Stay.md' as VaultPath, text: '', createdMs: null, fileMs: 0 });
  const readdressed = note('Posts/Stay.md', 'permalink: /elsewhere\n---\nSTAY');

  it('returning at a new permalink, it keeps its feed id and leaves a 301 from where it was', () => {
    const memory = new AddressMemory(null);
    memory.observe(model(before));
    memory.observe(model(empty));
    memory.observe(model(readdressed));
    expect(memory.feedIds.of('Posts/Stay.md')).toBe('/Posts/Stay');
    expect(memory.redirects(model(readdressed))).toEqual([['/Posts/Stay', '/elsewhere']]);
  });

  it('deleted while unpublished, it is forgotten: a new note at its path starts afresh', () => {
    const memory = new AddressMemory(null);
    memory.observe(model(before, note('Other.md', '---\nO')));
    memory.observe(model(empty, note('Other.md', '---\nO')));
    memory.observe(model(note('Other.md', '---\nO', false)));
    memory.observe(model(readdressed));
    expect(memory.feedIds.of('Posts/Stay.md')).toBeUndefined();
  });
});
