// Vault paths are vault-relative with `/` separators. They are a branded type so a
// URL slug or an absolute file path can't be passed where a vault path belongs.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { isTempFile } from './atomic-write.ts';
import { DomainError } from './errors.ts';
import { sameName } from './vault-names.ts';
import { holdsDataDirMarker } from './vault-walk.ts';

export type VaultPath = string & { readonly __brand: 'VaultPath' };

/** A vault path refused as input (code `bad_path`). */
export class PathError extends DomainError {
  /** `reason` and its figures name why, for the app to say it in the owner's language. */
  constructor(message: string, reason: string, figures: Record<string, string | number> = {}) {
    super('bad_path', message, { reason, ...figures });
    this.name = 'PathError';
  }
}

/** Folders of the vault that no note path may enter, at any depth (CONTRACT §3). */
export const RESERVED_NAMES = ['.git', '.trash', '.service'];

/**
 * The one entry rule: names that are never vault entries, at any depth.
 * Dot-names (the reserved ones above, `.obsidian` and the like), temp files of an
 * interrupted write, `node_modules`. The walker skips them and the input parser refuses
 * them, so nothing can be saved where it would never be listed (or swept as a temp file).
 */
export function isSkippedName(name: string): boolean {
  return name.startsWith('.') || isTempFile(name) || name === 'node_modules';
}

function skippedRefusal(segment: string): PathError {
  if (RESERVED_NAMES.includes(segment.toLowerCase())) return new PathError(`Paths under ${segment}/ are not notes.`, 'reserved', { name: segment });
  if (isTempFile(segment)) return new PathError(`“${segment}” is named like a temp file of an interrupted write; choose another name.`, 'temp_file', { name: segment });
  return new PathError(`“${segment}” is hidden from the vault (names starting with “.” and node_modules are never listed); choose another name.`, 'hidden', { name: segment });
}
export const NOTE_EXTENSIONS = ['.md', '.markdown', '.tex'];
const MAX_PATH_LENGTH = 1024;
/** What one file or folder name may hold on the disks we run on (bytes, UTF-8). */
const MAX_NAME_BYTES = 255;

export function isNotePath(p: string): boolean {
  const lower = p.toLowerCase();
  return NOTE_EXTENSIONS.some((ext) => lower.endsWith(ext));
}

const NOT_PORTABLE = /[<>:"|?*]/;
const WINDOWS_DEVICE = /^(con|prn|aux|nul|com[1-9]|lpt[1-9])(\.[^.]*)?$/i;

/**
 * Why a new name would not survive the vault's trip to another device, or null. Obsidian
 * refuses `< > : " | ? *` in a name and Windows cannot hold them, a trailing dot or space,
 * or a device name (`CON.md`, `nul`): a vault synced there would break on them. Asked only
 * of names being made (a new note, a rename's target, an upload); existing ones stay editable.
 */
export function newNameProblem(p: VaultPath): NameProblem | null {
  return nameProblem(p.slice(p.lastIndexOf('/') + 1));
}

/**
 * What a link cannot name: `[[R#n^x]]` reads as note R, heading n^x, so Obsidian refuses
 * `# ^ [ ]` in a name too (a rename to one once wrote broken links into other notes).
 * C1 controls and the bidi controls that reorder how a name reads are no name's either.
 */
const BREAKS_LINKS = /[#^[\]]/;
// eslint-disable-next-line no-control-regex
const INVISIBLE_CONTROL = /[\u0080-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;

/** Why a name cannot be made: the sentence, and its reason and figures (the app says them in the owner's language). */
export interface NameProblem {
  message: string;
  details: { reason: string; name: string; char?: string; other?: string };
}

function nameProblem(name: string): NameProblem | null {
  const no = (reason: string, message: string, char?: string): NameProblem => ({ message, details: char === undefined ? { reason, name } : { reason, name, char } });
  const bad = NOT_PORTABLE.exec(name);
  if (bad) return no('not_portable', `“${name}” holds “${bad[0]}”, which Obsidian and Windows do not allow in a name; choose another name.`, bad[0]);
  const link = BREAKS_LINKS.exec(name);
  if (link) return no('breaks_links', `“${name}” holds “${link[0]}”, which a link cannot name (Obsidian does not allow it); choose another name.`, link[0]);
  if (INVISIBLE_CONTROL.test(name)) return no('invisible', `“${name}” holds a control character that does not show or reorders the name; choose another name.`);
  if (/[. ]$/.test(name)) return no('trailing', `“${name}” ends with a dot or a space, which Windows drops; choose another name.`);
  if (WINDOWS_DEVICE.test(name)) return no('device', `“${name}” is a device name on Windows and cannot be a file there; choose another name.`);
  return null;
}

/**
 * newNameProblem for the folders `p` would make on the way (those not there yet): `x|y/CON/z.md`
 * once made two folders no other device could hold. Folders already there stay as they are.
 */
export async function newFoldersProblem(vaultDir: string, p: VaultPath): Promise<NameProblem | null> {
  const segments = p.split('/').slice(0, -1);
  let dir = vaultDir;
  for (const [i, name] of segments.entries()) {
    dir = path.join(dir, name);
    if (await fs.lstat(dir).then(() => true, () => false)) continue;
    for (const made of segments.slice(i)) {
      const problem = nameProblem(made);
      if (problem) return problem;
    }
    return null;
  }
  return null;
}


/**
 * Why a new path cannot be made beside what its folders hold: a name differing from one there
 * only in case or in how its accents are encoded (`Café.md` in NFC and in NFD, `notes` and
 * `Notes`) is the same name on macOS and Windows, so a vault synced there breaks. Checked from
 * the top down to the first name that is new (`except`: the path being renamed, which may
 * take its own name in another case). Null when it can be made.
 */
export async function nameClash(vaultDir: string, p: VaultPath, except: VaultPath | null = null): Promise<NameProblem | null> {
  const segments = p.split('/');
  let dir = vaultDir;
  for (let i = 0; i < segments.length; i++) {
    const name = segments[i]!;
    const entries = await fs.readdir(dir).catch(() => null);
    if (!entries) return null;
    if (entries.includes(name)) {
      dir = path.join(dir, name);
      continue;
    }
    const folded = sameName(name);
    const here = segments.slice(0, i).join('/');
    const other = entries.find((e) => sameName(e) === folded && (here ? `${here}/${e}` : e) !== except);
    if (!other) return null;
    const message = `“${name}” differs from “${other}”, already in that folder, only in case or in how its accents are encoded; macOS and Windows hold one of the two, so the vault would not sync there. Choose another name.`;
    return { message, details: { reason: 'case', name, other } };
  }
  return null;
}

/** Validates untrusted input as a vault path; throws PathError with the reason. */
export function parseVaultPath(input: unknown): VaultPath {
  if (typeof input !== 'string' || input.length === 0) throw new PathError('A path is required.', 'required');
  if (input.length > MAX_PATH_LENGTH) throw new PathError('The path is too long.', 'too_long');
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(input)) throw new PathError('The path contains control characters.', 'control');
  if (input.includes('\\')) throw new PathError('Use "/" to separate folders.', 'backslash');
  if (input.startsWith('/') || /^[a-zA-Z]:(\/|$)/.test(input)) throw new PathError('The path must be relative to the vault.', 'absolute');
  // `a:b.md` is drive-relative on Windows: refused too, for what it really is.
  if (/^[a-zA-Z]:/.test(input)) throw new PathError(`“${input.slice(0, 2)}” at the start reads as a drive on Windows: a colon is not allowed there; choose another name.`, 'drive', { name: input.slice(0, 2) });
  const trimmed = input.replace(/(?<!\/)\/+$/, '');
  const segments = trimmed.split('/');
  for (const segment of segments) {
    if (segment === '' || segment === '.') throw new PathError('The path has an empty segment.', 'empty_segment');
    if (segment === '..') throw new PathError('The path may not leave the vault.', 'outside');
    if (Buffer.byteLength(segment) > MAX_NAME_BYTES) throw new PathError(`A name in the path is longer than ${MAX_NAME_BYTES} bytes.`, 'name_bytes', { max: MAX_NAME_BYTES });
    if (isSkippedName(segment)) throw skippedRefusal(segment);
  }
  return trimmed as VaultPath;
}

export function toVaultPath(relative: string): VaultPath {
  return (path.sep === '/' ? relative : relative.split(path.sep).join('/')) as VaultPath;
}

export function baseName(p: VaultPath): string {
  const name = p.slice(p.lastIndexOf('/') + 1);
  return name;
}

export function stripExtension(p: string): string {
  const dot = p.lastIndexOf('.');
  const slash = p.lastIndexOf('/');
  return dot > slash + 0 && dot > 0 ? p.slice(0, dot) : p;
}

export function parentOf(p: VaultPath): string {
  const i = p.lastIndexOf('/');
  return i < 0 ? '' : p.slice(0, i);
}

function isInside(parent: string, child: string): boolean {
  const rel = path.relative(parent, child);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}

/** The reserved folder a vault-relative path enters (any case), or null. */
function reservedIn(relative: string): string | null {
  return relative.split(path.sep).find((segment) => RESERVED_NAMES.includes(segment.toLowerCase())) ?? null;
}

/**
 * A file every server puts in its data directory when that lies inside the vault. Each server
 * leaves its own out by its path; the marker keeps another server's out too: its versions,
 * settings and token once showed in this one's tree, and could be read and trashed through
 * its API (a reviewer's find). The vault walk (vault-walk.ts) skips a folder holding it.
 */
export const DATA_DIR_MARKER = '.vault-service-data';

const hasMarker = (dir: string) => fs.lstat(path.join(dir, DATA_DIR_MARKER)).then((st) => st.isFile(), () => false);

/** Whether `target` (inside `root`) is, or lies in, a folder holding another server's data marker. */
async function inMarkedFolder(root: string, target: string): Promise<boolean> {
  let cur = root;
  for (const segment of path.relative(root, target).split(path.sep).filter(Boolean)) {
    cur = path.join(cur, segment);
    if (await hasMarker(cur)) return true;
  }
  return false;
}

/**
 * Maps vault paths to absolute paths and back, refusing any path that resolves
 * (symlinks followed) outside the vault, into a reserved folder or into the data directory.
 */
export class VaultRoot {
  private realRoot: string | null = null;

  constructor(
    readonly dir: string,
    private readonly excludedDirs: string[] = [],
  ) {}

  private async real(): Promise<string> {
    this.realRoot ??= await fs.realpath(this.dir);
    return this.realRoot;
  }

  /** Absolute path for `p`, after checking where it really points. */
  async resolve(p: VaultPath): Promise<string> {
    return (await this.follow(p)).abs;
  }

  /**
   * `resolve` for a path about to be moved, deleted or written: the data directory or a
   * folder holding it is refused too (moving it would carry the live data, tokens included, off).
   */
  async resolveForChange(p: VaultPath): Promise<string> {
    const { abs, real } = await this.follow(p);
    if (this.excludedDirs.some((excluded) => isInside(real, excluded) || isInside(abs, excluded)) || (await holdsDataDirMarker(real))) {
      throw new DomainError('holds_data_dir', `“${p}” holds a server's data directory; it cannot be moved, renamed or deleted.`, { path: p });
    }
    // A change names a file by its own path, never through a link to another place in the
    // vault: two spellings of one note would take two path locks (a stale save let through),
    // and file its versions under two names. Case and Unicode form aside, as the disk may.
    const own = path.relative(await this.real(), real).split(path.sep).join('/');
    if (sameName(own) !== sameName(p)) {
      throw new PathError(`“${p}” leads through a link to “${own}”; change it there.`, 'through_link', { path: p, target: own });
    }
    return abs;
  }

  /** The absolute path and where it really points (symlinks followed on the part that exists). */
  private async follow(p: VaultPath): Promise<{ abs: string; real: string }> {
    const abs = path.join(this.dir, ...p.split('/'));
    const root = await this.real();
    let probe = abs;
    let rest = '';
    for (;;) {
      try {
        const real = await fs.realpath(probe);
        const resolved = rest ? path.join(real, rest) : real;
        if (!isInside(root, resolved)) throw new PathError('The path leads outside the vault.', 'leads_outside');
        // A link named `svc` pointing at `.service` must not open it (CONTRACT §3).
        const reserved = reservedIn(path.relative(root, resolved));
        if (reserved) throw new PathError(`The path leads into ${reserved}/ through a link; paths under it are not notes.`, 'into_reserved', { name: reserved });
        for (const excluded of this.excludedDirs) {
          if (isInside(excluded, resolved) || isInside(excluded, abs)) throw new PathError('The path is inside the data directory.', 'data_dir');
        }
        if (await inMarkedFolder(root, resolved)) throw new PathError("The path is inside another server's data directory.", 'other_data_dir');
        return { abs, real: resolved };
      } catch (err) {
        if (err instanceof PathError) throw err;
        const code = (err as NodeJS.ErrnoException).code;
        if (code !== 'ENOENT' && code !== 'ENOTDIR') throw err;
        const parent = path.dirname(probe);
        if (parent === probe) throw new PathError('The path leads outside the vault.', 'leads_outside');
        rest = rest ? path.join(path.basename(probe), rest) : path.basename(probe);
        probe = parent;
      }
    }
  }

  relative(abs: string): VaultPath {
    return toVaultPath(path.relative(this.dir, abs));
  }
}
