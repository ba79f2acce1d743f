// One note as the admin's tools see it: title, aliases, tags, publish flag,
// headings (Outline, `[[Note#` suggestions), links with their lines (Backlinks), and
// the text folded for vault search. Derived once per change of the file.
import { headingsOf, type Heading } from '../../shared/note/headings.ts';
import { tagAt } from '../../shared/note/obsidian/tag-syntax.ts';
import { foldText } from '../../shared/text-fold.ts';
import { isTrue, parseFrontmatter } from '../../shared/note/frontmatter.ts';
import { listValue, tagsOf } from '../../shared/note/fields.ts';
import { titleOf } from '../../shared/note/title.ts';
import type { LinkNode } from '../../shared/model/links.ts';
import type { VaultPath } from '../../shared/vault-path.ts';
import { parseWikiLinks } from '../../shared/wikilinks.ts';

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

const FENCE = /^\s*(```|~~~)/;
const MD_NOTE_LINK = /\[[^\]\n]*\]\(\s*<?([^)\s>]+\.(?:md|markdown))(#[^)\s>]*)?>?\s*\)/gi;
const CONTEXT_CHARS = 240;

/** The 1-based line where the body starts (after a frontmatter block), and the block's end. */
function bodyStart(lines: string[]): number {
  if (lines[0]?.trim() !== '---') return 1;
  for (let i = 1; i < lines.length; i++) if (lines[i]!.trim() === '---' || lines[i]!.trim() === '...') return i + 2;
  return 1;
}

export function indexNote(path: VaultPath, text: string, mtimeMs: number): IndexedNote {
  const parsed = parseFrontmatter(text, path);
  const slash = path.lastIndexOf('/');
  const fileName = path.slice(slash + 1);
  const lines = text.split(/\r?\n/);
  const links: NoteLink[] = [];
  const inlineTags: string[] = [];
  let inCode = false;
  for (let i = bodyStart(lines) - 1; i < lines.length; i++) {
    const line = lines[i]!;
    if (FENCE.test(line)) {
      inCode = !inCode;
      continue;
    }
    if (inCode) continue;
    // Inline tags by the public site's own rule (shared/note/obsidian/tags.ts); a heading's `#` is no tag.
    if (!/^#{1,6}[ \t]/.test(line)) {
      for (let at = line.indexOf('#'); at >= 0; at = line.indexOf('#', at + 1)) {
        const tag = tagAt(line, at);
        if (tag) inlineTags.push(tag);
      }
    }
    const context = line.trim().slice(0, CONTEXT_CHARS);
    if (line.includes('[[')) {
      for (const l of parseWikiLinks(line)) links.push({ target: l.target, heading: l.heading, line: i + 1, context });
    }
    if (line.includes('](')) {
      for (const m of line.matchAll(MD_NOTE_LINK)) {
        let target = m[1]!;
        try {
          target = decodeURIComponent(target);
        } catch {
          /* as written */
        }
        links.push({ target, heading: m[2] ? m[2].slice(1) : null, line: i + 1, context });
      }
    }
  }
  const headings = headingsOf({ count: lines.length, at: (n) => lines[n - 1]! }, bodyStart(lines));
  const data = parsed.data;
  const title = titleOf(data, parsed.body, fileName);
  const aliases = [...listValue(data.aliases), ...listValue(data.alias)];
  const tags = [...new Set([...tagsOf(data), ...inlineTags])];
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
