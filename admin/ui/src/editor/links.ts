// Wikilinks in the editor: which link the cursor or pointer is on, and how a
// note is named in a new link (its name when that is unique in the vault, else its
// path, never with `.md`, as Obsidian writes links).
import { ensureSyntaxTree, syntaxTree } from '@codemirror/language';
import type { EditorState } from '@codemirror/state';
import { createLinkResolver } from '../../../../shared/model/links.ts';
import { writtenLinks } from '../../../../shared/wikilinks.ts';
import type { VaultPath } from '../../../../shared/vault-path.ts';
import { sameName } from '../../../../shared/vault-names.ts';

export interface LinkAt {
  target: string;
  heading: string | null;
  from: number;
  to: number;
}

/** The wikilink covering `offset` of `line` (offsets within the line), if any: read as the site reads one. */
export function wikilinkAt(line: string, offset: number): LinkAt | null {
  for (const link of writtenLinks(line)) {
    const from = link.at;
    const to = from + link.length;
    if (offset < from || offset > to) continue;
    const heading = link.heading ? link.heading.slice(1).trim() || null : null;
    return { target: link.target.trim(), heading, from, to };
  }
  return null;
}

// The editor's Markdown nodes whose text is no Markdown (code, math, raw HTML): a `[[link]]` there is no link.
const LITERAL_NODES = new Set(['InlineCode', 'FencedCode', 'CodeBlock', 'HTMLBlock', 'HTMLTag', 'Comment', 'CommentBlock', 'InlineMath', 'BlockMath']);

/**
 * The wikilink at document position `pos` that a click follows: none inside code, math or
 * raw HTML, as Obsidian follows none there, by the editor's own syntax tree of the note.
 */
export function followableLinkAt(state: EditorState, pos: number): LinkAt | null {
  const line = state.doc.lineAt(pos);
  const link = wikilinkAt(line.text, pos - line.from);
  if (!link) return null;
  const at = line.from + link.from;
  const tree = ensureSyntaxTree(state, at + 2, 100) ?? syntaxTree(state);
  for (let node: ReturnType<typeof tree.resolveInner> | null = tree.resolveInner(at, 1); node; node = node.parent) {
    if (LITERAL_NODES.has(node.name)) return null;
  }
  return link;
}

export const linkName = (path: string) => path.replace(/\.(md|markdown)$/i, '');
const baseOf = (path: string) => path.slice(path.lastIndexOf('/') + 1);

/** How a link to `path` is written: the bare name when no other note shares it, else the path. */
export function linkTextFor(path: string, allPaths: string[]): string {
  const base = sameName(linkName(baseOf(path)));
  const shared = allPaths.some((p) => p !== path && sameName(linkName(baseOf(p))) === base);
  return shared ? linkName(path) : linkName(baseOf(path));
}

/** Obsidian's resolution, the very one the public site uses (shared/model/links.ts). */
export function resolveLink(target: string, fromPath: string, notes: { path: string; aliases?: string[] }[]): string | null {
  if (target.trim() === '') return fromPath;
  const node = (p: string, aliases: string[] = []) => ({
    path: p as VaultPath,
    name: linkName(baseOf(p)).replace(/\.tex$/i, ''),
    folder: p.includes('/') ? p.slice(0, p.lastIndexOf('/')) : '',
    aliases,
  });
  return createLinkResolver(notes.map((n) => node(n.path, n.aliases))).resolve(target, node(fromPath))?.path ?? null;
}
