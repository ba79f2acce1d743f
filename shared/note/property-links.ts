// Links written in a note's properties (`up: "[[Parent]]"`, `related: ["[[A]]", "[[B]]"]`).
// Obsidian counts them as the note's links: they show in the linked note's backlinks and in
// the graph, and a rename rewrites them. The model counts them so too (note-record.ts), the
// properties panel shows them (site/plan/properties.ts), and "Linked from" says which
// property holds one (backlinks.ts). Keys the service reads to publish a note are not properties.
import { isAttachmentTarget, linkShownText, parseWikiRef, writtenLinks } from '../wikilinks.ts';
import type { Frontmatter } from './frontmatter.ts';

/** Keys the service reads to publish a note, or the page shows elsewhere. */
export const INTERNAL_KEYS = new Set([
  'publish', 'draft', 'page', 'permalink', 'hidden', 'collection', 'folder', 'folders', 'twin', 'lang', 'id',
  'cssclasses', 'cssclass', 'aliases', 'alias', 'tags', 'tag', 'title', 'description', 'banner', 'cover', 'image', 'icon',
]);

/** The most properties, and items of one list, a page shows (and the model reads links from). */
export const MAX_PROPERTIES = 50;
export const MAX_ITEMS = 50;
/** The most characters of one value read: the panel shows the rest cut. */
export const MAX_TEXT = 500;

export interface PropertyLink {
  key: string;
  /** The note it names, as written (no heading, no alias). */
  target: string;
  /** What a reader reads for it: its alias, else its target and headings. */
  shown: string;
}

/** The note links of a note's properties, in their order: the first MAX_PROPERTIES keys, MAX_ITEMS items each. */
export function propertyLinks(data: Frontmatter): PropertyLink[] {
  const out: PropertyLink[] = [];
  let keys = 0;
  for (const [key, value] of Object.entries(data)) {
    if (INTERNAL_KEYS.has(key.toLowerCase())) continue;
    if (++keys > MAX_PROPERTIES) break;
    for (const item of Array.isArray(value) ? value.slice(0, MAX_ITEMS) : [value]) {
      if (typeof item !== 'string' || !item.includes('[[')) continue;
      for (const link of writtenLinks(item.slice(0, MAX_TEXT))) {
        const ref = parseWikiRef(link.target + link.heading + link.alias);
        if (ref.target === '' || isAttachmentTarget(ref.target)) continue;
        out.push({ key, target: ref.target, shown: ref.alias ?? linkShownText(ref.target, ref.subpath) });
      }
    }
  }
  return out;
}
