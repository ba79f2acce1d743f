// Markdown links into the vault as a rename rewrites them: `[text](Other%20note.md#Part)`,
// `[text](../Folder/Other.md)`, `![alt](pic.png)`. The same map as the wikilinks' decides
// (rename.ts fileLinkMapper: a link names a file by its path or, when unique, its name); a link
// written relative to its note stays relative, one written with `.md` keeps it, and the
// anchor, the title and the link's text are left as they are. A note that moves keeps what
// its relative links name.
import path from 'node:path';
import { isVaultHref, MARKDOWN_LINK, safeDecode } from './link-address.ts';

const NOTE_EXT = /\.(md|markdown)$/i;

/** A path as a link's address: what would end it or be read as something else (a space, `(`, `#`…) escaped, as Obsidian writes `%20`; other letters as they are. */
const encoded = (p: string): string => p.replace(/[% ()#?<>[\]]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`);

/** A note's folder as a relative link is read from ('' at the vault's root). */
const folderOf = (notePath: string): string => {
  const folder = path.posix.dirname(notePath);
  return folder === '.' ? '' : folder;
};

/**
 * `text` (the note at `notePath`) with every Markdown link whose target `map` renames written
 * anew. `map` takes a target as a wikilink writes it (a vault path or a name, with or without
 * `.md`) and answers the new one without `.md`, or null. `writtenAt` is where the note lived
 * when its links were written: a note the rename moved (or one in a moved folder) reads its
 * relative links from there, and each is written again from where it is now.
 */
export function rewriteMarkdownLinks(text: string, notePath: string, map: (target: string) => string | null, writtenAt: string = notePath): string {
  if (!text.includes('](')) return text;
  const folder = folderOf(notePath);
  const wasIn = folderOf(writtenAt);
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
    const asWritten = relative ? path.posix.normalize(path.posix.join(wasIn, target)) : target;
    if (asWritten.startsWith('../')) return whole;
    // A relative link of a moved note names the same file from its new folder, renamed or not.
    const next = map(asWritten) ?? (relative && folder !== wasIn ? asWritten : null);
    if (next === null) return whole;
    // The new target as this link wrote the old: relative from its note, with `.md` when it had one.
    const withExt = NOTE_EXT.test(target) && !NOTE_EXT.test(next) ? `${next}${target.match(NOTE_EXT)![0]}` : next;
    let out = withExt;
    if (relative) {
      out = path.posix.relative(folder, withExt);
      if (target.startsWith('./') && !out.startsWith('../')) out = `./${out}`;
    }
    return `${open}${encoded(out)}${anchor}${close}`;
  });
}
