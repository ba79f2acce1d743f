// Attachments for the admin app: read a vault file's bytes (image previews in the
// banner picker) and write an uploaded image into the vault. Notes are never read
// or written here; they have their own single write path.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { writeFileAtomic } from '../../../shared/atomic-write.ts';
import { DomainError, notFound, refuse } from '../../../shared/errors.ts';
import { readRegularFile } from '../../../shared/vault-read.ts';
import { nameBeside } from '../../vault/trash.ts';
import { imageTypeOf } from './images.ts';
import { isNotePath, nameClash, newFoldersProblem, newNameProblem, type VaultPath, type VaultRoot } from '../../../shared/vault-path.ts';

export const MAX_ATTACHMENT_BYTES = 10 * 1024 * 1024;
/** The most of a vault file /api/file answers with (it is read whole). */
const MAX_FILE_READ_BYTES = 256 * 1024 * 1024;

export const IMAGE_TYPES: Record<string, string> = {
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.avif': 'image/avif',
  '.svg': 'image/svg+xml',
};

export function attachmentType(p: string): string {
  return IMAGE_TYPES[path.extname(p).toLowerCase()] ?? 'application/octet-stream';
}

export async function readAttachment(root: VaultRoot, p: VaultPath): Promise<{ data: Buffer; type: string }> {
  if (isNotePath(p)) throw refuse('not_an_attachment', 'Notes are read through /api/note.');
  const read = await readRegularFile(await root.resolve(p), MAX_FILE_READ_BYTES).catch((err: unknown) => {
    if (err instanceof DomainError && err.code === 'is_folder') return null;
    throw err;
  });
  if (!read) throw notFound('No file at that path.', 'file');
  return { data: read.data, type: attachmentType(p) };
}

/** Writes an uploaded image; refuses notes, non-images and oversize files. */
export async function writeAttachment(root: VaultRoot, p: VaultPath, data: Buffer): Promise<VaultPath> {
  if (isNotePath(p) || !(path.extname(p).toLowerCase() in IMAGE_TYPES)) {
    throw refuse('not_an_image', 'Only png, jpg, gif, webp, avif or svg images can be uploaded.', { reason: 'extension' });
  }
  if (data.length === 0 || data.length > MAX_ATTACHMENT_BYTES) {
    throw refuse('too_large', `An upload is 1 byte to ${MAX_ATTACHMENT_BYTES / 1024 / 1024} MB.`, { reason: 'upload', maxMb: MAX_ATTACHMENT_BYTES / 1024 / 1024 });
  }
  // The bytes must be the image the name says, as for a pasted image (images.ts): HTML named
  // x.png was once stored as it was, for a static host to serve by whatever it sniffs.
  const declared = path.extname(p).toLowerCase().slice(1).replace('jpeg', 'jpg');
  if (imageTypeOf(data) !== declared) throw refuse('not_an_image', `The file is not the ${declared.toUpperCase()} image its name says.`, { reason: 'mismatch', type: declared.toUpperCase() });
  const nameProblem = newNameProblem(p) ?? (await newFoldersProblem(root.dir, p));
  if (nameProblem) throw refuse('bad_name', nameProblem.message, nameProblem.details);
  // A change like any other: by its own path, never through a link (vault-path.ts).
  let abs = await root.resolveForChange(p);
  const clash = await nameClash(root.dir, p);
  if (clash) throw refuse('exists', clash.message, clash.details);
  // An existing file is never replaced: the upload takes a name beside it.
  if (await fs.lstat(abs).then(() => true, () => false)) abs = await nameBeside(abs, false);
  await writeFileAtomic(abs, data, { mode: 0o644, mkdir: true });
  return root.relative(abs);
}
