// An image pasted or dropped into a note (issue 16), stored as Obsidian stores it: in
// the vault's attachment folder (`attachmentFolderPath` of `.obsidian/app.json`: `/` the
// vault root, `./` beside the note, `./sub` a folder beside it, any other a vault folder;
// `Attachments/` when the vault names none), under a name no other file of the vault
// has, so `![[name.png]]` finds it. The bytes say what the image is; the name follows.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { writeFileAtomic } from '../../../shared/atomic-write.ts';
import { refuse } from '../../../shared/errors.ts';
import { parseVaultPath, toVaultPath, type VaultPath, type VaultRoot } from '../../../shared/vault-path.ts';
import { VaultEntries } from '../../../shared/vault-walk.ts';
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
    setting = JSON.parse(await fs.readFile(path.join(vaultDir, '.obsidian', 'app.json'), 'utf8')).attachmentFolderPath;
  } catch {
    setting = undefined;
  }
  if (typeof setting !== 'string' || setting.trim() === '') return DEFAULT_ATTACHMENT_FOLDER;
  const value = setting.trim().replace(/\\/g, '/');
  if (value === '/') return '';
  const noteFolder = note && note.includes('/') ? note.slice(0, note.lastIndexOf('/')) : '';
  if (value === '.' || value === './') return noteFolder;
  if (value.startsWith('./')) return [noteFolder, value.slice(2)].filter(Boolean).join('/').replace(/\/+$/, '');
  return value.replace(/^\/+|\/+$/g, '');
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

export async function storeImage(root: VaultRoot, skipDirs: string[], request: StoreImageRequest): Promise<StoredImage> {
  const { data } = request;
  if (data.length === 0) throw refuse('empty', 'The image is empty.');
  if (data.length > MAX_ATTACHMENT_BYTES) {
    throw refuse('too_large', `The image is ${(data.length / 1024 / 1024).toFixed(1)} MB; images up to ${MAX_ATTACHMENT_BYTES / 1024 / 1024} MB can be added.`);
  }
  const ext = imageTypeOf(data);
  if (!ext) throw refuse('not_an_image', 'That file is not an image this app can add: PNG, JPEG, GIF, WebP, AVIF or SVG.');
  const folder = await attachmentFolderFor(root.dir, request.note);
  const stem = (request.name && cleanStem(request.name)) || pastedName();
  // Unique by name in the whole vault, as Obsidian resolves `![[name]]`.
  const taken = new Set((await new VaultEntries(root.dir, skipDirs).list()).filter((e) => e.kind !== 'folder').map((e) => path.posix.basename(e.path).toLowerCase()));
  let name = `${stem}.${ext}`;
  for (let n = 2; taken.has(name.toLowerCase()); n++) name = `${stem} ${n}.${ext}`;
  const p = parseVaultPath(folder ? `${folder}/${name}` : name);
  const abs = await root.resolve(p);
  await writeFileAtomic(abs, data, { mode: 0o644, mkdir: true });
  return { path: toVaultPath(path.relative(root.dir, abs)), name };
}
