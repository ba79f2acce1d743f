// Categories (spec 2.8; folders mode): the parent folder of a published note. The
// title is the folder's name without a sorting prefix such as `2|`; a folder note
// (named like its folder, or `index.md` inside it) may give title, description,
// icon and `hidden: true`. Notes at the vault root have no category.
import { collectionSlug } from '../note/fields.ts';
import { nameValue } from '../note/shown-text.ts';
import { naturalCompare } from '../natural-order.ts';
import { sameName } from '../vault-names.ts';
import { collectionAddress, type Address } from './addresses.ts';
import type { NoteRecord } from './note-record.ts';

export const CATEGORY_MARK = '▸';

export interface Category {
  folder: string;
  slug: string;
  address: Address;
  title: string;
  icon: string;
  description: string | null;
  hidden: boolean;
  members: NoteRecord[];
  folderNote: NoteRecord | null;
}

/** A folder name without its sorting prefix (`2|Travel` → `Travel`, `02 - Travel` kept). */
export function stripSortPrefix(name: string): string {
  return name.replace(/^\s*\d+\s*\|\s*/, '').trim();
}

export function categorySlug(folder: string): string {
  return collectionSlug(folder.split('/').map(stripSortPrefix).join('-'));
}

/** Whether a note is its folder's note: `Folder/Folder.md` or `Folder/index.md`, names compared as the resolver compares them. */
export function isFolderNote(note: Pick<NoteRecord, 'folder' | 'name'>): boolean {
  if (note.folder === '') return false;
  const name = sameName(note.name);
  return name === 'index' || name === sameName(note.folder.slice(note.folder.lastIndexOf('/') + 1));
}

/** Each folder's folder note among `notes`: the note named like its folder before `index.md`. */
export function folderNotesOf(notes: Iterable<NoteRecord>): Map<string, NoteRecord> {
  const out = new Map<string, NoteRecord>();
  for (const note of notes) {
    if (!isFolderNote(note)) continue;
    const known = out.get(note.folder);
    if (!known || sameName(known.name) === 'index') out.set(note.folder, note);
  }
  return out;
}

export function buildCategories(allNotes: Iterable<NoteRecord>, posts: NoteRecord[]): Category[] {
  const folderNotes = folderNotesOf(allNotes);
  const byFolder = new Map<string, NoteRecord[]>();
  for (const post of posts) {
    if (post.folder === '') continue;
    const list = byFolder.get(post.folder);
    if (list) list.push(post);
    else byFolder.set(post.folder, [post]);
  }
  const out: Category[] = [];
  const seen = new Set<string>();
  const folders = [...byFolder.keys()].sort(naturalCompare);
  for (const folder of folders) {
    const slug = categorySlug(folder);
    if (slug === '' || seen.has(slug)) continue;
    seen.add(slug);
    const note = folderNotes.get(folder) ?? null;
    const name = folder.slice(folder.lastIndexOf('/') + 1);
    out.push({
      folder,
      slug,
      address: collectionAddress(slug),
      title: (note && nameValue(note.data.title)) ?? stripSortPrefix(name),
      icon: note?.icon ?? CATEGORY_MARK,
      description: note?.description ?? null,
      hidden: note?.hidden ?? false,
      members: byFolder.get(folder)!,
      folderNote: note,
    });
  }
  return out;
}
