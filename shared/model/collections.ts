// Collections (spec 2.8, D.5; tags mode only): declared by a tag page note with
// `collection: true`. Members: every published note carrying the tag (or one nested in it), plus the
// published notes of its `folder`, plus notes naming its address in `folders:`.
// At most twelve, in arranged order; a hidden one keeps its members but visitors
// cannot reach it. `declaredCollections` is the one reading of the declarations:
// the public model and the admin's collections panel both call it.
import { isTrue } from '../note/frontmatter.ts';
import { collectionSlug, textValue } from '../note/fields.ts';
import { composed, isInFolder } from '../vault-names.ts';
import { descriptionValue, iconValue, nameValue } from '../note/shown-text.ts';
import { linksAsWords } from '../note/title.ts';
import { collectionAddress, type Address } from './addresses.ts';
import type { NoteRecord } from './note-record.ts';
import { labelFrom, tagPageTag, type TagPageCandidate, type TopicIndex } from './topics.ts';
import { textCompare } from '../natural-order.ts';

export const MAX_COLLECTIONS = 12;
export const COLLECTION_MARK = '◆';

/** What a tag page note declares: the collection without its members. */
export interface CollectionDeclaration {
  tag: string;
  slug: string;
  title: string;
  icon: string;
  description: string | null;
  hidden: boolean;
  /** Vault folder whose published notes all belong ('' when none). */
  folder: string;
  /** The declaring note's path. */
  path: string;
}

export interface Collection extends Omit<CollectionDeclaration, 'path'> {
  address: Address;
  members: NoteRecord[];
  /** The tag page note that declares it. */
  source: NoteRecord;
}

/** What reading a declaration needs of a note. */
export type DeclaringNote = TagPageCandidate & { path: string };

function orderOf(note: DeclaringNote): number {
  const v = note.data.order ?? note.data.position;
  const n = typeof v === 'number' ? v : typeof v === 'string' ? Number(v) : NaN;
  return Number.isFinite(n) ? n : Number.POSITIVE_INFINITY;
}

function folderValue(note: DeclaringNote): string {
  const v = textValue(note.data.folder) ?? (Array.isArray(note.data.folder) ? textValue(note.data.folder[0]) : null);
  if (!v) return '';
  return v.replace(/^\[\[|\]\]$/g, '').replace(/^\/+|(?<!\/)\/+$/g, '').trim();
}

/**
 * The collections the tag pages declare (tag key → tag page note), in arranged order
 * (`order:`/`position:`, then tag), without duplicate or empty slugs, at most twelve.
 */
export function declaredCollections<T extends DeclaringNote>(tagPages: Map<string, T>, language: string): Array<CollectionDeclaration & { note: T }> {
  const declared = [...tagPages.entries()]
    .filter(([, note]) => isTrue(note.data.collection))
    .sort(([ka, a], [kb, b]) => orderOf(a) - orderOf(b) || textCompare(ka, kb));
  const out: Array<CollectionDeclaration & { note: T }> = [];
  const seenSlugs = new Set<string>();
  for (const [, note] of declared) {
    if (out.length >= MAX_COLLECTIONS) break;
    const tag = tagPageTag(note) ?? composed(note.name);
    const slug = collectionSlug(textValue(note.data.slug) ?? tag);
    if (slug === '' || seenSlugs.has(slug)) continue;
    seenSlugs.add(slug);
    out.push({
      tag,
      slug,
      title: labelFrom(note, language) ?? nameValue(tag) ?? tag,
      icon: iconValue(note.data.icon) ?? COLLECTION_MARK,
      description: descriptionValue(linksAsWords(note.data.description)),
      hidden: isTrue(note.data.hidden),
      folder: folderValue(note),
      path: note.path,
      note,
    });
  }
  return out;
}

export function buildCollections(topics: TopicIndex, posts: NoteRecord[], language: string): Collection[] {
  return declaredCollections(topics.tagPages, language).map(({ path: _path, note, ...declaration }) => {
    const key = declaration.tag.toLowerCase();
    // A tag holds its nested tags, as its topic page does (`garden` holds `#garden/roses`), an excluded one aside.
    const carries = (tag: string) => {
      const t = tag.toLowerCase();
      return t === key || (t.startsWith(key + '/') && !topics.isExcluded(tag));
    };
    const members = posts.filter(
      (p) =>
        p.tags.some(carries) ||
        p.folderSlugs.includes(declaration.slug) ||
        isInFolder(p.path, declaration.folder),
    );
    return { ...declaration, address: collectionAddress(declaration.slug), members, source: note };
  });
}
