// Topics (spec 2.8, D.4): one per tag of published notes, at `/topic/<tag>`, shown
// under a localised label when a tag page note gives one. EXCLUDE_TAGS removes a
// tag from every public place (topic row, topic pages, chips); the vault keeps it.
// A nested tag makes a topic of each of its parents too (`#a/b/c`: `a`, `a/b`, `a/b/c`),
// listing the notes under it, as Obsidian's `tag:#a` finds `#a/b`; at most MAX_TOPIC_DEPTH a tag.
import { cleanTag, textValue } from '../note/fields.ts';
import { composed, sameName } from '../vault-names.ts';
import { nameValue } from '../note/shown-text.ts';
import { isListPageAddress, isWritableAddress, topicAddress, type Address } from './addresses.ts';
import type { NoteRecord } from './note-record.ts';
import { textCompare } from '../natural-order.ts';

export interface Topic {
  /** The tag as first written by the newest post carrying it; the address keeps it. */
  name: string;
  key: string;
  label: string;
  address: Address;
  /** The posts carrying this tag or one nested under it, newest first, each once. */
  posts: NoteRecord[];
  /** How many posts carry this very tag (0: a parent only its nested tags make). */
  own: number;
  /** The topics nested one level down (the nearest topic above theirs is this one), busiest first. */
  children: Topic[];
}

/**
 * The most topics one tag makes: its outermost levels and the tag itself. A topic is a page
 * and feeds; unbounded, one tag nested a thousand levels (a 2 KB address) made a thousand.
 */
export const MAX_TOPIC_DEPTH = 8;

/** A tag and the tags it nests in, outermost first: `a/b/c` → `a`, `a/b`, `a/b/c` (past MAX_TOPIC_DEPTH, the outermost and the tag). */
export function tagLineage(tag: string): string[] {
  const out: string[] = [];
  for (let i = tag.indexOf('/'); i >= 0 && out.length < MAX_TOPIC_DEPTH - 1; i = tag.indexOf('/', i + 1)) out.push(tag.slice(0, i));
  out.push(tag);
  return out;
}

/** The nearest topic a topic nests in (`a/b` for `a/b/c`, else `a`), or null. */
export function topicAbove(byKey: Map<string, Topic>, topic: Topic): Topic | null {
  const lineage = tagLineage(topic.key);
  for (let i = lineage.length - 2; i >= 0; i--) {
    const above = byKey.get(lineage[i]!);
    if (above) return above;
  }
  return null;
}

/**
 * The keys of every topic a post with `tags` is listed on: each tag that is one and the
 * tags it nests in. An excluded tag lists the post nowhere, its parents included: the
 * note is on `/topic/a` for `a/b` only while `a/b` is public.
 */
export function topicKeysOf(tags: readonly string[], topics: Pick<TopicIndex, 'isExcluded' | 'hasPage'>): Map<string, string> {
  const out = new Map<string, string>();
  for (const tag of tags) {
    if (topics.isExcluded(tag)) continue;
    for (const name of tagLineage(tag)) {
      const key = name.toLowerCase();
      if (!out.has(key) && !topics.isExcluded(name) && topics.hasPage(name)) out.set(key, name);
    }
  }
  return out;
}

const TAG_PAGE_FOLDERS = new Set(['topics', 'tags']);

/** What deciding on a tag page needs of a note (the admin's collections panel has no full record). */
export type TagPageCandidate = Pick<NoteRecord, 'data' | 'folder' | 'name'>;

/** Tag page notes by tag key, the first in `notes`' order winning (spec 2.8). */
export function tagPagesOf<T extends TagPageCandidate>(notes: Iterable<T>): Map<string, T> {
  const pages = new Map<string, T>();
  for (const note of notes) {
    const tag = tagPageTag(note);
    if (tag && !pages.has(tag.toLowerCase())) pages.set(tag.toLowerCase(), note);
  }
  return pages;
}

/**
 * The tag a note describes, when it is a tag page note: it lives in a `Topics/` or `Tags/`
 * folder, or declares `collection: true` (or false); it describes the tag its `tag:` names,
 * else the tag of its own name. Anywhere else `tag:` is Obsidian's other spelling of
 * `tags:` (shared/note/fields.ts tagsOf), and `collection:` with another value is some
 * other program's key (Zotero's): such a note is a note, and its title never labels a
 * topic. A private diary saying `tag: journal` once put its title on every public page.
 */
export function tagPageTag(note: TagPageCandidate): string | null {
  const folderName = note.folder.slice(note.folder.lastIndexOf('/') + 1).toLowerCase();
  if (!TAG_PAGE_FOLDERS.has(folderName) && !declaresCollection(note.data.collection)) return null;
  const named = textValue(note.data.tag);
  return (named && cleanTag(named)) || composed(note.name);
}

/** `collection:` as a tag page writes it: a yes or a no. */
function declaresCollection(value: unknown): boolean {
  return typeof value === 'boolean' || (typeof value === 'string' && /^(true|false)$/i.test(value.trim()));
}

/** A label for `tag` in `language` from its tag page note: `labels.<lang>`, `label_<lang>`, `label`, `title`. */
export function labelFrom(note: Pick<NoteRecord, 'data'>, language: string): string | null {
  const labels = note.data.labels;
  if (labels && typeof labels === 'object' && !Array.isArray(labels)) {
    const v = nameValue((labels as Record<string, unknown>)[language]);
    if (v) return v;
  }
  return nameValue(note.data[`label_${language}`]) ?? nameValue(note.data.label) ?? nameValue(note.data.title);
}

export interface TopicIndex {
  topics: Topic[];
  byKey: Map<string, Topic>;
  /** Label of any tag (excluded ones too: the vault keeps them). */
  label(tag: string): string;
  isExcluded(tag: string): boolean;
  /**
   * Whether the tag can have a topic page: one that would be another topic's later page
   * (`#a/page/2` is page 2 of `/topic/a`) has none, and its posts are listed on the topics above it.
   */
  hasPage(tag: string): boolean;
  /** Tag page notes by tag key. */
  tagPages: Map<string, NoteRecord>;
}

export function buildTopics(
  allNotes: Iterable<NoteRecord>,
  posts: NoteRecord[],
  excludeTags: string[],
  language: string,
): TopicIndex {
  const excluded = new Set(excludeTags.map((t) => sameName(t.replace(/^#/, ''))));
  // A tag whose topic page cannot be a file (`..`, a name over 255 bytes, a path 5,000 tags deep) is no topic, as if excluded.
  const isExcluded = (tag: string) => excluded.has(tag.toLowerCase()) || !isWritableAddress(topicAddress(tag));
  const hasPage = (tag: string) => !isListPageAddress(topicAddress(tag));
  const index = { isExcluded, hasPage };
  const tagPages = tagPagesOf(allNotes);
  const labels = new Map<string, string>();
  const label = (tag: string): string => {
    const key = tag.toLowerCase();
    let l = labels.get(key);
    if (l === undefined) {
      const page = tagPages.get(key);
      l = (page && labelFrom(page, language)) || tag;
      labels.set(key, l);
    }
    return l;
  };
  const byKey = new Map<string, Topic>();
  for (const post of posts) {
    for (const [key, tag] of topicKeysOf(post.tags, index)) {
      let topic = byKey.get(key);
      if (!topic) {
        topic = { name: tag, key, label: label(tag), address: topicAddress(tag), posts: [], own: 0, children: [] };
        byKey.set(key, topic);
      }
      topic.posts.push(post);
    }
    for (const key of new Set(post.tags.filter((t) => !isExcluded(t) && hasPage(t)).map((t) => t.toLowerCase()))) byKey.get(key)!.own++;
  }
  // Ranked by the posts carrying the tag itself, then by all under it, then by label. A
  // parent's count holds its nested tags' posts: ranked by that, `a` (and `a/b`) would
  // come before `a/b/c` and every other tag, and push the busiest written tags out of
  // the topic row's TOPIC_ROW_MAX; a parent no post carries comes after every written tag.
  const topics = [...byKey.values()].sort((a, b) => b.own - a.own || b.posts.length - a.posts.length || textCompare(a.label, b.label));
  for (const topic of [...topics].sort((a, b) => b.posts.length - a.posts.length || textCompare(a.label, b.label))) {
    topicAbove(byKey, topic)?.children.push(topic);
  }
  return { topics, byKey, label, isExcluded, hasPage, tagPages };
}
