// Markdown links into the vault as a rename rewrites them: `[text](Other%20note.md#Part)`,
// `[text](../Folder/Other.md)`, `![alt](pic.png)`. The same map as the wikilinks' decides
// (rename.ts fileLinkMapper: a link names a file by its path or, when unique, its name); a link
// written relative to its note stays relative, one written with `.md` keeps it, and the
// anchor, the title and the link's text are left as they are.
import path from 'node:path';
import { isVaultHref, MARKDOWN_LINK, safeDecode } from './link-address.ts';

const NOTE_EXT = /\.(md|markdown)$/i;

/** A path as a link's address: what would end it or be read as something else (a space, `(`, `#`…) escaped, as Obsidian writes `%20`; other letters as they are. */
const encoded = (p: string): string => p.replace(/[% ()#?<>[\]]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`);

/**
 * `text` (the note at `notePath`) with every Markdown link whose target `map` renames written
 * anew. `map` takes a target as a wikilink writes it (a vault path or a name, with or without
 * `.md`) and answers the new one without `.md`, or null.
 */
export function rewriteMarkdownLinks(text: string, notePath: string, map: (target: string) => string | null): string {
  if (!text.includes('](')) return text;
  const folder = path.posix.dirname(notePath);
  return text.replace(MARKDOWN_LINK, (whole, bang: string, label: string, written: string) => {
    if (!isVaultHref(written)) return whole;
    // What stands before and after the address (`![text](`, ` "title")`) is kept as written.
    const open = `${bang}[${label}](`;
    const close = whole.slice(open.length + written.length);
    const hashAt = written.indexOf('#');
    const target = safeDecode(hashAt >= 0 ? written.slice(0, hashAt) : written);
    const anchor = hashAt >= 0 ? written.slice(hashAt) : '';
    if (target === '') return whole;
    const relative = target.startsWith('./') || target.startsWith('../');
    const asWritten = relative ? path.posix.normalize(path.posix.join(folder === '.' ? '' : folder, target)) : target;
    if (asWritten.startsWith('../')) return whole;
    const next = map(asWritten);
    if (next === null) return whole;
    // The new target as this link wrote the old: relative from its note, with `.md` when it had one.
    const withExt = NOTE_EXT.test(target) && !NOTE_EXT.test(next) ? `${next}${target.match(NOTE_EXT)![0]}` : next;
    let out = withExt;
    if (relative) {
      out = path.posix.relative(folder === '.' ? '' : folder, withExt);
      if (target.startsWith('./') && !out.startsWith('../')) out = `./${out}`;
    }
    return `${open}${encoded(out)}${anchor}${close}`;
  });
}
