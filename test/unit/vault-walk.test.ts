// The one vault walker and entry rule (CONTRACT §11), on a real folder with
// real links: what is an entry, that no link is followed or listed, and that every
// user of the walker (model store, attachment index, temp sweep) holds the rule,
// the incremental paths included.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sweepTempFiles } from '../../admin/vault/temp-sweep.ts';
import { VaultStore } from '../../shared/model/vault-store.ts';
import { parseVaultPath, PathError } from '../../shared/vault-path.ts';
import { isSkippedName, VaultEntries } from '../../shared/vault-walk.ts';
import { AttachmentIndex } from '../../site/read/attachments.ts';
import { cleanupTempDirs, tempDir, writeFiles } from '../helpers/tmp.ts';

let vault: string;
let outside: string;
const published = '---\npublish: true\ntitle: T\n---\nbody\n';

beforeAll(async () => {
  vault = await tempDir('vs-walk-');
  outside = await tempDir('vs-walk-out-');
  await writeFiles(outside, { 'Secret.md': published, 'secret.png': 'png' });
  await writeFiles(vault, {
    'Home.md': published,
    'Folder/Inner.md': published,
    'Folder/pic.png': 'png',
    'Folder/.obsidian/x.md': 'hidden',
    'Folder/.git/x.md': 'reserved below the top',
    '.trash/old.md': 'old',
    '.service/settings.json': '{}',
    'node_modules/pkg/readme.md': 'pkg',
    'Folder/.~vs-abc.tmp': 'temp',
    'data/created.json': '{}',
  });
  await fs.symlink('.', path.join(vault, 'loop'));
  await fs.symlink('..', path.join(vault, 'Folder', 'up'));
  await fs.symlink(outside, path.join(vault, 'Out'));
  await fs.symlink(path.join(outside, 'Secret.md'), path.join(vault, 'link.md'));
  await fs.symlink(path.join(vault, 'Folder'), path.join(vault, 'Inside'));
});
afterAll(cleanupTempDirs);

const entries = () => new VaultEntries(vault, [path.join(vault, 'data')]);

describe('the entry rule', () => {
  it('skips dot-names (the reserved ones at any depth), temp files and node_modules', () => {
    for (const name of ['.git', '.trash', '.service', '.obsidian', '.~vs-1.tmp', 'node_modules']) expect(isSkippedName(name), name).toBe(true);
    const rule = entries();
    expect(rule.admits('Folder/Inner.md')).toBe(true);
    for (const p of ['Folder/.git/x.md', 'A/.trash/b.md', 'A/B/.service/c', 'node_modules/x.md', 'data/created.json', 'data', '']) {
      expect(rule.admits(p), p).toBe(false);
    }
  });

  it('input paths: a reserved name at any depth and a name over 255 bytes are refused', () => {
    for (const p of ['Sub/.git/x.md', 'Sub/.Trash/x.md', `${'é'.repeat(128)}.md`]) expect(() => parseVaultPath(p), p).toThrow(PathError);
    expect(parseVaultPath(`${'é'.repeat(125)}.md`)).toBe(`${'é'.repeat(125)}.md`);
  });
});

describe('one entry rule for input and walk', () => {
  const names = ['.~vs-a.md', '.obsidian', '.hidden.md', '.Trash', '.git', 'node_modules', 'Note.md', 'Folder', 'a.b.md', 'node_modules2'];

  it('the input parser refuses, at any depth, exactly the names the walker skips', () => {
    const rule = entries();
    for (const name of names) {
      for (const p of [name, `Sub/${name}/x.md`, `Sub/Deeper/${name}`]) {
        const parsed = (() => {
          try {
            parseVaultPath(p);
            return true;
          } catch (err) {
            expect(err, p).toBeInstanceOf(PathError);
            return false;
          }
        })();
        expect({ p, parsed }).toEqual({ p, parsed: rule.admits(p) });
        expect({ p, parsed }).toEqual({ p, parsed: !isSkippedName(name) });
      }
    }
  });

  it('a temp-file name is refused with a sentence saying why', () => {
    expect(() => parseVaultPath('Notes/.~vs-a.md')).toThrow(/temp file/);
    expect(() => parseVaultPath('Sub/.obsidian/x.md')).toThrow(/hidden/);
  });
});

describe('the walk', () => {
  it('lists real files and folders only: no link, nothing behind one, nothing skipped', async () => {
    const listed = (await entries().list({ stat: true })).map((e) => `${e.kind}:${e.path}`);
    expect(listed).toEqual(['folder:Folder', 'note:Folder/Inner.md', 'attachment:Folder/pic.png', 'note:Home.md']);
    expect(await entries().notes()).toEqual(['Folder/Inner.md', 'Home.md']);
  });

  it('stat() is null for any path with a link on it, the last component included', async () => {
    const rule = entries();
    expect((await rule.stat('Folder/Inner.md'))?.isFile()).toBe(true);
    for (const p of ['Out/Secret.md', 'link.md', 'Inside/Inner.md', 'loop/Home.md', 'Folder/up/Home.md', 'Out']) expect(await rule.stat(p), p).toBeNull();
  });
});

describe('every user of the walker holds the rule', () => {
  it('the model store: a full load and an incremental update never read through a link', async () => {
    const store = new VaultStore({ vaultDir: vault, dataDir: null, skipDirs: [path.join(vault, 'data')], useGit: false });
    await store.loadAll();
    expect([...store.records.keys()].sort()).toEqual(['Folder/Inner.md', 'Home.md']);
    const changed = await store.update(['Out/Secret.md', 'link.md', 'Inside/Inner.md', 'loop/Home.md', 'Folder/.git/x.md', 'Folder/Inner.md']);
    expect([...changed]).toEqual([]);
    expect([...store.records.keys()].sort()).toEqual(['Folder/Inner.md', 'Home.md']);
  });

  it('the attachment index: a full load and a refresh never index through a link', async () => {
    const index = new AttachmentIndex(vault, [path.join(vault, 'data')]);
    await index.loadAll();
    expect(index.get('Folder/pic.png')).toBeDefined();
    for (const p of ['Out/secret.png', 'Inside/pic.png', 'loop/Folder/pic.png']) {
      expect(await index.refresh(p), p).toBe(false);
      expect(index.get(p), p).toBeUndefined();
    }
  });

  it('the temp sweep removes old temp files in the vault and never one behind a link', async () => {
    await writeFiles(outside, { '.~vs-outside.tmp': 'not ours' });
    const later = Date.now() + 10 * 60_000;
    expect(await sweepTempFiles([vault], later)).toBe(1);
    await expect(fs.stat(path.join(vault, 'Folder/.~vs-abc.tmp'))).rejects.toThrow();
    expect(await fs.readFile(path.join(outside, '.~vs-outside.tmp'), 'utf8')).toBe('not ours');
  });
});
