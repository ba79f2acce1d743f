// Resolves wikilinks and relative Markdown links the way Obsidian does, for notes and
// attachments alike (the one rule: `chooseLinkpath`), and derives Related and language
// twins. Case never matters; a path is matched from the linking note's folder, then
// from the vault root, then by file name (shortest unique path: `Folder/Note` picks the
// `Note` whose path ends so, and no other; among several, the one beside the linking note,
// else the shortest path); a note's `aliases` answer when no name does.
import { linkKey } from '../wikilinks.ts';
import { sameName } from '../vault-names.ts';
import type { VaultPath } from '../vault-path.ts';
import type { NoteRecord } from './note-record.ts';
import { textCompare } from '../natural-order.ts';

/** What link resolution needs of a note (a NoteRecord, or the admin's lighter index entry). */
export interface LinkNode {
  path: VaultPath;
  /** File name without extension. */
  name: string;
  /** Folder part of the path ('' at the vault root). */
  folder: string;
  /** Other names the note answers to (frontmatter `aliases`). */
  aliases?: string[];
}

export interface LinkResolver<T extends LinkNode = NoteRecord> {
  /** The note a link written in `from` points to, or null. */
  resolve(target: string, from: LinkNode | null): T | null;
  /** The same object for as long as every answer stays the same (the set of paths and aliases is unchanged). */
  readonly generation: object;
  /** Takes a newer record of a note already known (same path and aliases): links now lead to it. */
  replace(next: T): void;
}

export function normalizeSegments(p: string): string {
  const out: string[] = [];
  for (const seg of p.split('/')) {
    if (seg === '' || seg === '.') continue;
    if (seg === '..') out.pop();
    else out.push(seg);
  }
  return out.join('/');
}

/** Where a store of files can be looked up: by whole path and by file name (keys from `linkKey`). */
export interface LinkpathLookup {
  byPath(key: string): string | undefined;
  byName(key: string): readonly string[] | undefined;
}

const folderOf = (p: string) => p.slice(0, Math.max(0, p.lastIndexOf('/')));

/**
 * The one rule for which file a link names (notes and attachments alike). `clean` is
 * the target without `#…`; `fromFolder` the linking note's folder (null: the vault root).
 */
export function chooseLinkpath(clean: string, fromFolder: string | null, store: LinkpathLookup): string | null {
  if (clean === '') return null;
  // `/compendium/items/azurite.md` (ttrpg-convert-cli writes every link so): from the vault's root, as Obsidian reads it.
  if (clean.startsWith('/')) return store.byPath(linkKey(normalizeSegments(clean))) ?? null;
  if (fromFolder) {
    const relative = store.byPath(linkKey(normalizeSegments(`${fromFolder}/${clean}`)));
    if (relative) return relative;
  }
  const exact = store.byPath(linkKey(normalizeSegments(clean)));
  if (exact) return exact;
  const base = clean.slice(clean.lastIndexOf('/') + 1);
  const candidates = store.byName(linkKey(base));
  if (!candidates || candidates.length === 0) return null;
  // A link that names folders leads only to a file under them, as in Obsidian: `[[Plugins/Tags]]`
  // is unresolved when the one Tags note lives elsewhere (it led there, to the wrong page).
  const named = clean.includes('/');
  if (candidates.length === 1 && !named) return candidates[0]!;
  const suffix = '/' + linkKey(normalizeSegments(clean));
  const matching = named ? candidates.filter((c) => ('/' + linkKey(c)).endsWith(suffix)) : candidates;
  if (matching.length === 0) return null;
  if (matching.length === 1) return matching[0]!;
  const pool = matching;
  const sameFolder = fromFolder !== null ? pool.find((c) => folderOf(c) === fromFolder) : undefined;
  return sameFolder ?? [...pool].sort((a, b) => a.length - b.length || textCompare(a, b))[0]!;
}

const aliasKey = (a: string) => sameName(a.trim());

/**
 * Where links point depends only on which paths (and aliases) exist. The index (and every
 * answer it gave) is kept while they stay the same, so a save of one note does not make
 * the whole vault's links be looked up again.
 */
class PathIndex implements LinkpathLookup {
  readonly paths = new Map<string, string>();
  readonly names = new Map<string, string[]>();
  readonly aliases = new Map<string, string[]>();
  /** Answers given, by the linking note's folder ('\u0001': none) and then the link as written. */
  readonly memo = new Map<string, Map<string, string | null>>();
  /** Aliases of each path as indexed, to tell when they change. */
  private readonly aliasesOf = new Map<string, string>();

  constructor(records: LinkNode[]) {
    for (const r of records) {
      this.paths.set(linkKey(r.path), r.path);
      push(this.names, linkKey(r.name), r.path);
      const aliases = r.aliases ?? [];
      this.aliasesOf.set(r.path, aliases.join('\u0000'));
      for (const a of aliases) if (aliasKey(a)) push(this.aliases, aliasKey(a), r.path);
    }
  }

  byPath(key: string): string | undefined {
    return this.paths.get(key);
  }

  byName(key: string): readonly string[] | undefined {
    return this.names.get(key);
  }

  sameAs(records: LinkNode[]): boolean {
    if (records.length !== this.aliasesOf.size) return false;
    for (const r of records) if (this.aliasesOf.get(r.path) !== (r.aliases ?? []).join('\u0000')) return false;
    return true;
  }

  lookup(target: string, fromFolder: string | null): string | null {
    const clean = target.replace(/#[^]*$/, '').trim();
    const found = chooseLinkpath(clean, fromFolder, this);
    if (found || clean === '') return found;
    // No note of that name: a note that lists it among its aliases.
    const byAlias = this.aliases.get(aliasKey(clean.replace(/\.(md|markdown)$/i, '')));
    if (!byAlias) return null;
    return [...byAlias].sort((a, b) => a.length - b.length || textCompare(a, b))[0]!;
  }
}

function push(map: Map<string, string[]>, key: string, value: string): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

let lastIndex: PathIndex | null = null;

export function createLinkResolver<T extends LinkNode = NoteRecord>(records: Iterable<T>): LinkResolver<T> {
  const list = [...records];
  const index = lastIndex && lastIndex.sameAs(list) ? lastIndex : new PathIndex(list);
  lastIndex = index;
  const current = new Map<string, T>();
  for (const r of list) current.set(r.path, r);
  return {
    generation: index,
    resolve(target, from) {
      const folder = from ? from.folder : '\u0001';
      let answers = index.memo.get(folder);
      if (!answers) index.memo.set(folder, (answers = new Map()));
      let found = answers.get(target);
      if (found === undefined) {
        found = index.lookup(target, from ? from.folder : null);
        answers.set(target, found);
      }
      return found === null ? null : (current.get(found) ?? null);
    },
    replace(next) {
      if (current.has(next.path)) current.set(next.path, next);
    },
  };
}

// A note's outbound links, resolved, for as long as the note and the path index are the same.
const outbound = new WeakMap<NoteRecord, { generation: object; paths: (string | null)[] }>();

/** The paths a note's links and embeds lead to (null: nowhere), remembered per record while links resolve the same. */
export function outboundPaths(note: NoteRecord, resolver: LinkResolver): (string | null)[] {
  let known = outbound.get(note);
  if (!known || known.generation !== resolver.generation) {
    // An embed is a link too (Obsidian counts it as one).
    const targets = note.transclusions.length ? [...note.links, ...note.transclusions.map((t) => t.target)] : note.links;
    known = { generation: resolver.generation, paths: targets.map((t) => resolver.resolve(t, note)?.path ?? null) };
    outbound.set(note, known);
  }
  return known.paths;
}

const outboundSets = new WeakMap<(string | null)[], Set<string | null>>();

/** outboundPaths as a set, for asking whether a note links to one of a few others (an index note links thousands). */
export function outboundSet(note: NoteRecord, resolver: LinkResolver): Set<string | null> {
  const paths = outboundPaths(note, resolver);
  let set = outboundSets.get(paths);
  if (!set) outboundSets.set(paths, (set = new Set(paths)));
  return set;
}

/**
 * CONTRACT §12's backlinks: for each visible note, the visible notes linking to (or
 * embedding) it, by title. Made once per model; an unpublished note is never in it.
 */
export function backlinkIndex(notes: NoteRecord[], resolver: LinkResolver, visible: (r: NoteRecord) => boolean): Map<VaultPath, NoteRecord[]> {
  const byPath = new Map<string, NoteRecord>();
  for (const note of notes) byPath.set(note.path, note);
  const out = new Map<VaultPath, NoteRecord[]>();
  for (const note of notes) {
    if (!visible(note) || (note.links.length === 0 && note.transclusions.length === 0)) continue;
    for (const p of new Set(outboundPaths(note, resolver))) {
      const target = p === null ? undefined : byPath.get(p);
      if (!target || target === note || !visible(target)) continue;
      let list = out.get(target.path);
      if (!list) out.set(target.path, (list = []));
      list.push(note);
    }
  }
  for (const list of out.values()) list.sort(byTitle);
  return out;
}

/** The order of a note's backlinks: by title, then path (an edit of the text never moves one). */
export function byTitle(a: NoteRecord, b: NoteRecord): number {
  return textCompare(a.title, b.title) || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0);
}

/**
 * spec D.1: Related = published notes that link to this one or are linked from it.
 * `visible` says whether a note may be shown to visitors.
 */
export function relatedIndex(
  notes: NoteRecord[],
  resolver: LinkResolver,
  visible: (r: NoteRecord) => boolean,
): Map<VaultPath, NoteRecord[]> {
  const out = new Map<VaultPath, Set<NoteRecord>>();
  const add = (a: NoteRecord, b: NoteRecord) => {
    if (a === b) return;
    let set = out.get(a.path);
    if (!set) out.set(a.path, (set = new Set()));
    set.add(b);
  };
  const byPath = new Map<string, NoteRecord>();
  for (const note of notes) byPath.set(note.path, note);
  for (const note of notes) {
    if (!visible(note) || (note.links.length === 0 && note.transclusions.length === 0)) continue;
    for (const p of outboundPaths(note, resolver)) {
      const other = p === null ? undefined : byPath.get(p);
      if (!other || !visible(other)) continue;
      add(note, other);
      add(other, note);
    }
  }
  const result = new Map<VaultPath, NoteRecord[]>();
  for (const [p, set] of out) result.set(p, [...set].sort((a, b) => b.date.ms - a.date.ms || textCompare(a.title, b.title)));
  return result;
}

/** Twins declared with `twin:` on either side, both visible; a pair is symmetric. */
export function twinIndex(
  notes: NoteRecord[],
  resolver: LinkResolver,
  visible: (r: NoteRecord) => boolean,
): Map<VaultPath, NoteRecord> {
  const out = new Map<VaultPath, NoteRecord>();
  for (const note of notes) {
    if (!note.twinRef || !visible(note)) continue;
    const other = resolver.resolve(note.twinRef, note);
    if (!other || other === note || !visible(other)) continue;
    if (!out.has(note.path)) out.set(note.path, other);
    if (!out.has(other.path)) out.set(other.path, note);
  }
  return out;
}
