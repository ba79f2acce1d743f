// The vault path rules on a real folder: what the input parser refuses and why, where a
// path really points once links are followed (CONTRACT §3), the data directory and the
// folders holding it (never moved), the trash record's entry check, and the name beside.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { entryProblem } from '../../admin/vault/trash-manifest.ts';
import { nameBeside } from '../../admin/vault/trash.ts';
import { parseVaultPath, VaultRoot, type VaultPath } from '../../shared/vault-path.ts';
import { cleanupTempDirs, tempDir, writeFiles } from '../helpers/tmp.ts';

let vault: string;
let root: VaultRoot;
const vp = (p: string) => p as VaultPath;

beforeAll(async () => {
  vault = await tempDir('vs-path-rules-');
  await writeFiles(vault, {
    'Home.md': 'home',
    '.service/settings.json': '{}',
    '.git/config': '[core]',
    '.trash/old.md': 'old',
    '.SERVICE/x.md': 'x',
    'Sys/data/git-credentials.json': '{}',
    'Sys/Note.md': 'note',
  });
  await fs.symlink('.service', path.join(vault, 'svc'));
  await fs.symlink('.git', path.join(vault, 'g'));
  await fs.symlink('.trash', path.join(vault, 't'));
  await fs.symlink('.SERVICE', path.join(vault, 'upper'));
  await fs.mkdir(path.join(vault, 'Notes'));
  await fs.symlink('../.service', path.join(vault, 'Notes/up'));
  await fs.symlink('Notes', path.join(vault, 'Alias'));
  root = new VaultRoot(vault, [await fs.realpath(path.join(vault, 'Sys/data'))]);
});

afterAll(cleanupTempDirs);

describe('a name that starts like a Windows drive', () => {
  it('`a:b.md` is refused for its colon, not as an absolute path', () => {
    expect(() => parseVaultPath('a:b.md')).toThrow(/colon is not allowed/);
    expect(() => parseVaultPath('a:b.md')).not.toThrow(/relative/);
    expect(() => parseVaultPath('Z:note')).toThrow(/colon is not allowed/);
  });

  it('a drive path (`C:/x.md`, `C:`) is still refused as not relative to the vault', () => {
    expect(() => parseVaultPath('C:/x.md')).toThrow(/relative to the vault/);
    expect(() => parseVaultPath('C:')).toThrow(/relative to the vault/);
    expect(() => parseVaultPath('/x.md')).toThrow(/relative to the vault/);
  });

  it('a colon later in a name is as it was', () => {
    expect(parseVaultPath('Notes/Re: plans.md')).toBe('Notes/Re: plans.md');
  });
});

describe('a link never opens a reserved folder', () => {
  for (const link of ['svc/settings.json', 'svc/new.md', 'g/config', 't/old.md', 'upper/x.md', 'Notes/up/settings.json', 'svc']) {
    it(`${link} is refused once the link is followed`, async () => {
      await expect(root.resolve(vp(link))).rejects.toThrow(/through a link/);
    });
  }

  it('a link to an ordinary folder still resolves', async () => {
    expect(await root.resolve(vp('Alias/x.md'))).toBe(path.join(vault, 'Alias/x.md'));
  });
});

describe('the data directory and the folders holding it are never moved', () => {
  it('the folder holding it is refused for a change, with its own code', async () => {
    await expect(root.resolveForChange(vp('Sys'))).rejects.toMatchObject({ code: 'holds_data_dir' });
  });

  it('is still read and listed like any folder', async () => {
    expect(await root.resolve(vp('Sys'))).toBe(path.join(vault, 'Sys'));
  });

  it('the data directory itself and what it holds stay refused as before', async () => {
    await expect(root.resolve(vp('Sys/data'))).rejects.toMatchObject({ code: 'bad_path' });
    await expect(root.resolveForChange(vp('Sys/data/git-credentials.json'))).rejects.toMatchObject({ code: 'bad_path' });
  });

  it('a note beside it changes as usual', async () => {
    expect(await root.resolveForChange(vp('Sys/Note.md'))).toBe(path.join(vault, 'Sys/Note.md'));
  });
});

describe('an entry of the trash record is checked like user input', () => {
  const sound = { id: 'a', path: 'Notes/A.md', trashPath: '.trash/Notes/A.md', kind: 'note', deletedAt: '2024-01-01T00:00:00Z' };

  it('a sound entry passes', () => {
    expect(entryProblem(sound)).toBeNull();
    expect(entryProblem({ ...sound, trashPath: '.trash/Notes/A 2.md' })).toBeNull();
  });

  const bad: Record<string, unknown> = {
    'trashPath out of the vault': { ...sound, trashPath: '../victim' },
    'trashPath climbing out of the bin': { ...sound, trashPath: '.trash/../../victim' },
    'trashPath the bin itself': { ...sound, trashPath: '.trash' },
    'trashPath the bin with a slash': { ...sound, trashPath: '.trash/' },
    'trashPath the record itself': { ...sound, trashPath: '.trash/.service-trash.json' },
    'trashPath absolute': { ...sound, trashPath: '/etc/passwd' },
    'trashPath outside the bin in the vault': { ...sound, trashPath: 'Notes/A.md' },
    'trashPath with a backslash': { ...sound, trashPath: '.trash/..\\x' },
    'path into .service': { ...sound, path: '.service/planted.json' },
    'path into .git, any case': { ...sound, path: 'x/.GIT/hooks/pre-commit' },
    'path leaving the vault': { ...sound, path: '../x.md' },
    'path absolute': { ...sound, path: '/x.md' },
    'path not a string': { ...sound, path: 7 },
    'kind unknown': { ...sound, kind: 'device' },
    'no id': { ...sound, id: '' },
    'not an object': 'hello',
  };
  for (const [name, entry] of Object.entries(bad)) {
    it(`refuses ${name}`, () => {
      expect(entryProblem(entry)).not.toBeNull();
    });
  }
});

describe('the name beside a taken one always fits the disk', () => {
  it('a 255-byte name gives up the end of its stem, never a character cut in half', async () => {
    const dir = await tempDir('vs-beside-');
    const name = 'é'.repeat(126) + '.md';
    expect(Buffer.byteLength(name)).toBe(255);
    const beside = path.basename(await nameBeside(path.join(dir, name), false));
    expect(Buffer.byteLength(beside)).toBeLessThanOrEqual(255);
    expect(beside).toMatch(/^é+ 2\.md$/);
    await fs.writeFile(path.join(dir, beside), 'x');
    expect(path.basename(await nameBeside(path.join(dir, name), false))).toMatch(/^é+ 3\.md$/);
  });

  it('short names keep the plain form', async () => {
    const dir = await tempDir('vs-beside-');
    expect(path.basename(await nameBeside(path.join(dir, 'Note.md'), false))).toBe('Note 2.md');
    expect(path.basename(await nameBeside(path.join(dir, 'Folder'), true))).toBe('Folder 2');
  });
});
