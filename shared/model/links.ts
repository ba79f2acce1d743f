// Resolves wikilinks and relative Markdown links the way Obsidian does (full path,
// else file name, nearest folder first) and derives Related and language twins.
import { linkKey } from '../wikilinks.ts';
import type { VaultPath } from '../vault-path.ts';
import type { NoteRecord } from './note-record.ts';

/** What link resolution needs of a note (a NoteRecord, or the admin's lighter index entry). */
export interface LinkNode {
  path: VaultPath;
  /** File name without extension. */
  name: string;
  /** Folder part of the path ('' at the vault root). */
  folder: string;
}

export interface LinkResolver<T extends LinkNode = NoteRecord> {
  /** The note a link written in `from` points to, or null. */
  resolve(target: string, from: LinkNode | null): T | null;
  /** The same object for as long as every answer stays the same (the set of paths is unchanged). */
  readonly generation: object;
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

/**
 * Where links point depends only on which paths exist. The index (and every answer
 * it gave) is kept while the set of paths stays the same, so a save of one note does
 * not make the whole vault's links be looked up again.
 */
class PathIndex {
  readonly byPath = new Map<string, string>();
  readonly byName = new Map<string, string[]>();
  readonly memo = new Map<string, string | null>();
  readonly paths: Set<string>;

  constructor(records: LinkNode[]) {
    this.paths = new Set(records.map((r) => r.path));
    for (const r of records) {
      this.byPath.set(linkKey(r.path), r.path);
      const key = linkKey(r.name);
      const list = this.byName.get(key);
      if (list) list.push(r.path);
      else this.byName.set(key, [r.path]);
    }
  }

  sameAs(records: LinkNode[]): boolean {
    if (records.length !== this.paths.size) return false;
    for (const r of records) if (!this.paths.has(r.path)) return false;
    return true;
  }

  lookup(target: string, fromFolder: string | null): string | null {
    const clean = target.replace(/#.*$/, '').trim();
    if (clean === '') return null;
    // Relative to the linking note's folder first (Markdown links), then from the vault root.
    if (fromFolder) {
      const relative = this.byPath.get(linkKey(normalizeSegments(`${fromFolder}/${clean}`)));
      if (relative) return relative;
    }
    const exact = this.byPath.get(linkKey(normalizeSegments(clean)));
    if (exact) return exact;
    const base = clean.slice(clean.lastIndexOf('/') + 1);
    const candidates = this.byName.get(linkKey(base));
    if (!candidates || candidates.length === 0) return null;
    if (candidates.length === 1) return candidates[0]!;
    const suffix = linkKey(clean);
    const matching = candidates.filter((c) => linkKey(c).endsWith(suffix));
    const pool = matching.length ? matching : candidates;
    const folderOf = (p: string) => p.slice(0, Math.max(0, p.lastIndexOf('/')));
    const sameFolder = fromFolder !== null ? pool.find((c) => folderOf(c) === fromFolder) : undefined;
    return sameFolder ?? [...pool].sort((a, b) => a.length - b.length || a.localeCompare(b))[0]!;
  }
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
      const key = `${from?.folder ?? '\u0001'}\u0000${target}`;
      let found = index.memo.get(key);
      if (found === undefined) {
        found = index.lookup(target, from ? from.folder : null);
        index.memo.set(key, found);
      }
      return found === null ? null : (current.get(found) ?? null);
    },
  };
}

// A note's outbound links, resolved, for as long as the note and the path index are the same.
const outbound = new WeakMap<NoteRecord, { generation: object; paths: (string | null)[] }>();

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
    if (!visible(note) || note.links.length === 0) continue;
    let known = outbound.get(note);
    if (!known || known.generation !== resolver.generation) {
      known = { generation: resolver.generation, paths: note.links.map((t) => resolver.resolve(t, note)?.path ?? null) };
      outbound.set(note, known);
    }
    for (const p of known.paths) {
      const other = p === null ? undefined : byPath.get(p);
      if (!other || !visible(other)) continue;
      add(note, other);
      add(other, note);
    }
  }
  const result = new Map<VaultPath, NoteRecord[]>();
  for (const [p, set] of out) result.set(p, [...set].sort((a, b) => b.date.ms - a.date.ms || a.title.localeCompare(b.title)));
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
