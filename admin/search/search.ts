// Vault search and backlinks over the note index. Search: every word of the
// query (folded for case, accents and Arabic forms, CONTRACT §9) must occur in the
// note's title, aliases, tags, path or text; titles rank first; each result names its
// best matching line. Backlinks: the notes whose links resolve to a note, each with the
// line the link is written on.
import { textCompare } from '../../shared/natural-order.ts';
import { foldText, queryTerms } from '../../shared/text-fold.ts';
import type { VaultPath } from '../../shared/vault-path.ts';
import type { IndexedNote } from './note-entry.ts';
import type { NoteIndex } from './note-index.ts';

export interface SearchResult {
  path: VaultPath;
  title: string;
  /** 1-based line of the best match ('' text when only the title, aliases or tags matched). */
  line: number;
  /** Character offset of the match in that line (for the cursor), and its length. */
  column: number;
  length: number;
  /** The matching line, cut to about 200 characters around the match. */
  text: string;
  /** Where the match starts in `text`. */
  textColumn: number;
  tags: string[];
}

export interface SearchAnswer {
  results: SearchResult[];
  /** How many notes matched in all (the answer lists at most `limit`). */
  total: number;
}

const SNIPPET_CHARS = 200;

function count(haystack: string, needle: string): number {
  let n = 0;
  for (let at = haystack.indexOf(needle); at >= 0 && n < 20; at = haystack.indexOf(needle, at + needle.length)) n++;
  return n;
}

/** A note's score for the query, or 0 when some word occurs nowhere in it. */
function score(note: IndexedNote, terms: string[]): number {
  let total = 0;
  for (const term of terms) {
    let s = 0;
    if (note.foldedTitle === term) s += 40;
    else if (note.foldedTitle.startsWith(term)) s += 25;
    else if (note.foldedTitle.includes(term)) s += 15;
    if (note.foldedAliases.some((a) => a.includes(term))) s += 12;
    if (note.foldedTags.some((tag) => tag === term.replace(/^#/, ''))) s += 10;
    else if (note.foldedTags.some((tag) => tag.includes(term.replace(/^#/, '')))) s += 5;
    if (note.foldedPath.includes(term)) s += 3;
    const hits = count(note.folded, term);
    s += hits === 0 ? 0 : 1 + Math.min(hits, 10) * 0.3;
    if (s === 0) return 0;
    total += s;
  }
  return total;
}

/** The line holding the most of the query's words (the first such line). */
function bestLine(note: IndexedNote, terms: string[]): { line: number; column: number; length: number } | null {
  const lines = note.folded.split('\n');
  let best: { line: number; column: number; length: number; hits: number } | null = null;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    let hits = 0;
    let first = -1;
    let firstLength = 0;
    for (const term of terms) {
      const at = line.indexOf(term);
      if (at < 0) continue;
      hits++;
      if (first < 0 || at < first) {
        first = at;
        firstLength = term.length;
      }
    }
    if (hits > 0 && (!best || hits > best.hits)) best = { line: i + 1, column: first, length: firstLength, hits };
    if (best && best.hits === terms.length) break;
  }
  return best;
}

/**
 * Where a folded offset falls in the raw line (folding drops Arabic diacritics, so
 * offsets shift). An end offset takes in the marks that follow its last letter.
 */
function rawOffset(raw: string, folded: number, end = false): number {
  let seen = 0;
  let i = 0;
  for (const ch of raw) {
    const width = foldText(ch).length;
    if (seen >= folded && !(end && width === 0)) return i;
    seen += width;
    i += ch.length;
  }
  return raw.length;
}

/** The raw line (the index keeps only folded text): the match's place in it, and the line cut around it. */
async function locate(index: NoteIndex, p: VaultPath, line: number, foldedColumn: number, foldedLength: number) {
  const text = await index.text(p);
  const raw = (text.split(/\r?\n/)[line - 1] ?? '').replace(/\t/g, ' ');
  const column = rawOffset(raw, foldedColumn);
  const length = rawOffset(raw, foldedColumn + foldedLength, true) - column;
  if (raw.length <= SNIPPET_CHARS) return { column, length, text: raw, textColumn: column };
  const start = Math.max(0, Math.min(column - 60, raw.length - SNIPPET_CHARS));
  const lead = start > 0 ? '…' : '';
  return { column, length, text: lead + raw.slice(start, start + SNIPPET_CHARS) + '…', textColumn: column - start + lead.length };
}

export async function searchNotes(index: NoteIndex, query: string, limit = 50): Promise<SearchAnswer> {
  const terms = queryTerms(query);
  if (terms.length === 0) return { results: [], total: 0 };
  const scored: { note: IndexedNote; score: number }[] = [];
  for (const note of await index.all()) {
    const s = score(note, terms);
    if (s > 0) scored.push({ note, score: s });
  }
  scored.sort((a, b) => b.score - a.score || textCompare(a.note.title, b.note.title));
  const results = await Promise.all(
    scored.slice(0, limit).map(async ({ note }): Promise<SearchResult> => {
      const base = { path: note.path, title: note.title, tags: note.tags };
      const match = bestLine(note, terms);
      if (!match) return { ...base, line: 1, column: 0, length: 0, text: '', textColumn: 0 };
      return { ...base, line: match.line, ...(await locate(index, note.path, match.line, match.column, match.length)) };
    }),
  );
  return { results, total: scored.length };
}

export interface Backlink {
  path: VaultPath;
  title: string;
  line: number;
  context: string;
}

/** Notes linking to `target` (resolved as Obsidian resolves links), one row per line that links it (a line linking it three times is one row). */
export async function backlinksOf(index: NoteIndex, target: VaultPath): Promise<Backlink[]> {
  const resolver = await index.resolver();
  const out: Backlink[] = [];
  for (const note of await index.all()) {
    if (note.path === target) continue;
    let lastLine = -1;
    for (const link of note.links) {
      if (link.line === lastLine || resolver.resolve(link.target, note)?.path !== target) continue;
      lastLine = link.line;
      out.push({ path: note.path, title: note.title, line: link.line, context: link.context });
    }
  }
  return out.sort((a, b) => textCompare(a.title, b.title) || a.line - b.line);
}
