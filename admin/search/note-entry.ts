// One note as the admin's tools see it: title, aliases, tags, publish flag,
// headings (Outline, `[[Note#` suggestions), links with their lines (Backlinks), and
// the text folded for vault search. Derived once per change of the file.
import { headingsOf, type Heading } from '../../shared/note/headings.ts';
import { inlineTags } from '../../shared/note/inline-tags.ts';
import { foldText } from '../../shared/text-fold.ts';
import { isTrue, parseFrontmatter, type Frontmatter } from '../../shared/note/frontmatter.ts';
import { propertyLinks } from '../../shared/note/property-links.ts';
import { listValue, tagsOf } from '../../shared/note/fields.ts';
import { titleOf } from '../../shared/note/title.ts';
import type { LinkNode } from '../../shared/model/links.ts';
import type { VaultPath } from '../../shared/vault-path.ts';
import { linkPlaces } from '../../shared/note/link-places.ts';
import { isVaultHref, safeDecode } from '../../shared/link-address.ts';

export type { Heading } from '../../shared/note/headings.ts';

export interface NoteLink {
  target: string;
  heading: string | null;
  line: number;
  /** The line the link is written on, trimmed (what Backlinks shows). */
  context: string;
}

export interface IndexedNote extends LinkNode {
  title: string;
  aliases: string[];
  tags: string[];
  publish: boolean;
  headings: Heading[];
  links: NoteLink[];
  /** The whole file folded (foldText): same lines as the file. */
  folded: string;
  /** Title, aliases, tags and path, folded, for ranking. */
  foldedTitle: string;
  foldedAliases: string[];
  foldedTags: string[];
  foldedPath: string;
  mtimeMs: number;
}

const CONTEXT_CHARS = 240;
/** Windows of a long line start every half width, so the links of one line share a few strings. */
const CONTEXT_STEP = CONTEXT_CHARS / 2;
/** How far a cut may move to fall between words. */
const CUT_SLACK = 24;

/**
 * A link's line as the backlinks panel shows it: the whole line when short, else the window
 * holding the link (a link far along a long `Related:` line was cut off before), cut between
 * words, with "…" where cut. `windows` keeps each window of the line made so far.
 */
export function contextAround(line: string, at: number, length: number, windows: Map<number, string>): string {
  if (line.length <= CONTEXT_CHARS) return line;
  // The link starts a sixth of the way in when it can, and ends inside the window when it is short.
  const step = Math.max(0, Math.min(Math.floor((at - CONTEXT_CHARS / 6) / CONTEXT_STEP), Math.ceil((line.length - CONTEXT_CHARS) / CONTEXT_STEP)));
  const known = windows.get(step);
  if (known !== undefined) return known;
  let start = step * CONTEXT_STEP;
  let end = Math.min(line.length, start + CONTEXT_CHARS);
  if (start > 0) {
    const space = line.indexOf(' ', start);
    if (space >= 0 && space - start <= CUT_SLACK && space < at) start = space + 1;
  }
  if (end < line.length) {
    const space = line.lastIndexOf(' ', end);
    if (space > start && end - space <= CUT_SLACK && space >= Math.min(at + length, end)) end = space;
  }
  const text = `${start > 0 ? '…' : ''}${line.slice(start, end).trim()}${end < line.length ? '…' : ''}`;
  windows.set(step, text);
  return text;
}

/** The 1-based line where the body starts (after a frontmatter block), and the block's end. */
function bodyStart(lines: string[]): number {
  if (lines[0]?.trim() !== '---') return 1;
  for (let i = 1; i < lines.length; i++) if (lines[i]!.trim() === '---' || lines[i]!.trim() === '...') return i + 2;
  return 1;
}

/**
 * The body's links (from line `firstLine`, 1-based), each with its line: the places the
 * parser reads as links (link-places.ts), the ones a rename rewrites; none in code.
 */
function linksByLine(text: string, lines: string[], firstLine: number): NoteLink[] {
  const links: NoteLink[] = [];
  if (!text.includes('[[') && !text.includes('](') && !text.includes(']:')) return links;
  let line = 0;
  let lineAt = 0;
  let lineEnd = text.indexOf('\n');
  let windows = new Map<number, string>();
  for (const place of linkPlaces(text)) {
    while (lineEnd >= 0 && lineEnd < place.at) {
      lineAt = lineEnd + 1;
      lineEnd = text.indexOf('\n', lineAt);
      line++;
      windows = new Map();
    }
    if (line + 1 < firstLine) continue;
    let target: string;
    let heading: string | null;
    if (place.kind === 'wiki') {
      target = place.target.trim();
      if (target === '') continue; // [[#Heading]]: a link inside the note itself
      heading = place.heading ? place.heading.slice(1) : null;
    } else {
      if (!isVaultHref(place.address)) continue;
      const hash = place.address.indexOf('#');
      target = safeDecode(hash >= 0 ? place.address.slice(0, hash) : place.address);
      heading = hash >= 0 ? safeDecode(place.address.slice(hash + 1)) : null;
      if (target === '') continue;
    }
    const whole = lines[line]!;
    const lead = whole.length - whole.trimStart().length;
    links.push({ target, heading, line: line + 1, context: contextAround(whole.trim(), place.at - lineAt - lead, place.length, windows) });
  }
  return links;
}

/** The 0-based line of `key`'s block in a frontmatter of lines 1 to `end` (exclusive), or -1. */
function keyLine(lines: string[], key: string, end: number): number {
  for (let i = 1; i < end; i++) {
    const line = lines[i]!;
    if (line.startsWith(`${key}:`) || line.startsWith(`"${key}":`) || line.startsWith(`'${key}':`)) return i;
  }
  return -1;
}

/** Its properties' links (property-links.ts), as the site counts them, each on the line of its key's block that writes it. */
function propertyLinksByLine(data: Frontmatter, lines: string[], bodyLine: number): NoteLink[] {
  const links: NoteLink[] = [];
  const end = bodyLine - 2;
  for (const { key, target } of propertyLinks(data)) {
    const first = keyLine(lines, key, end);
    if (first < 0) continue;
    // The key's block: its own line and the indented or `-` lines under it.
    for (let i = first; i < end && (i === first || /^[\s-]/.test(lines[i]!)); i++) {
      if (!lines[i]!.includes(`[[${target}`)) continue;
      links.push({ target, heading: null, line: i + 1, context: lines[i]!.trim() });
      break;
    }
  }
  return links;
}

export function indexNote(path: VaultPath, text: string, mtimeMs: number): IndexedNote {
  const parsed = parseFrontmatter(text, path);
  const slash = path.lastIndexOf('/');
  const fileName = path.slice(slash + 1);
  const lines = text.split(/\r?\n/);
  const data = parsed.data;
  const bodyLine = bodyStart(lines);
  const links = [...propertyLinksByLine(data, lines, bodyLine), ...linksByLine(text, lines, bodyLine)];
  const headings = headingsOf({ count: lines.length, at: (n) => lines[n - 1]! }, bodyLine);
  const title = titleOf(data, parsed.body, fileName);
  const aliases = [...listValue(data.aliases), ...listValue(data.alias)];
  // Inline tags as the site's parser reads them: none in code, math or HTML comments.
  const tags = [...new Set([...tagsOf(data), ...inlineTags(parsed.body)])];
  return {
    path,
    name: fileName.replace(/\.(md|markdown|tex)$/i, ''),
    folder: slash < 0 ? '' : path.slice(0, slash),
    title,
    aliases,
    tags,
    publish: isTrue(data.publish),
    headings,
    links,
    folded: foldText(text),
    foldedTitle: foldText(title),
    foldedAliases: aliases.map(foldText),
    foldedTags: tags.map(foldText),
    foldedPath: foldText(path),
    mtimeMs,
  };
}
