// Links into the vault as a rename rewrites them: `[[Other note]]`, `[text](Other%20note.md#Part)`,
// `[text](<../Folder/Other.md>)`, `![alt](pic.png)`, `[ref]: Other.md`. One map decides for all
// (rename.ts fileLinkMapper: a link names a file by its path or, when unique, its name); a link
// written relative to its note stays relative, one written with `.md` keeps it, and the
// anchor, the title and the link's text are left as they are. A note that moves keeps what
// its relative links name.
import path from 'node:path';
import { isVaultHref, safeDecode } from './link-address.ts';
import { readAsLinks } from './note/link-places.ts';
import { writtenPlaces, type LinkPlace } from './note/written-places.ts';

const NOTE_EXT = /\.(md|markdown)$/i;

/** A path as a link's address: what would end it or be read as something else (a space, `(`, `#`…) escaped, as Obsidian writes `%20`; other letters as they are. */
const encoded = (p: string): string => p.replace(/[% ()#?<>[\]]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`);

/** A note's folder as a relative link is read from ('' at the vault's root). */
const folderOf = (notePath: string): string => {
  const folder = path.posix.dirname(notePath);
  return folder === '.' ? '' : folder;
};

/** An address as a link in <> writes it: spaces may stand; what would end it or be decoded is escaped. */
const angled = (p: string): string => p.replace(/[%<>\n]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`);

/**
 * `text` (the note at `notePath`) with every link whose target `map` renames written anew:
 * its wikilinks, Markdown links (`[t](a)`, `[t](<a b>)`, pictures) and reference definitions
 * (`[ref]: a`), at the places the parser reads as links (link-places.ts: never in code or
 * math). `map` takes a target as a wikilink writes it (a vault path or a name, with or without
 * `.md`) and answers the new one without `.md`, or null. `writtenAt` is where the note lived
 * when its links were written: a note the rename moved (or one in a moved folder) reads its
 * relative links from there, and each is written again from where it is now.
 */
export function rewriteNoteLinks(text: string, notePath: string, map: (target: string) => string | null, writtenAt: string = notePath): string {
  if (!text.includes('[[') && !text.includes('](') && !text.includes(']:')) return text;
  const folder = folderOf(notePath);
  const wasIn = folderOf(writtenAt);
  // What each place would become; the parser is asked only about those that change (most notes hold none).
  const edits = new Map<LinkPlace, [number, number, string]>();
  for (const place of writtenPlaces(text)) {
    if (place.kind === 'wiki') {
      const next = place.target.trim() === '' ? null : map(place.target.trim());
      if (next !== null) edits.set(place, [place.at, place.length, `${place.bang}[[${next}${place.heading}${place.alias}]]`]);
      continue;
    }
    const next = nextAddress(place.address, map, folder, wasIn);
    if (next !== null) edits.set(place, [place.addressAt, place.address.length, (place.angle ? angled(next.path) : encoded(next.path)) + next.anchor]);
  }
  if (edits.size === 0) return text;
  let out = '';
  let at = 0;
  // In the text's order: a picture in a link's text (`[![a](p.png)](N.md)`) comes before the link's address.
  for (const [start, length, written] of readAsLinks(text, [...edits.keys()]).map((place) => edits.get(place)!).sort((a, b) => a[0] - b[0])) {
    out += text.slice(at, start) + written;
    at = start + length;
  }
  return at === 0 ? text : out + text.slice(at);
}

/**
 * A Markdown address (as written, percent-encoded or not, perhaps with an `#anchor`) written
 * anew for the renamed target: its path not yet encoded, its anchor as written; null when it names nothing renamed. The anchor
 * and a `.md` are kept; a relative address stays relative to its note.
 */
function nextAddress(written: string, map: (target: string) => string | null, folder: string, wasIn: string): { path: string; anchor: string } | null {
  if (!isVaultHref(written)) return null;
  const hashAt = written.indexOf('#');
  const target = safeDecode(hashAt >= 0 ? written.slice(0, hashAt) : written);
  const anchor = hashAt >= 0 ? written.slice(hashAt) : '';
  if (target === '') return null;
  const relative = target.startsWith('./') || target.startsWith('../');
  const asWritten = relative ? path.posix.normalize(path.posix.join(wasIn, target)) : target;
  if (asWritten.startsWith('../')) return null;
  // A relative link of a moved note names the same file from its new folder, renamed or not.
  const next = map(asWritten) ?? (relative && folder !== wasIn ? asWritten : null);
  if (next === null) return null;
  // The new target as this link wrote the old: relative from its note, with `.md` when it had one.
  const withExt = NOTE_EXT.test(target) && !NOTE_EXT.test(next) ? `${next}${target.match(NOTE_EXT)![0]}` : next;
  let out = withExt;
  if (relative) {
    out = path.posix.relative(folder, withExt);
    if (target.startsWith('./') && !out.startsWith('../')) out = `./${out}`;
  }
  return { path: out, anchor };
}
