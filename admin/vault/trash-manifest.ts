// The bin's record, .trash/.service-trash.json (spec 3.3). It is a file inside the vault:
// Obsidian, another device or a git pull may have written it, so every entry is checked
// as it is read, the way the API checks a path a user typed. An entry that fails is never
// acted on; it is kept in the file as it was, and named in the log once.
import { writeJsonAtomic } from '../../shared/atomic-write.ts';
import { readRegularFile } from '../../shared/vault-read.ts';
import { refuse } from '../../shared/errors.ts';
import { log } from '../../shared/log.ts';
import { parseVaultPath, type VaultPath } from '../../shared/vault-path.ts';
import type { EntryKind } from './tree.ts';

export const TRASH_DIR = '.trash';
export const TRASH_MANIFEST = '.service-trash.json';

export interface TrashEntry {
  id: string;
  /** Where it came from. */
  path: VaultPath;
  /** Where it lies now, relative to the vault: always strictly under `.trash/`. */
  trashPath: string;
  kind: EntryKind;
  deletedAt: string;
  /** 'apart': its notes' versions were moved into the bin with it (trash.ts binVersions). */
  versions?: 'apart';
}

export interface Manifest {
  /** The entries the service may list, restore and erase. */
  entries: TrashEntry[];
  /** Entries that failed the check, exactly as read: written back untouched, never acted on. */
  invalid: unknown[];
  /** Why the file could not be read (malformed JSON, a sync conflict's markers): nothing may write it then. */
  unreadable?: string;
}

const KINDS: readonly string[] = ['note', 'folder', 'attachment'] satisfies EntryKind[];

/** `value` as a vault path only when the input parser takes it exactly as written. */
function plainVaultPath(value: unknown): VaultPath | null {
  try {
    const parsed = parseVaultPath(value);
    return parsed === value ? parsed : null;
  } catch {
    return null;
  }
}

/** Why `raw` may not be acted on, or null when it is a sound entry. */
export function entryProblem(raw: unknown): string | null {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) return 'it is not an object';
  const e = raw as Record<string, unknown>;
  if (typeof e.id !== 'string' || e.id === '') return 'it has no id';
  if (plainVaultPath(e.path) === null) return 'its path is not a vault path the API would take';
  if (typeof e.trashPath !== 'string' || !e.trashPath.startsWith(`${TRASH_DIR}/`)) return `its trashPath is not under ${TRASH_DIR}/`;
  // Strictly below .trash/, no `..`, no dot-name (the manifest itself is one), nothing absolute.
  if (plainVaultPath(e.trashPath.slice(TRASH_DIR.length + 1)) === null) return `its trashPath is not a plain path under ${TRASH_DIR}/`;
  if (typeof e.kind !== 'string' || !KINDS.includes(e.kind)) return 'its kind is not note, folder or attachment';
  if (typeof e.deletedAt !== 'string') return 'it has no deletedAt';
  return null;
}

const warned = new Set<string>();

/** Splits what the file holds into sound entries and the rest. */
export function checkEntries(raw: unknown[]): Manifest {
  const manifest: Manifest = { entries: [], invalid: [] };
  for (const item of raw) {
    const problem = entryProblem(item);
    if (problem === null) {
      manifest.entries.push(item as TrashEntry);
      continue;
    }
    manifest.invalid.push(item);
    const shown = JSON.stringify(item)?.slice(0, 300) ?? String(item);
    if (!warned.has(shown)) {
      warned.add(shown);
      log.warn(`${TRASH_DIR}/${TRASH_MANIFEST}: ignoring an entry (${problem}): ${shown}`);
    }
  }
  return manifest;
}

/** More than any bin's record holds: past it, the record is not read. */
const MAX_MANIFEST_BYTES = 32 * 1024 * 1024;

export async function readManifest(file: string): Promise<Manifest> {
  try {
    // The record is a vault file: a FIFO there once held every bin request, a link read outside the vault.
    const read = await readRegularFile(file, MAX_MANIFEST_BYTES, { followLink: false });
    if (!read) return { entries: [], invalid: [] };
    const m = JSON.parse(read.data.toString('utf8')) as { entries?: unknown } | null;
    return checkEntries(Array.isArray(m?.entries) ? m.entries : []);
  } catch (err) {
    // Not JSON.parse's message: it quotes the file.
    const why = err instanceof SyntaxError ? 'it is not valid JSON' : (err as Error).message;
    log.warn(`${TRASH_DIR}/${TRASH_MANIFEST} is unreadable; listing the bin as empty: ${why}`);
    return { entries: [], invalid: [], unreadable: why };
  }
}

export async function writeManifest(file: string, m: Manifest): Promise<void> {
  // Written over, an unreadable record lost every entry it held: their notes could no longer
  // be restored, and emptying the bin erased them unlisted (a reviewer's find).
  if (m.unreadable !== undefined) throw unreadableRecord();
  await writeJsonAtomic(file, { entries: [...m.entries, ...m.invalid] }, { mode: 0o644, mkdir: true });
}

/** The raw entry that failed the check under `id`, if any. */
export function invalidWithId(m: Manifest, id: string): boolean {
  return m.invalid.some((raw) => raw !== null && typeof raw === 'object' && (raw as Record<string, unknown>).id === id);
}

/** The refusal of any change to the bin while its record cannot be read. */
export function unreadableRecord(): Error {
  return refuse('bad_trash', `${TRASH_DIR}/${TRASH_MANIFEST} cannot be read (a sync conflict, or an edit by hand), so nothing is put in or taken out of the bin; repair or remove that file.`, { reason: 'manifest', path: `${TRASH_DIR}/${TRASH_MANIFEST}` });
}
