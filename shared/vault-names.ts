// How the vault's names compare: composed (NFC), and case aside where macOS and Windows set
// it aside. A Mac's older file systems store `é` as `e` and a combining accent (NFD); what
// people type, what git on a Mac commits, and the addresses Obsidian and Hugo publish are
// composed. No Node modules here: the admin app's browser code reads it too.

/**
 * A name or tag as the site spells it: composed (NFC), so a static host finds a page at the
 * address typed, and `#résumé` is one tag however it was stored.
 */
export const composed = (name: string): string => name.normalize('NFC');

/** A name as macOS and Windows compare it: case and Unicode form aside. */
export const sameName = (p: string): string => composed(p).toLowerCase();

/**
 * Whether `p` lies in `folder` (vault-relative; slashes around it aside), names compared as
 * macOS and Windows compare them: the templates folder `Modèles` a Mac named with a combining
 * accent is the folder the settings call `Modèles`, and its notes are templates, not posts.
 */
export function isInFolder(p: string, folder: string): boolean {
  const f = sameName(folder.replace(/^\/+|(?<!\/)\/+$/g, ''));
  return f !== '' && (sameName(p) + '/').startsWith(f + '/');
}

const SYNCTHING_COPY = /\.sync-conflict-\d{8}-\d{6}-[A-Z0-9]{7}$/;

/**
 * The path a sync tool's conflict copy is a copy of, or null: `Note.sync-conflict-20240115-
 * 123456-ABCDEF1.md` (Syncthing), `Note (conflicted copy 2024-01-15).md` and `Note (Sam's
 * conflicted copy 2024-01-15).md` (Dropbox, Nextcloud). A copy carries the note's frontmatter,
 * `publish: true` with it: a second post of the same text until someone resolves it.
 */
export function conflictCopyOf(p: string): string | null {
  const slash = p.lastIndexOf('/');
  const dot = p.lastIndexOf('.');
  if (dot <= slash + 1) return null;
  const stem = p.slice(slash + 1, dot);
  let original: string | null = null;
  const syncthing = SYNCTHING_COPY.exec(stem);
  if (syncthing) original = stem.slice(0, syncthing.index);
  else if (stem.endsWith(')')) {
    const lower = stem.toLowerCase();
    const open = lower.lastIndexOf(' (', lower.lastIndexOf('conflicted copy'));
    if (lower.includes('conflicted copy') && open > 0) original = stem.slice(0, open);
  }
  return original ? p.slice(0, slash + 1) + original + p.slice(dot) : null;
}
