// Resolves wikilinks and relative Markdown links the way Obsidian does (full path,
// else file name, nearest folder first) and derives Related and language twins.
import { linkKey } from '../wikilinks.ts';
import type { VaultPath } from '../vault-path.ts';
import type { NoteRecord } from './note-record.ts';

export interface LinkResolver {
  /** The note a link written in `from` points to, or null. */
  resolve(target: string, from: NoteRecord | null): NoteRecord | null;
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

export function createLinkResolver(records: Iterable<NoteRecord>): LinkResolver {
  const byPath = new Map<string, NoteRecord>();
  const byName = new Map<string, NoteRecord[]>();
  for (const r of records) {
    byPath.set(linkKey(r.path), r);
    const key = linkKey(r.name);
    const list = byName.get(key);
    if (list) list.push(r);
    else byName.set(key, [r]);
  }
  function resolve(target: string, from: NoteRecord | null): NoteRecord | null {
    const clean = target.replace(/#.*$/, '').trim();
    if (clean === '') return null;
    // Relative to the linking note's folder first (Markdown links), then from the vault root.
    if (from && from.folder) {
      const relative = byPath.get(linkKey(normalizeSegments(`${from.folder}/${clean}`)));
      if (relative) return relative;
    }
    const exact = byPath.get(linkKey(normalizeSegments(clean)));
    if (exact) return exact;
    const base = clean.slice(clean.lastIndexOf('/') + 1);
    const candidates = byName.get(linkKey(base));
    if (!candidates || candidates.length === 0) return null;
    if (candidates.length === 1) return candidates[0]!;
    const suffix = linkKey(clean);
    const matching = candidates.filter((c) => linkKey(c.path).endsWith(suffix));
    const pool = matching.length ? matching : candidates;
    const sameFolder = from ? pool.find((c) => c.folder === from.folder) : undefined;
    return sameFolder ?? [...pool].sort((a, b) => a.path.length - b.path.length || a.path.localeCompare(b.path))[0]!;
  }
  return { resolve };
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
  for (const note of notes) {
    if (!visible(note)) continue;
    for (const target of note.links) {
      const other = resolver.resolve(target, note);
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
