// An image pasted or dropped into a note, stored as Obsidian stores it: in
// the vault's attachment folder (`attachmentFolderPath` of `.obsidian/app.json`: `/` the
// vault root, `./` beside the note, `./sub` a folder beside it, any other a vault folder;
// `Attachments/` when the vault names none), under a name no other file of the vault
// has, so `![[name.png]]` finds it. The bytes say what the image is; the name follows.
// The name is chosen and the file made under the folder's path lock, and the file is
// made without ever replacing one: two pastes in the same second get two names.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { commitTemp, fsyncDir, mkdirFor, storageFailure, writeTempDurableQuiet } from '../../../shared/atomic-write.ts';
import { refuse } from '../../../shared/errors.ts';
import { parseVaultPath, toVaultPath, type VaultPath, type VaultRoot } from '../../../shared/vault-path.ts';
import { readVaultText } from '../../../shared/vault-read.ts';
import { APP_JSON, MAX_APP_JSON_BYTES } from '../../../shared/obsidian-app.ts';
import { sameName } from '../../../shared/vault-names.ts';
import { VaultEntries } from '../../../shared/vault-walk.ts';
import type { PathLocks } from '../../vault/path-locks.ts';
import { MAX_ATTACHMENT_BYTES } from './attachments.ts';

export const DEFAULT_ATTACHMENT_FOLDER = 'Attachments';

/** The image type the bytes themselves declare, as an extension, or null. */
export function imageTypeOf(data: Buffer): string | null {
  const ascii = (from: number, to: number) => data.subarray(from, to).toString('latin1');
  if (data.length >= 8 && data.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'png';
  if (data.length >= 3 && data[0] === 0xff && data[1] === 0xd8 && data[2] === 0xff) return 'jpg';
  if (/^GIF8[79]a$/.test(ascii(0, 6))) return 'gif';
  if (ascii(0, 4) === 'RIFF' && ascii(8, 12) === 'WEBP') return 'webp';
  if (ascii(4, 8) === 'ftyp' && /^avi[fs]$/.test(ascii(8, 12))) return 'avif';
  const head = data.subarray(0, 1024).toString('utf8').replace(/^\uFEFF/, '').trimStart();
  if (/^(<\?xml[^>]*>\s*)?(<!--[\s\S]*?-->\s*)*(<!DOCTYPE svg[^>]*>\s*)?<svg[\s>]/i.test(head)) return 'svg';
  return null;
}

/** Where attachments of `note` go, read from `.obsidian/app.json` each time (the user may change it in Obsidian). */
export async function attachmentFolderFor(vaultDir: string, note: VaultPath | null): Promise<string> {
  let setting: unknown;
  try {
    // Read without following a link (CONTRACT §11): a vault from anywhere may carry one here.
    setting = JSON.parse((await readVaultText(vaultDir, APP_JSON, MAX_APP_JSON_BYTES)) ?? '{}').attachmentFolderPath;
  } catch {
    setting = undefined;
  }
  if (typeof setting !== 'string' || setting.trim() === '') return DEFAULT_ATTACHMENT_FOLDER;
  const value = setting.trim().replace(/\\/g, '/');
  if (value === '/') return '';
  const noteFolder = note && note.includes('/') ? note.slice(0, note.lastIndexOf('/')) : '';
  if (value === '.' || value === './') return noteFolder;
  if (value.startsWith('./')) return [noteFolder, value.slice(2)].filter(Boolean).join('/').replace(/(?<!\/)\/+$/, '');
  return value.replace(/^\/+|(?<!\/)\/+$/g, '');
}

const pad = (n: number) => String(n).padStart(2, '0');

/** Obsidian's name for a pasted image: `Pasted image 20260102103000`. */
export function pastedName(now = new Date()): string {
  return `Pasted image ${now.getFullYear()}${pad(now.getMonth() + 1)}${pad(now.getDate())}${pad(now.getHours())}${pad(now.getMinutes())}${pad(now.getSeconds())}`;
}

function cleanStem(name: string): string {
  const stem = path.basename(name.replace(/\\/g, '/')).replace(/\.[^.]*$/, '');
  // Characters a wikilink or a file system cannot carry.
  return stem.replace(/[\u0000-\u001f\\/:*?"<>|#^[\]]+/g, ' ').replace(/\s+/g, ' ').trim().slice(0, 120);
}

export interface StoredImage {
  path: VaultPath;
  /** The file name, unique in the vault: what `![[…]]` names. */
  name: string;
}

export interface StoreImageRequest {
  /** The note the image goes into (for `./` attachment folders). */
  note: VaultPath | null;
  /** The dropped file's name; none for a paste. */
  name: string | null;
  data: Buffer;
}

/** Errors of `link` on a file system that has no hard links. */
const NO_HARD_LINKS = new Set(['EPERM', 'ENOTSUP', 'EOPNOTSUPP', 'ENOSYS']);

/**
 * Makes `abs` hold `data` only if nothing is there: the bytes go to a temp file first,
 * then a hard link gives them the name (a link, unlike a rename, fails on a taken name).
 * Answers false when the name is taken. The caller holds the folder's lock.
 */
export async function createFileOnce(abs: string, data: Uint8Array): Promise<boolean> {
  await mkdirFor(abs);
  const temp = await writeTempDurableQuiet(abs, data, 0o644);
  try {
    await fs.link(temp, abs);
    await fsyncDir(path.dirname(abs));
    return true;
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? '';
    if (code === 'EEXIST') return false;
    if (!NO_HARD_LINKS.has(code)) throw storageFailure(err);
    // No hard links here: under the lock nothing of ours comes between the check and the rename.
    if (await fs.lstat(abs).then(() => true, () => false)) return false;
    await commitTemp(temp, abs);
    return true;
  } finally {
    await fs.rm(temp, { force: true });
  }
}

/** How many numbered names are tried before giving up (`name 2.png` … ). */
const MAX_NUMBERED = 10_000;

export async function storeImage(root: VaultRoot, skipDirs: string[], locks: PathLocks, request: StoreImageRequest): Promise<StoredImage> {
  const { data } = request;
  if (data.length === 0) throw refuse('empty', 'The image is empty.');
  if (data.length > MAX_ATTACHMENT_BYTES) {
    throw refuse('too_large', `The image is ${(data.length / 1024 / 1024).toFixed(1)} MB; images up to ${MAX_ATTACHMENT_BYTES / 1024 / 1024} MB can be added.`, {
      reason: 'image',
      sizeMb: (data.length / 1024 / 1024).toFixed(1),
      maxMb: MAX_ATTACHMENT_BYTES / 1024 / 1024,
    });
  }
  const ext = imageTypeOf(data);
  if (!ext) throw refuse('not_an_image', 'That file is not an image this app can add: PNG, JPEG, GIF, WebP, AVIF or SVG.', { reason: 'paste' });
  const folder = await attachmentFolderFor(root.dir, request.note);
  const stem = (request.name && cleanStem(request.name)) || pastedName();
  // The folder is held from the name's choice to the file's creation: no other paste, save or move comes between.
  return locks.run([folder], async () => {
    // Unique by name in the whole vault, as Obsidian resolves `![[name]]`.
    const taken = new Set((await new VaultEntries(root.dir, skipDirs).list()).filter((e) => e.kind !== 'folder').map((e) => sameName(path.posix.basename(e.path))));
    for (let n = 1; n <= MAX_NUMBERED; n++) {
      const name = n === 1 ? `${stem}.${ext}` : `${stem} ${n}.${ext}`;
      if (taken.has(sameName(name))) continue;
      const abs = await root.resolve(parseVaultPath(folder ? `${folder}/${name}` : name));
      // Taken after the listing (another program wrote it): the next number.
      if (!(await createFileOnce(abs, data))) continue;
      return { path: toVaultPath(path.relative(root.dir, abs)), name };
    }
    throw refuse('exists', `Every name from “${stem}.${ext}” to “${stem} ${MAX_NUMBERED}.${ext}” is taken.`);
  });
}
