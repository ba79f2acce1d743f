// Collections (spec 2.8, D.5; tags mode only): declared by a tag page note with
// `collection: true`. Members: every published note carrying the tag, plus the
// published notes of its `folder`, plus notes naming its address in `folders:`.
// At most twelve, in arranged order; a hidden one keeps its members but visitors
// cannot reach it.
import { collectionSlug, textValue } from '../note/fields.ts';
import { collectionAddress, type Address } from './addresses.ts';
import type { NoteRecord } from './note-record.ts';
import { labelFrom, type TopicIndex } from './topics.ts';

export const MAX_COLLECTIONS = 12;
export const COLLECTION_MARK = '◆';

export interface Collection {
  tag: string;
  slug: string;
  address: Address;
  title: string;
  icon: string;
  description: string | null;
  hidden: boolean;
  /** Vault folder whose published notes all belong ('' when none). */
  folder: string;
  members: NoteRecord[];
  /** The tag page note that declares it. */
  source: NoteRecord;
}

function orderOf(note: NoteRecord): number {
  const v = note.data.order ?? note.data.position;
  const n = typeof v === 'number' ? v : typeof v === 'string' ? Number(v) : NaN;
  return Number.isFinite(n) ? n : Number.POSITIVE_INFINITY;
}

function folderValue(note: NoteRecord): string {
  const v = textValue(note.data.folder) ?? (Array.isArray(note.data.folder) ? textValue(note.data.folder[0]) : null);
  if (!v) return '';
  return v.replace(/^\[\[|\]\]$/g, '').replace(/^\/+|\/+$/g, '').trim();
}

export function buildCollections(topics: TopicIndex, posts: NoteRecord[], language: string): Collection[] {
  const declared = [...topics.tagPages.entries()]
    .filter(([, note]) => note.collection)
    .sort(([ka, a], [kb, b]) => orderOf(a) - orderOf(b) || ka.localeCompare(kb));
  const out: Collection[] = [];
  const seenSlugs = new Set<string>();
  for (const [key, note] of declared) {
    if (out.length >= MAX_COLLECTIONS) break;
    const tag = textValue(note.data.tag)?.replace(/^#/, '') ?? note.name;
    const slug = collectionSlug(textValue(note.data.slug) ?? tag);
    if (slug === '' || seenSlugs.has(slug)) continue;
    seenSlugs.add(slug);
    const folder = folderValue(note);
    const prefix = folder === '' ? null : folder.toLowerCase() + '/';
    const members = posts.filter(
      (p) =>
        p.tags.some((t) => t.toLowerCase() === key) ||
        p.folderSlugs.includes(slug) ||
        (prefix !== null && p.path.toLowerCase().startsWith(prefix)),
    );
    out.push({
      tag,
      slug,
      address: collectionAddress(slug),
      title: labelFrom(note, language) ?? tag,
      icon: note.icon ?? COLLECTION_MARK,
      description: note.description,
      hidden: note.hidden,
      folder,
      members,
      source: note,
    });
  }
  return out;
}
